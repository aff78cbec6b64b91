#include "core/dynamo/compile_cache.h"

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "core/dynamo/compile_for_call.h"
#include "core/fx/readable.h"
#include "core/ops/op_registry.h"

namespace airscope {
namespace {

class CompileCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    // x and y are used apart, so calls that give them different sizes are
    // calls torch can run (a compile checks the ops take the call's sizes).
    graph_ = ParseReadable(
                 "class GraphModule(torch.nn.Module):\n"
                 "    def forward(self, x: \"f32[2, 2]\", y: \"f32[2, 2]\"):\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(x, 1)\n"
                 "        mul: \"f32[2, 2]\" = torch.ops.aten.mul.Tensor(y, 2)\n"
                 "        return (add, mul)\n",
                 "t.py")
                 .value();
    compile_ = [this](const Graph& g, const std::vector<TensorMeta>& metas, const std::vector<TensorMeta>& hints) {
      ++compiles_;
      if (fail_next_) return Result<std::unique_ptr<Graph>>(Status::Error("backend failed"));
      return CompileForCall(g, metas, hints, OpRegistry::Builtin());
    };
  }
  CallOutcome Call(std::string_view spec) {
    std::vector<CallInput> inputs = BindCallInputs(*graph_, ParseCallSpec(spec).value()).value();
    Result<CallOutcome> outcome = frame_.Call(*graph_, inputs, options_, compile_);
    EXPECT_TRUE(outcome.ok()) << outcome.status().message();
    return outcome.ok() ? *outcome : CallOutcome{};
  }
  std::unique_ptr<Graph> graph_;
  Frame frame_{"forward", "t.py", 0};
  FrameOptions options_;
  CompileFn compile_;
  int compiles_ = 0;
  bool fail_next_ = false;
};

TEST_F(CompileCacheTest, FirstCallCompilesThenHits) {
  EXPECT_EQ(Call("x=f32[2,2] y=f32[2,2]").kind, CallOutcome::Kind::kCompiled);
  CallOutcome hit = Call("x=f32[2,2] y=f32[2,2]");
  EXPECT_EQ(hit.kind, CallOutcome::Kind::kHit);
  EXPECT_EQ(hit.compile_id, "0/0");
  EXPECT_EQ(frame_.entries()[0]->hits, 1u);
  EXPECT_EQ(compiles_, 1);
}

TEST_F(CompileCacheTest, SizeChangeRecompilesAutomaticDynamicThenHits) {
  Call("x=f32[2,2] y=f32[2,2]");
  CallOutcome miss = Call("x=f32[4,2] y=f32[4,2]");
  ASSERT_EQ(miss.kind, CallOutcome::Kind::kCompiled);
  EXPECT_EQ(miss.compile_id, "0/1");
  ASSERT_EQ(miss.failures.size(), 1u);
  EXPECT_EQ(miss.failures[0], "0/0: tensor 'x' size mismatch at index 0. expected 2, actual 4");
  EXPECT_NE(frame_.RecompileMessage(miss).find("Recompiling function forward in t.py\n    triggered by the following "
                                               "guard failure(s):\n    - 0/0: tensor 'x'"),
            std::string::npos);
  // The entry is symbolic in dim 0, x and y share s0 (duck sizing), and the compiled graph says so.
  const CacheEntry& entry = *frame_.entries()[1];
  EXPECT_EQ(entry.guards.ShapeEnvLines(),
            (std::vector<std::string>{"2 <= L['x'].size()[0]", "L['y'].size()[0] == L['x'].size()[0]"}));
  EXPECT_EQ(entry.artifact->Find("add")->meta()->ShapeString(), "f32[s0, 2]");
  EXPECT_EQ(Call("x=f32[16,2] y=f32[16,2]").kind, CallOutcome::Kind::kHit);
  EXPECT_EQ(Call("x=f32[7,2] y=f32[7,2]").compile_id, "0/1");
  EXPECT_EQ(compiles_, 2);
}

// torch.compile(dynamic=True): assume_static_by_default=False. Every dim of size >= 2 is a
// duck-sized symbol at the first compile; 0 and 1 are specialized, and a later size there
// recompiles (no constraint was asked for, so no ConstraintViolationError).
TEST_F(CompileCacheTest, DynamicTrueMakesEveryDimASymbolFromTheFirstCompile) {
  options_.assume_static_by_default = false;
  CallOutcome first = Call("x=f32[3,2] y=f32[1,2]");
  ASSERT_EQ(first.kind, CallOutcome::Kind::kCompiled);
  const GuardSet& guards = frame_.entries()[0]->guards;
  // x: [s0, s1]; y: [1, s1] (its 2 is duck sized with x's 2).
  EXPECT_EQ(guards.ShapeEnvLines(), (std::vector<std::string>{"2 <= L['x'].size()[0]", "2 <= L['x'].size()[1]",
                                                              "L['y'].size()[1] == L['x'].size()[1]"}));
  EXPECT_EQ(frame_.entries()[0]->artifact->Find("add")->meta()->ShapeString(), "f32[s0, s1]");
  EXPECT_EQ(Call("x=f32[9,5] y=f32[1,5]").kind, CallOutcome::Kind::kHit);
  CallOutcome other = Call("x=f32[3,2] y=f32[4,2]");
  ASSERT_EQ(other.kind, CallOutcome::Kind::kCompiled);
  EXPECT_EQ(other.failures[0], "0/0: tensor 'y' size mismatch at index 0. expected 1, actual 4");
  EXPECT_EQ(frame_.entries()[1]->artifact->Find("mul")->meta()->ShapeString(), "f32[s2, s1]");
  EXPECT_EQ(compiles_, 2);
}

// A parameter keeps its shape under dynamic=True (config.force_parameter_static_shapes).
TEST_F(CompileCacheTest, DynamicTrueKeepsParameterShapesStatic) {
  options_.assume_static_by_default = false;
  Call("x=f32[3,2] param y=f32[3,2]");
  const GuardSet& guards = frame_.entries()[0]->guards;
  EXPECT_EQ(guards.tensors()[0].sizes[0].kind, DimKind::kStatic);
  EXPECT_EQ(guards.tensors()[1].sizes[0].kind, DimKind::kSymbolic);
}

// torch.compile(dynamic=False): automatic_dynamic_shapes=False; each new size is one more static entry.
TEST_F(CompileCacheTest, DynamicFalseNeverMakesASymbol) {
  options_.automatic_dynamic = false;
  for (int n : {2, 3, 4, 5}) Call(fmt::format("x=f32[{0},2] y=f32[{0},2]", n));
  ASSERT_EQ(frame_.entries().size(), 4u);
  for (const auto& entry : frame_.entries()) EXPECT_TRUE(entry->guards.ShapeEnvLines().empty());
}

TEST_F(CompileCacheTest, RecompileLimitFallsBackToEager) {
  options_.cache_size_limit = 2;
  options_.automatic_dynamic = false;
  Call("x=f32[2,2] y=f32[2,2]");
  Call("x=f32[3,2] y=f32[3,2]");
  CallOutcome eager = Call("x=f32[4,2] y=f32[4,2]");
  EXPECT_EQ(eager.kind, CallOutcome::Kind::kEager);
  EXPECT_TRUE(eager.limit_hit_now);
  EXPECT_NE(frame_.LimitMessage(eager, 2).find("torch._dynamo hit config.recompile_limit (2)"), std::string::npos);
  EXPECT_FALSE(Call("x=f32[5,2] y=f32[5,2]").limit_hit_now);               // said once
  EXPECT_EQ(Call("x=f32[3,2] y=f32[3,2]").kind, CallOutcome::Kind::kHit);  // cached entries still run
  EXPECT_EQ(frame_.entries().size(), 2u);
  EXPECT_EQ(frame_.eager_calls(), 2u);
}

// set_dim_gears(y, {0: [8, 2, 4]}) (TorchAir's inference/_gear_utils.py).
DimGears Gears(std::string_view dim, std::string_view values) {
  return {DimGearsItem{ParsePyScalar(dim), ParseGearsValue(values).value()}};
}

TEST_F(CompileCacheTest, GearDimAdmitsExactlyItsGears) {
  ASSERT_TRUE(frame_.SetDimGears("y", 2, Gears("0", "8,2,4")).ok());
  Call("x=f32[4,2] y=f32[4,2]");
  const GuardSet& guards = frame_.entries()[0]->guards;
  EXPECT_EQ(guards.ShapeEnvLines(),
            (std::vector<std::string>{"2 <= L['y'].size()[0] <= 8", "(L['y'].size()[0] <= 2) | (4 <= L['y'].size()[0])",
                                      "(L['y'].size()[0] <= 4) | (8 <= L['y'].size()[0])"}));
  EXPECT_EQ(Call("x=f32[4,2] y=f32[8,2]").kind, CallOutcome::Kind::kHit);
  EXPECT_EQ(Call("x=f32[4,2] y=f32[2,2]").kind, CallOutcome::Kind::kHit);
  // x's dims are specialized (guard_int): another size recompiles and stays static.
  CallOutcome other = Call("x=f32[6,2] y=f32[2,2]");
  EXPECT_EQ(other.kind, CallOutcome::Kind::kCompiled);
  EXPECT_EQ(frame_.entries()[1]->guards.tensors()[0].sizes[0].kind, DimKind::kStatic);
  // A size that is not a gear fails the compile (TorchAir's AssertionError); nothing is cached.
  std::vector<CallInput> bad = BindCallInputs(*graph_, ParseCallSpec("x=f32[4,2] y=f32[3,2]").value()).value();
  Result<CallOutcome> outcome = frame_.Call(*graph_, bad, options_, compile_);
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.status().message().find(
                "AssertionError: The index 3 of the current tensor shape is not within the range [8, 2, 4]"),
            std::string::npos);
  EXPECT_EQ(frame_.entries().size(), 2u);
  EXPECT_EQ(guards.FirstFailure(bad).value(),
            "(L['y'].size()[0] <= 2) | (4 <= L['y'].size()[0])  # L['y'].size()[0] = 3");
}

TEST_F(CompileCacheTest, GearsSpecializeADimMarkedDynamic) {
  frame_.MarkDynamic("x", 0, 2, 64);
  ASSERT_TRUE(frame_.SetDimGears("y", 2, Gears("0", "8,4")).ok());
  std::vector<CallInput> in = BindCallInputs(*graph_, ParseCallSpec("x=f32[4,2] y=f32[4,2]").value()).value();
  Result<CallOutcome> outcome = frame_.Call(*graph_, in, options_, compile_);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message(),
            "torch.fx.experimental.symbolic_shapes.ConstraintViolationError: Constraints violated "
            "(L['x'].size()[0])! For more information, run with TORCH_LOGS=\"+dynamic\".\n"
            "  - Not all values of L['x'].size()[0] = L['x'].size()[0] in the specified range L['x'].size()[0] <= 64 "
            "are valid because L['x'].size()[0] was inferred to be a constant (4).");
  EXPECT_TRUE(frame_.entries().empty());
}

// [4, 4] leaves the symbol one value: it becomes a constant, which breaks
// the mark_dynamic set_dim_gears itself made.
TEST_F(CompileCacheTest, GearsOfOneDistinctSizeMakeAConstant) {
  ASSERT_TRUE(frame_.SetDimGears("y", 2, Gears("0", "4,4")).ok());
  std::vector<CallInput> in = BindCallInputs(*graph_, ParseCallSpec("x=f32[4,2] y=f32[4,2]").value()).value();
  Result<CallOutcome> outcome = frame_.Call(*graph_, in, options_, compile_);
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.status().message().find("RelaxedUnspecConstraint(L['y'].size()[0])"), std::string::npos);
}

TEST_F(CompileCacheTest, SetDimGearsChecksAsTorchAirDoes) {
  EXPECT_EQ(frame_.SetDimGears("x", 2, Gears("0.3", "1,2")).message(),
            "AssertionError: Dim index in dim_gears must be an integer, but got <class 'float'>.");
  EXPECT_EQ(frame_.SetDimGears("x", 2, Gears("0", "1")).message(),
            "AssertionError: Gears for dim index 0 in dim_gears must be a list or tuple, but got <class 'int'>.");
  EXPECT_EQ(frame_.SetDimGears("x", 2, Gears("2", "1,2")).message(),
            "AssertionError: Dim index in dim_gears must be in range [0, 1], but got 2.");
  EXPECT_EQ(frame_.SetDimGears("x", 2, Gears("0", "1,1.5")).message(),
            "AssertionError: Element at index 1 of value for dim index 0 in dim_gears must be an integer, but got "
            "<class 'float'>.");
  EXPECT_EQ(frame_.SetDimGears("x", 2, Gears("0", "0,2")).message(),
            "AssertionError: Gear value at index 0 for dim index 0 must not be 0, but got 0.");
  EXPECT_EQ(frame_.SetDimGears("x", 2, Gears("0", "[2]")).message(),
            "AssertionError: Length of gears for dim index 0 in dim_gears must be in range [2, 100], but got 1.");
  EXPECT_TRUE(frame_.dim_gears().empty());  // nothing refused was kept
  ASSERT_TRUE(frame_.SetDimGears("x", 2, Gears("1", "[1, 2]")).ok());
  EXPECT_TRUE(frame_.SetDimGears("x", 2, Gears("1", "1,2")).ok());  // the same dict again
  DimGears two = Gears("0", "1,2");
  two.push_back(DimGearsItem{ParsePyScalar("1"), ParseGearsValue("1,2").value()});
  EXPECT_EQ(frame_.SetDimGears("x", 2, two).message(),
            "AssertionError: Tensor x already has set dim gears, and it is not supported to set it again.");
  EXPECT_FALSE(frame_.SetDimGears("x", 2, Gears("1", "(1, 2)")).ok());  // a tuple is not the list
}

TEST_F(CompileCacheTest, FailedCompileCachesNothing) {
  fail_next_ = true;
  std::vector<CallInput> in = BindCallInputs(*graph_, ParseCallSpec("x=f32[2,2] y=f32[2,2]").value()).value();
  EXPECT_FALSE(frame_.Call(*graph_, in, options_, compile_).ok());
  EXPECT_TRUE(frame_.entries().empty());
  fail_next_ = false;
  EXPECT_EQ(Call("x=f32[2,2] y=f32[2,2]").compile_id, "0/0");
}

// A size baked into a view at trace time holds only at the traced batch: a
// call at another batch fails its compile in the op's (torch's) words, even
// where the entry's batch dim is symbolic (torch decides by the hint), and
// caches nothing (issue 27 item 1).
TEST(CompileForCallTest, AViewSizeBakedAtTraceTimeRefusesAnotherBatch) {
  std::unique_ptr<Graph> graph = ParseReadable(
                                     "class GraphModule(torch.nn.Module):\n"
                                     "    def forward(self, x: \"f32[2, 16, 128]\"):\n"
                                     "        view: \"f32[32, 128]\" = torch.ops.aten.view.default(x, [32, 128])\n"
                                     "        return (view,)\n",
                                     "t.py")
                                     .value();
  const OpRegistry& registry = OpRegistry::Builtin();
  TensorMeta traced = *graph->Placeholders()[0]->tensor();
  EXPECT_TRUE(CompileForCall(*graph, {traced}, {traced}, registry).ok());
  TensorMeta batch4 = traced;
  batch4.sizes[0] = Dim(4);
  TensorMeta symbolic = traced;
  symbolic.sizes[0] = Dim::Symbol("s0");
  for (const TensorMeta& entry : {batch4, symbolic}) {
    Result<std::unique_ptr<Graph>> compiled = CompileForCall(*graph, {entry}, {batch4}, registry);
    ASSERT_FALSE(compiled.ok());
    EXPECT_NE(compiled.status().message().find(
                  "compile: node 'view' refuses the call's sizes (x=f32[4, 16, 128]): view: shape '[32, 128]' is "
                  "invalid for input of size 8192"),
              std::string::npos)
        << compiled.status().message();
    EXPECT_NE(compiled.status().message().find("This graph was traced at x=f32[2, 16, 128]"), std::string::npos);
  }
  // A symbolic entry whose hint is the traced batch compiles.
  EXPECT_TRUE(CompileForCall(*graph, {symbolic}, {traced}, registry).ok());
}

TEST_F(CompileCacheTest, ACallAnOpRefusesCompilesNothing) {
  graph_ = ParseReadable(
               "class GraphModule(torch.nn.Module):\n"
               "    def forward(self, x: \"f32[3, 3]\", y: \"f32[3, 3]\"):\n"
               "        mm: \"f32[3, 3]\" = torch.ops.aten.mm.default(x, y)\n"
               "        return (mm,)\n",
               "t.py")
               .value();
  Call("x=f32[3,3] y=f32[3,3]");
  std::vector<CallInput> inputs = BindCallInputs(*graph_, ParseCallSpec("x=f32[4,3] y=f32[4,3]").value()).value();
  Result<CallOutcome> refused = frame_.Call(*graph_, inputs, options_, compile_);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("node 'mm' refuses the call's sizes"), std::string::npos)
      << refused.status().message();
  EXPECT_EQ(frame_.entries().size(), 1u);
  EXPECT_EQ(frame_.calls(), 1u);
}

}  // namespace
}  // namespace airscope

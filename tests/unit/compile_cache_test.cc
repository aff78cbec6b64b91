#include "core/dynamo/compile_cache.h"

#include <gtest/gtest.h>

#include "core/fx/readable.h"
#include "core/ops/op_registry.h"
#include "repl/cache_state.h"

namespace airscope {
namespace {

class CompileCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = ParseReadable(
                 "class GraphModule(torch.nn.Module):\n"
                 "    def forward(self, x: \"f32[2, 2]\", y: \"f32[2, 2]\"):\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(x, y)\n"
                 "        return (add,)\n",
                 "t.py")
                 .value();
    compile_ = [this](const Graph& g, const std::vector<TensorMeta>& metas) {
      ++compiles_;
      if (fail_next_) return Result<std::unique_ptr<Graph>>(Status::Error("backend failed"));
      return CompileForCall(g, metas, OpRegistry::Builtin());
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

TEST_F(CompileCacheTest, RecompileLimitFallsBackToEager) {
  options_.cache_size_limit = 2;
  options_.automatic_dynamic = false;
  Call("x=f32[2,2] y=f32[2,2]");
  Call("x=f32[3,2] y=f32[3,2]");
  CallOutcome eager = Call("x=f32[4,2] y=f32[4,2]");
  EXPECT_EQ(eager.kind, CallOutcome::Kind::kEager);
  EXPECT_TRUE(eager.limit_hit_now);
  EXPECT_NE(frame_.LimitMessage(eager, 2).find("torch._dynamo hit config.recompile_limit (2)"), std::string::npos);
  EXPECT_FALSE(Call("x=f32[5,2] y=f32[5,2]").limit_hit_now);  // said once
  EXPECT_EQ(Call("x=f32[3,2] y=f32[3,2]").kind, CallOutcome::Kind::kHit);  // cached entries still run
  EXPECT_EQ(frame_.entries().size(), 2u);
  EXPECT_EQ(frame_.eager_calls(), 2u);
}

TEST_F(CompileCacheTest, MarkDynamicAndGears) {
  frame_.MarkDynamic("x", 0, 2, 64);
  frame_.SetGears("y", 0, {8, 2, 4});
  Call("x=f32[4,2] y=f32[4,2]");
  const GuardSet& guards = frame_.entries()[0]->guards;
  EXPECT_EQ(guards.ShapeEnvLines(),
            (std::vector<std::string>{"2 <= L['x'].size()[0] <= 64", "L['y'].size()[0] in (2, 4, 8)  # torchair dim gears"}));
  EXPECT_EQ(Call("x=f32[30,2] y=f32[8,2]").kind, CallOutcome::Kind::kHit);
  EXPECT_NE(Call("x=f32[30,2] y=f32[2,2]").kind, CallOutcome::Kind::kCompiled);
  // A size that is not a gear cannot be compiled: an error, nothing cached.
  std::vector<CallInput> bad = BindCallInputs(*graph_, ParseCallSpec("x=f32[4,2] y=f32[3,2]").value()).value();
  Result<CallOutcome> outcome = frame_.Call(*graph_, bad, options_, compile_);
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.status().message().find("not one of its gears 2,4,8"), std::string::npos);
  EXPECT_EQ(frame_.entries().size(), 1u);
}

TEST_F(CompileCacheTest, FailedCompileCachesNothing) {
  fail_next_ = true;
  std::vector<CallInput> in = BindCallInputs(*graph_, ParseCallSpec("x=f32[2,2] y=f32[2,2]").value()).value();
  EXPECT_FALSE(frame_.Call(*graph_, in, options_, compile_).ok());
  EXPECT_TRUE(frame_.entries().empty());
  fail_next_ = false;
  EXPECT_EQ(Call("x=f32[2,2] y=f32[2,2]").compile_id, "0/0");
}

}  // namespace
}  // namespace airscope

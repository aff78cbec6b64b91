// Python scalars as graph inputs (issue 28 item 4): the call spec NAME=VALUE,
// Dynamo's guards for them and the graph a compile sees (core/dynamo/
// scalar_inputs.h, compile_cache.h), as torch/_dynamo/variables/builder.py's
// wrap_literal, wrap_symint and wrap_symfloat and guards.py's CONSTANT_MATCH
// decide: an int is a constant first, a SymInt after it changed (automatic
// dynamic) or under dynamic=True; a bool is always a constant; a float is a
// constant, and its SymFloat path is refused as not modelled.
#include <gtest/gtest.h>

#include "core/dynamo/compile_cache.h"
#include "core/dynamo/compile_for_call.h"
#include "core/dynamo/scalar_inputs.h"
#include "core/fx/readable.h"
#include "core/ops/op_registry.h"

namespace airscope {
namespace {

TEST(ScalarCallSpec, ParsesIntFloatBoolAndRefusesTheRest) {
  auto inputs = ParseCallSpec("x=f32[2] s=4 eps=1e-05 flag=True neg=-3");
  ASSERT_TRUE(inputs.ok()) << inputs.status().message();
  ASSERT_EQ(inputs->size(), 5u);
  EXPECT_FALSE((*inputs)[0].scalar);
  EXPECT_EQ((*inputs)[1].scalar->type, PyScalar::Type::kInt);
  EXPECT_EQ((*inputs)[1].scalar->value, 4);
  EXPECT_EQ((*inputs)[2].scalar->type, PyScalar::Type::kFloat);
  EXPECT_EQ((*inputs)[2].scalar->repr, "1e-05");
  EXPECT_EQ((*inputs)[3].scalar->type, PyScalar::Type::kBool);
  EXPECT_EQ((*inputs)[4].scalar->value, -3);
  EXPECT_EQ((*inputs)[1].ShapeString(), "4");
  auto bad = ParseCallSpec("x=f32[2] s=abc");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("'abc' is neither a tensor spec"), std::string::npos);
  auto grad = ParseCallSpec("s=4 grad");
  ASSERT_FALSE(grad.ok());
  EXPECT_NE(grad.status().message().find("'grad' is for a tensor input"), std::string::npos);
}

class ScalarInputsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = ParseReadable(
                 "class GraphModule(torch.nn.Module):\n"
                 "    def forward(self, x: \"f32[4, 2]\", s: \"Sym(s1)\"):\n"
                 "        add: \"f32[4, 2]\" = torch.ops.aten.add.Tensor(x, s)\n"
                 "        return (add,)\n",
                 "t.py")
                 .value();
    compile_ = [this](const Graph& g, const std::vector<TensorMeta>& metas, const std::vector<TensorMeta>& hints) {
      ++compiles_;
      return CompileForCall(g, metas, hints, OpRegistry::Builtin());
    };
  }
  Result<CallOutcome> Call(std::string_view spec) {
    Result<std::vector<CallInput>> parsed = ParseCallSpec(spec);
    if (!parsed.ok()) return parsed.status();
    AIRSCOPE_ASSIGN_OR_RETURN(std::vector<CallInput> inputs, BindCallInputs(*graph_, std::move(parsed).value()));
    return frame_.Call(*graph_, inputs, options_, compile_);
  }
  std::unique_ptr<Graph> graph_;
  Frame frame_{"forward", "t.py", 0};
  FrameOptions options_;
  CompileFn compile_;
  int compiles_ = 0;
};

TEST_F(ScalarInputsTest, AnIntIsAConstantThenASymIntAfterItChanged) {
  ASSERT_TRUE(Call("x=f32[4,2] s=4").ok());
  const CacheEntry& first = *frame_.entries()[0];
  // Traced into the op, not an input: the compiled graph has x alone.
  EXPECT_EQ(first.artifact->Placeholders().size(), 1u);
  EXPECT_EQ(first.artifact->Find("add")->args()[1].as_int(), 4);
  auto guards = first.guards.InputGuards(1);
  ASSERT_EQ(guards.size(), 2u);
  EXPECT_EQ(guards[0].second, "___check_type_id(L['s'], <id(int)>)");
  EXPECT_EQ(guards[1].first, "EQUALS_MATCH");
  EXPECT_EQ(guards[1].second, "L['s'] == 4");
  EXPECT_EQ(Call("x=f32[4,2] s=4")->kind, CallOutcome::Kind::kHit);
  Result<CallOutcome> changed = Call("x=f32[4,2] s=5");
  ASSERT_TRUE(changed.ok()) << changed.status().message();
  EXPECT_EQ(changed->kind, CallOutcome::Kind::kCompiled);
  EXPECT_EQ(changed->failures, std::vector<std::string>{"0/0: L['s'] == 4"});
  const CacheEntry& second = *frame_.entries()[1];
  ASSERT_EQ(second.artifact->Placeholders().size(), 2u);
  EXPECT_EQ(second.artifact->Placeholders()[1]->meta()->annotation, "Sym(s0)");
  EXPECT_EQ(second.guards.InputGuards(1).size(), 1u);  // the type alone
  // Every int hits it now, 0 and 1 included (an unspecified symbol); another type misses.
  EXPECT_EQ(Call("x=f32[4,2] s=0")->kind, CallOutcome::Kind::kHit);
  EXPECT_EQ(Call("x=f32[4,2] s=123")->entry, 1u);
  EXPECT_EQ(compiles_, 2);
}

TEST_F(ScalarInputsTest, DynamicTrueIsASymIntFromTheFirstCompileAndFalseNever) {
  options_.assume_static_by_default = false;
  ASSERT_TRUE(Call("x=f32[4,2] s=4").ok());
  EXPECT_TRUE(frame_.entries()[0]->guards.tensors()[1].scalar->symbolic);
  Frame static_frame{"forward", "t.py", 1};
  FrameOptions off;
  off.automatic_dynamic = false;
  for (int v : {4, 5, 6}) {
    std::vector<CallInput> in =
        BindCallInputs(*graph_, ParseCallSpec(fmt::format("x=f32[4,2] s={}", v)).value()).value();
    ASSERT_TRUE(static_frame.Call(*graph_, in, off, compile_).ok());
  }
  EXPECT_EQ(static_frame.entries().size(), 3u);
  EXPECT_FALSE(static_frame.entries()[2]->guards.tensors()[1].scalar->symbolic);
}

TEST_F(ScalarInputsTest, AFloatIsAConstantAndItsSymFloatPathIsRefused) {
  graph_ = ParseReadable(
               "class GraphModule(torch.nn.Module):\n"
               "    def forward(self, x: \"f32[4, 2]\", eps, flag):\n"
               "        mul: \"f32[4, 2]\" = torch.ops.aten.mul.Tensor(x, eps)\n"
               "        return (mul,)\n",
               "t.py")
               .value();
  ASSERT_TRUE(Call("x=f32[4,2] eps=0.5 flag=True").ok());
  EXPECT_EQ(frame_.entries()[0]->guards.InputGuards(1)[1].second, "L['eps'] == 0.5");
  EXPECT_EQ(frame_.entries()[0]->guards.InputGuards(2)[0].second, "___check_obj_id(L['flag'], <id(True)>)");
  // A bool never becomes dynamic: another value is another entry.
  Result<CallOutcome> flag = Call("x=f32[4,2] eps=0.5 flag=False");
  ASSERT_TRUE(flag.ok());
  EXPECT_EQ(flag->failures, std::vector<std::string>{"0/0: ___check_obj_id(L['flag'], <id(True)>)"});
  EXPECT_TRUE(Call("x=f32[4,2] eps=0.5 flag=True")->failures.empty());
  Result<CallOutcome> refused = Call("x=f32[4,2] eps=0.25 flag=True");
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("SymFloat"), std::string::npos);
  EXPECT_EQ(frame_.entries().size(), 2u);  // nothing cached
}

TEST_F(ScalarInputsTest, AStrIsAConstantGuardedByItsValueUnderEverySetting) {
  graph_ = ParseReadable(
               "class GraphModule(torch.nn.Module):\n"
               "    def forward(self, x: \"f32[4, 2]\", mode):\n"
               "        clone: \"f32[4, 2]\" = torch.ops.aten.clone.default(x)\n"
               "        return (clone,)\n",
               "t.py")
               .value();
  // Only in Python's quotes: a bare word is refused (likely a mistyped tensor spec).
  EXPECT_FALSE(ParseCallSpec("x=f32[4,2] mode=train").ok());
  ASSERT_TRUE(Call("x=f32[4,2] mode='train'").ok());
  EXPECT_EQ(frame_.entries()[0]->guards.InputGuards(1)[0].second, "___check_type_id(L['mode'], <id(str)>)");
  EXPECT_EQ(frame_.entries()[0]->guards.InputGuards(1)[1].second, "L['mode'] == 'train'");
  EXPECT_TRUE(Call("x=f32[4,2] mode='train'")->failures.empty());  // a hit
  // Another value recompiles, and a str never turns symbolic: the third value is a third entry.
  options_.assume_static_by_default = false;  // dynamic=True changes nothing for a str
  EXPECT_EQ(Call("x=f32[4,2] mode='eval'")->failures, std::vector<std::string>{"0/0: L['mode'] == 'train'"});
  ASSERT_TRUE(Call("x=f32[4,2] mode=\"test\"").ok());
  EXPECT_EQ(frame_.entries().size(), 3u);
}

TEST(BindScalarInputs, InlinesConstantsAndNamesSymbols) {
  auto graph = ParseReadable(
                   "class GraphModule(torch.nn.Module):\n"
                   "    def forward(self, x: \"f32[4]\", a, b):\n"
                   "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(x, a)\n"
                   "        mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(add, b)\n"
                   "        return (mul,)\n",
                   "t.py")
                   .value();
  std::vector<ScalarBinding> bindings(3);
  bindings[1].constant = ParsePyScalar("True");
  bindings[2].symbol = "s3";
  std::unique_ptr<Graph> bound = BindScalarInputs(*graph, bindings);
  ASSERT_EQ(bound->Placeholders().size(), 2u);
  EXPECT_TRUE(bound->Find("add")->args()[1].as_bool());
  EXPECT_EQ(bound->Placeholders()[1]->meta()->annotation, "Sym(s3)");
  EXPECT_TRUE(bound->Lint().ok());
}

}  // namespace
}  // namespace airscope

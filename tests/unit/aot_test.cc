// aot: Dynamo graphs -> AOT inference graphs. Expected graphs come from the
// aot graphs torch printed next to the same Dynamo graphs in the TORCH_TRACE
// logs under tests/data/torch_trace (cited per test), and from torch's C++ for
// CompositeImplicitAutograd functions (cited in core/aot/torch_functions.cc).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/aot/aot.h"
#include "core/fx/readable.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/decomposition.h"
#include "pass_test_util.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

using testing_util::Describe;

std::unique_ptr<Graph> ParseForwardBody(const std::string& body, const std::string& signature) {
  return testing_util::ParseForward(signature, body);
}

struct AotRun {
  bool changed = false;
  std::vector<std::string> remarks;
};

AotRun RunAot(Graph& graph, bool keep_input_mutations = true, const DecompositionTable* decomps = nullptr) {
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  context.decompositions = decomps;
  context.config.keep_inference_input_mutations = keep_input_mutations;
  Result<bool> changed = AotPass().run(graph, context);
  EXPECT_TRUE(changed.ok()) << changed.status().message();
  EXPECT_TRUE(graph.Lint().ok()) << graph.Lint().message();
  return {changed.ok() && *changed, context.remarks};
}

bool AnyRemarkContains(const AotRun& run, const std::string& text) {
  for (const std::string& remark : run.remarks) {
    if (remark.find(text) != std::string::npos) return true;
  }
  return false;
}

// ---- operators, torch functions, methods, inputs

// artifacts.log: `mul = l_x_ * l_y_` -> aten.mul.Tensor(arg0_1, arg1_1).
TEST(AotTest, OperatorBecomesAtenWithArgInputs) {
  auto g = ParseForwardBody(
      "        l_x_ = L_x_\n        l_y_ = L_y_\n"
      "        mul: \"f32[5, 5]\" = l_x_ * l_y_;  l_x_ = l_y_ = None\n        return (mul,)\n",
      "L_x_: \"f32[5, 5]\", L_y_: \"f32[5, 5]\"");
  EXPECT_TRUE(RunAot(*g).changed);
  EXPECT_EQ(Describe(*g),
            (std::vector<std::string>{"arg0_1 = placeholder()", "arg1_1 = placeholder()",
                                      "mul = aten.mul.Tensor(arg0_1, arg1_1)", "output = output((mul,))"}));
}

// links.log: the get_attr parameter is lifted to arg0_1, before the user inputs;
// torch.sin -> aten.sin.default, `+` -> aten.add.Tensor.
TEST(AotTest, GetAttrParameterIsLiftedFirst) {
  auto g = ParseForwardBody(
      "        l_x_ = L_x_\n        g_global_state_tensor_ = G_global_state_tensor_\n"
      "        l__self___param: \"f32[2]\" = self.L__self___param\n"
      "        y: \"f32[2]\" = torch.sin(l__self___param);  l__self___param = None\n"
      "        add: \"f32[2]\" = y + l_x_;  y = l_x_ = None\n"
      "        add_1: \"f32[2]\" = add + g_global_state_tensor_;  add = g_global_state_tensor_ = None\n"
      "        return (add_1,)\n",
      "L_x_: \"f32[2]\", G_global_state_tensor_: \"f32[2]\"");
  AotRun run = RunAot(*g);
  EXPECT_EQ(Describe(*g),
            (std::vector<std::string>{"arg0_1 = placeholder()", "arg1_1 = placeholder()", "arg2_1 = placeholder()",
                                      "sin = aten.sin.default(arg0_1)", "add = aten.add.Tensor(sin, arg1_1)",
                                      "add_1 = aten.add.Tensor(add, arg2_1)", "output = output((add_1,))"}));
  EXPECT_TRUE(AnyRemarkContains(run, "L__self___param"));
}

// comp_metrics.log: `l_x_.cos()` (call_method) -> aten.cos.default.
TEST(AotTest, TensorMethodBecomesAten) {
  auto g = ParseForwardBody("        l_x_ = L_x_\n        cos = l_x_.cos();  l_x_ = None\n        return (cos,)\n",
                            "L_x_: \"f32[4, 4]\"");
  RunAot(*g);
  EXPECT_EQ(Describe(*g), (std::vector<std::string>{"arg0_1 = placeholder()", "cos = aten.cos.default(arg0_1)",
                                                    "output = output((cos,))"}));
}

// simple.log: torch._C._nn.gelu stays aten.gelu (TorchAir's table has no gelu
// rule, unlike the Inductor graph in that log); training dropout on a fused
// device -> native_dropout[0]; torch.ops.test.baz -> test.baz.default.
TEST(AotTest, GeluDropoutAndCustomOpPacket) {
  auto g = ParseForwardBody(
      "        l_x_ = L_x_\n"
      "        out: \"f32[2, 8]\" = torch._C._nn.gelu(l_x_);  l_x_ = None\n"
      "        input_1: \"f32[2, 8]\" = torch.nn.functional.dropout(out, 0.1, True, False);  out = None\n"
      "        out_1: \"f32[2, 8]\" = torch.ops.test.baz(input_1);  input_1 = None\n"
      "        return (out_1,)\n",
      "L_x_: \"f32[2, 8]\"");
  RunAot(*g);
  EXPECT_EQ(Describe(*g), (std::vector<std::string>{"arg0_1 = placeholder()", "gelu = aten.gelu.default(arg0_1)",
                                                    "native_dropout = aten.native_dropout.default(gelu, 0.1, True)",
                                                    "getitem = operator.getitem(native_dropout, 0)",
                                                    "baz = test.baz.default(getitem)", "output = output((baz,))"}));
  // TorchAir's NPU meta for the mask: uint8[ceil(16/128)*128/8] = u8[16].
  const NodeMeta* meta = g->Find("native_dropout")->meta();
  ASSERT_NE(meta, nullptr);
  ASSERT_EQ(meta->tensors.size(), 2u);
  EXPECT_EQ(meta->tensors[1].ShapeString(), "u8[16]");
  // The unknown op keeps Dynamo's annotation.
  ASSERT_NE(g->Find("baz")->tensor(), nullptr);
  EXPECT_EQ(g->Find("baz")->tensor()->ShapeString(), "f32[2, 8]");
}

// at::native::dropout returns the input itself when not training.
TEST(AotTest, EvalDropoutIsTheInput) {
  auto g = ParseForwardBody(
      "        l_x_ = L_x_\n"
      "        d: \"f32[4]\" = torch.nn.functional.dropout(l_x_, 0.5, False, False);  l_x_ = None\n"
      "        r: \"f32[4]\" = torch.relu(d);  d = None\n        return (r,)\n",
      "L_x_: \"f32[4]\"");
  RunAot(*g);
  EXPECT_EQ(Describe(*g), (std::vector<std::string>{"arg0_1 = placeholder()", "relu = aten.relu.default(arg0_1)",
                                                    "output = output((relu,))"}));
}

// ---- CompositeImplicitAutograd: at::native::linear / _flatten_nd_linear

TEST(AotTest, Linear2dIsTAndAddmm) {
  auto g = ParseForwardBody(
      "        l_x_ = L_x_\n        l_w_ = L_w_\n        l_b_ = L_b_\n"
      "        y: \"f32[2, 8]\" = torch._C._nn.linear(l_x_, l_w_, l_b_);  l_x_ = l_w_ = l_b_ = None\n"
      "        return (y,)\n",
      "L_x_: \"f32[2, 4]\", L_w_: \"f32[8, 4]\", L_b_: \"f32[8]\"");
  RunAot(*g);
  EXPECT_EQ(Describe(*g),
            (std::vector<std::string>{"arg0_1 = placeholder()", "arg1_1 = placeholder()", "arg2_1 = placeholder()",
                                      "t = aten.t.default(arg1_1)", "addmm = aten.addmm.default(arg2_1, arg0_1, t)",
                                      "output = output((addmm,))"}));
}

TEST(AotTest, Linear3dFlattensAroundAddmm) {
  auto g = ParseForwardBody(
      "        l_x_ = L_x_\n        l_w_ = L_w_\n        l_b_ = L_b_\n"
      "        y: \"f32[2, 3, 8]\" = torch.nn.functional.linear(l_x_, l_w_, l_b_)\n        return (y,)\n",
      "L_x_: \"f32[2, 3, 4][12, 4, 1]\", L_w_: \"f32[8, 4]\", L_b_: \"f32[8]\"");
  RunAot(*g);
  EXPECT_EQ(Describe(*g),
            (std::vector<std::string>{"arg0_1 = placeholder()", "arg1_1 = placeholder()", "arg2_1 = placeholder()",
                                      "view = aten.view.default(arg0_1, [6, 4])", "t = aten.t.default(arg1_1)",
                                      "addmm = aten.addmm.default(arg2_1, view, t)",
                                      "view_1 = aten.view.default(addmm, [2, 3, 8])", "output = output((view_1,))"}));
  ASSERT_NE(g->Find("view_1")->tensor(), nullptr);
  EXPECT_EQ(g->Find("view_1")->tensor()->ShapeString(), "f32[2, 3, 8]");
}

TEST(AotTest, SoftmaxLayerNormAndMatmul) {
  auto g = ParseForwardBody(
      "        l_x_ = L_x_\n        l_w_ = L_w_\n"
      "        s: \"f32[4, 4]\" = torch.softmax(l_x_, -1)\n"
      "        n: \"f32[4, 4]\" = torch.nn.functional.layer_norm(s, (4,), None, None, 1e-05)\n"
      "        m: \"f32[4, 4]\" = n @ l_w_\n        return (m,)\n",
      "L_x_: \"f32[4, 4]\", L_w_: \"f32[4, 4]\"");
  RunAot(*g);
  EXPECT_EQ(Describe(*g), (std::vector<std::string>{
                              "arg0_1 = placeholder()", "arg1_1 = placeholder()",
                              "_softmax = aten._softmax.default(arg0_1, -1, False)",
                              "native_layer_norm = aten.native_layer_norm.default(_softmax, [4], None, None, 1e-05)",
                              "getitem = operator.getitem(native_layer_norm, 0)",
                              "mm = aten.mm.default(getitem, arg1_1)", "output = output((mm,))"}));
}

// ---- opaque calls

TEST(AotTest, UnknownFunctionAndModuleStayOpaqueWithARemark) {
  auto g = ParseForwardBody(
      "        l_x_ = L_x_\n"
      "        a: \"f32[4]\" = torch.special_thing(l_x_)\n"
      "        b: \"f32[4]\" = self.L__self___fc1(a)\n        return (b,)\n",
      "L_x_: \"f32[4]\"");
  AotRun run = RunAot(*g);
  EXPECT_EQ(Describe(*g),
            (std::vector<std::string>{"arg0_1 = placeholder()", "special_thing = torch.special_thing(arg0_1)",
                                      "b = call_module(special_thing)", "output = output((b,))"}));
  EXPECT_TRUE(AnyRemarkContains(run, "'a' (call_function torch.special_thing): no lowering rule"));
  EXPECT_TRUE(AnyRemarkContains(run, "its type is not in Dynamo's text; declare it"));
}

// ---- functionalization: the example (AOT re-traces, so the
// functionalized add_ is printed as `add`)

const char* kInplaceAten =
    "        add_: \"f32[4, 4]\" = torch.ops.aten.add_.Tensor(arg0_1, 1)\n"
    "        mul: \"f32[4, 4]\" = torch.ops.aten.mul.Tensor(add_, 2);  add_ = None\n        return (mul,)\n";

TEST(AotTest, InputMutationIsACopyEpilogueWhenKept) {
  auto g = ParseForwardBody(kInplaceAten, "arg0_1: \"f32[4, 4]\"");
  EXPECT_TRUE(RunAot(*g).changed);
  EXPECT_EQ(Describe(*g),
            (std::vector<std::string>{"arg0_1 = placeholder()", "add = aten.add.Tensor(arg0_1, 1)",
                                      "mul = aten.mul.Tensor(add, 2)", "copy_ = aten.copy_.default(arg0_1, add)",
                                      "output = output((mul,))"}));
  EXPECT_FALSE(RunAot(*g).changed);  // the epilogue is not functionalized again
}

// fn_input_mutations_to_outputs: `return *mutated_inputs_to_return, *outs`.
TEST(AotTest, InputMutationIsALeadingOutputWhenNotKept) {
  auto g = ParseForwardBody(kInplaceAten, "arg0_1: \"f32[4, 4]\"");
  RunAot(*g, /*keep_input_mutations=*/false);
  EXPECT_EQ(Describe(*g), (std::vector<std::string>{"arg0_1 = placeholder()", "add = aten.add.Tensor(arg0_1, 1)",
                                                    "mul = aten.mul.Tensor(add, 2)", "output = output((add, mul))"}));
}

TEST(AotTest, DynamoInplaceMethodIsFunctionalized) {
  auto g = ParseForwardBody(
      "        l_x_ = L_x_\n        a = l_x_.add_(1)\n        m: \"f32[4]\" = l_x_ * 2\n        return (m,)\n",
      "L_x_: \"f32[4]\"");
  RunAot(*g);
  EXPECT_EQ(Describe(*g),
            (std::vector<std::string>{"arg0_1 = placeholder()", "add = aten.add.Tensor(arg0_1, 1)",
                                      "mul = aten.mul.Tensor(add, 2)", "copy_ = aten.copy_.default(arg0_1, add)",
                                      "output = output((mul,))"}));
}

// ---- decompositions: only the user's entries, not airscope's builtin table

TEST(AotTest, AppliesUserDecompositionsOnly) {
  DecompositionTable table = DecompositionTable::Builtin();
  ASSERT_TRUE(table.AddTemplate("aten.silu.default", "aten.mul.Tensor($0, aten.sigmoid.default($0))").ok());
  auto g = ParseForwardBody(
      "        l_x_ = L_x_\n        s: \"f32[4]\" = torch.nn.functional.silu(l_x_)\n"
      "        g: \"f32[4]\" = torch._C._nn.gelu(s)\n        return (g,)\n",
      "L_x_: \"f32[4]\"");
  RunAot(*g, true, &table);
  EXPECT_EQ(Describe(*g), (std::vector<std::string>{"arg0_1 = placeholder()", "sigmoid = aten.sigmoid.default(arg0_1)",
                                                    "mul = aten.mul.Tensor(arg0_1, sigmoid)",
                                                    "gelu = aten.gelu.default(mul)", "output = output((gelu,))"}));
}

TEST(AotTest, AtenGraphIsOnlyFunctionalized) {
  auto g = ParseForwardBody("        sin: \"f32[4]\" = torch.ops.aten.sin.default(arg0_1)\n        return (sin,)\n",
                            "arg0_1: \"f32[4]\"");
  EXPECT_FALSE(IsTorchLevelGraph(*g));
  EXPECT_FALSE(RunAot(*g).changed);
}

}  // namespace
}  // namespace airscope

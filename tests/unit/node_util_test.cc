// The argument helpers shared by the passes: core/analysis/node_util.h
// (TensorArgOf, PositionalNodeArg, SymIntPlaceholders), core/ops/op_helpers.h
// (FindNodeArg, InferLikeSelf) and core/ir/argument.h (SameArgs, SameKwargs).
#include <gtest/gtest.h>

#include "core/analysis/node_util.h"
#include "core/ops/op_helpers.h"
#include "tests/unit/graph_test_util.h"
#include "tests/unit/op_test_util.h"

namespace airscope {
namespace {

using testing::GraphBuilder;
using testing::I;
using testing::N;

TEST(NodeUtilTest, TensorArgOfAndPositionalNodeArg) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 3]");
  Node* add = b.Call("aten.add.Tensor", {N(x), I(1)}, {{"alpha", N(x)}});
  ASSERT_NE(TensorArgOf(add->args()[0]), nullptr);
  EXPECT_EQ(TensorArgOf(add->args()[0])->ToAnnotation(), "f32[2, 3]");
  EXPECT_EQ(TensorArgOf(add->args()[1]), nullptr);  // an int refers to no node
  EXPECT_EQ(PositionalNodeArg(*add, 0), x);
  EXPECT_EQ(PositionalNodeArg(*add, 1), nullptr);  // not a node
  EXPECT_EQ(PositionalNodeArg(*add, 2), nullptr);  // past the end; kwargs do not count
  EXPECT_EQ(FindNodeArg(*add, 2, "alpha"), x);     // ... but FindNodeArg looks at them
  EXPECT_EQ(FindNodeArg(*add, 1, "other"), nullptr);
}

TEST(NodeUtilTest, SymIntPlaceholdersBySymbolTheLaterWins) {
  auto g = testing_util::ParseForward("s0: \"Sym(s0)\", x: \"f32[s0, 2]\", s1: \"Sym(s1)\", again: \"Sym(s0)\"",
                                      "        return (x,)\n");
  std::map<std::string, Node*> syms = SymIntPlaceholders(*g);
  ASSERT_EQ(syms.size(), 2u);
  EXPECT_EQ(syms.at("s0")->name(), "again");  // a dict built in order: the last one stays
  EXPECT_EQ(syms.at("s1")->name(), "s1");
}

TEST(NodeUtilTest, InferLikeSelfKeepsSizesDtypeDeviceNotStrides) {
  GraphBuilder b;
  Node* x = b.Input("x", "bf16[4, 2]");
  TensorMeta strided = x->meta()->tensors[0];
  strided.strides = {Dim(1), Dim(4)};
  NodeMeta meta;
  meta.tensors.push_back(strided);
  x->set_meta(meta);
  Node* clone = b.Call("aten.clone.default", {N(x)});
  Result<NodeMeta> out = InferLikeSelf(*clone);
  ASSERT_TRUE(out.ok()) << out.status().message();
  ASSERT_EQ(out->tensors.size(), 1u);
  EXPECT_EQ(out->tensors[0].dtype, DType::kBFloat16);
  EXPECT_EQ(out->tensors[0].sizes, strided.sizes);
  EXPECT_TRUE(out->tensors[0].strides.empty());
  Node* bad = b.Call("aten.clone.default", {I(3)});
  EXPECT_FALSE(InferLikeSelf(*bad).ok());
}

TEST(ArgumentTest, SameArgsAndSameKwargs) {
  std::vector<Argument> a = {Argument::Int(1), Argument::String("x")};
  std::vector<Argument> b = {Argument::Int(1), Argument::String("x")};
  EXPECT_TRUE(SameArgs(a, b));
  b[1] = Argument::String("y");
  EXPECT_FALSE(SameArgs(a, b));
  EXPECT_FALSE(SameArgs(a, std::vector<Argument>{Argument::Int(1)}));
  std::vector<Kwarg> k1 = {{"dim", Argument::Int(0)}};
  std::vector<Kwarg> k2 = {{"dim", Argument::Int(0)}};
  EXPECT_TRUE(SameKwargs(k1, k2));
  k2[0].name = "axis";
  EXPECT_FALSE(SameKwargs(k1, k2));
  EXPECT_FALSE(SameKwargs(k1, {}));
}

}  // namespace
}  // namespace airscope

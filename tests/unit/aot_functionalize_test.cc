// aot's functionalization of mutations through views, as torch's
// FunctionalTensorWrapper does it (core/aot/functionalize.cc): the mutation
// is replayed on the base through the view's inverse (FunctionalInverses.cpp)
// when the base is next read, stale views are regenerated, input mutations
// end in copy_ epilogues in input order, and dead code goes.
#include "aot_test_util.h"

namespace airscope {
namespace {

using testing_util::Calls;
using testing_util::ParseDynamo;
using testing_util::RunAotPass;

// x[0].add_(1); return x * 2: select_scatter when x is read, then the epilogue.
TEST(AotFunctionalizeTest, SelectViewMutationIsASelectScatter) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n"
      "        getitem: \"f32[4]\" = l_x_[0]\n"
      "        add_: \"f32[4]\" = getitem.add_(1);  getitem = None\n"
      "        mul: \"f32[4, 4]\" = l_x_ * 2;  l_x_ = None\n        return (mul,)\n",
      "L_x_: \"f32[4, 4]\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g), (std::vector<std::string>{
                           "select = aten.select.int(arg0_1, 0, 0)", "add = aten.add.Tensor(select, 1)",
                           "select_scatter = aten.select_scatter.default(arg0_1, add, 0, 0)",
                           "mul = aten.mul.Tensor(select_scatter, 2)",
                           "copy_ = aten.copy_.default(arg0_1, select_scatter)", "output = output((mul,))"}));
}

// view_copy_inverse with reapply_views: the mutated view viewed back as the base's sizes.
TEST(AotFunctionalizeTest, ViewMutationIsViewedBack) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n"
      "        view: \"f32[4, 4]\" = l_x_.view(4, 4)\n"
      "        mul_: \"f32[4, 4]\" = view.mul_(2);  view = None\n        return ()\n",
      "L_x_: \"f32[16]\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g),
            (std::vector<std::string>{"view = aten.view.default(arg0_1, [4, 4])", "mul = aten.mul.Tensor(view, 2)",
                                      "view_1 = aten.view.default(mul, [16])",
                                      "copy_ = aten.copy_.default(arg0_1, view_1)", "output = output(())"}));
}

// transpose_copy_int_inverse: transpose again; zero_ -> zero.
TEST(AotFunctionalizeTest, TransposeMutationIsTransposedBack) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n"
      "        transpose: \"f32[3, 2]\" = l_x_.transpose(0, 1)\n"
      "        zero_: \"f32[3, 2]\" = transpose.zero_();  transpose = None\n        return ()\n",
      "L_x_: \"f32[2, 3]\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g), (std::vector<std::string>{
                           "transpose = aten.transpose.int(arg0_1, 0, 1)", "zero = aten.zero.default(transpose)",
                           "transpose_1 = aten.transpose.int(zero, 0, 1)",
                           "copy_ = aten.copy_.default(arg0_1, transpose_1)", "output = output(())"}));
}

// commit_update leaves the mutated view stale (FunctionalTensorWrapper.cpp):
// reading it again regenerates it from the updated base.
TEST(AotFunctionalizeTest, ReadingTheMutatedViewRegeneratesIt) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n"
      "        y: \"f32[4]\" = l_x_[1]\n"
      "        add_: \"f32[4]\" = y.add_(1)\n"
      "        z: \"f32[4]\" = y * 3;  y = None\n        return (z,)\n",
      "L_x_: \"f32[4, 4]\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g), (std::vector<std::string>{
                           "select = aten.select.int(arg0_1, 0, 1)", "add = aten.add.Tensor(select, 1)",
                           "select_scatter = aten.select_scatter.default(arg0_1, add, 0, 1)",
                           "select_1 = aten.select.int(select_scatter, 0, 1)", "mul = aten.mul.Tensor(select_1, 3)",
                           "copy_ = aten.copy_.default(arg0_1, select_scatter)", "output = output((mul,))"}));
}

// apply_update: the chain's views but the last are replayed on the current
// base, then the inverses run from the last view to the first.
TEST(AotFunctionalizeTest, ViewOfAViewIsScatteredThroughBoth) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n"
      "        a: \"f32[4, 4]\" = l_x_[0]\n"
      "        b: \"f32[4]\" = a[2]\n"
      "        mul_: \"f32[4]\" = b.mul_(2);  b = None\n        return ()\n",
      "L_x_: \"f32[2, 4, 4]\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g), (std::vector<std::string>{
                           "select = aten.select.int(arg0_1, 0, 0)", "select_1 = aten.select.int(select, 0, 2)",
                           "mul = aten.mul.Tensor(select_1, 2)", "select_2 = aten.select.int(arg0_1, 0, 0)",
                           "select_scatter = aten.select_scatter.default(select_2, mul, 0, 2)",
                           "select_scatter_1 = aten.select_scatter.default(arg0_1, select_scatter, 0, 0)",
                           "copy_ = aten.copy_.default(arg0_1, select_scatter_1)", "output = output(())"}));
}

// A mutated intermediate (not an input) needs no epilogue; the unused view goes (DCE).
TEST(AotFunctionalizeTest, IntermediateBaseHasNoEpilogue) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n"
      "        c: \"f32[4, 4]\" = l_x_.clone();  l_x_ = None\n"
      "        s: \"f32[2, 4]\" = c[slice(0, 2, None)]\n"
      "        add_: \"f32[2, 4]\" = s.add_(1);  s = None\n        return (c,)\n",
      "L_x_: \"f32[4, 4]\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g),
            (std::vector<std::string>{"clone = aten.clone.default(arg0_1)", "slice = aten.slice.Tensor(clone, 0, 0, 2)",
                                      "add = aten.add.Tensor(slice, 1)",
                                      "slice_scatter = aten.slice_scatter.default(clone, add, 0, 0, 2)",
                                      "output = output((slice_scatter,))"}));
}

// Epilogues come in input order (_functionalized_f_helper walks the inputs).
TEST(AotFunctionalizeTest, EpiloguesInInputOrder) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n        l_y_ = L_y_\n"
      "        a = l_y_.add_(1)\n        b = l_x_.mul_(2)\n        return ()\n",
      "L_x_: \"f32[4]\", L_y_: \"f32[4]\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g), (std::vector<std::string>{"add = aten.add.Tensor(arg1_1, 1)", "mul = aten.mul.Tensor(arg0_1, 2)",
                                                 "copy_ = aten.copy_.default(arg0_1, mul)",
                                                 "copy__1 = aten.copy_.default(arg1_1, add)", "output = output(())"}));
}

// A Dynamo graph's copy_ into an input is the user's: copy + the epilogue copy_.
TEST(AotFunctionalizeTest, DynamoCopyIntoAnInputIsFunctionalized) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n        l_y_ = L_y_\n"
      "        copy_: \"f32[4]\" = l_x_.copy_(l_y_);  l_x_ = l_y_ = None\n        return ()\n",
      "L_x_: \"f32[4]\", L_y_: \"f32[4]\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g), (std::vector<std::string>{"copy = aten.copy.default(arg0_1, arg1_1)",
                                                 "copy_ = aten.copy_.default(arg0_1, copy)", "output = output(())"}));
}

// expand's inverse (sum_to) is not modelled: the mutation stays, with a remark.
TEST(AotFunctionalizeTest, MutationThroughExpandIsLeftWithARemark) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n"
      "        e: \"f32[3, 4]\" = l_x_.expand(3, 4)\n"
      "        add_: \"f32[3, 4]\" = e.add_(1);  e = None\n        return ()\n",
      "L_x_: \"f32[1, 4]\"");
  auto run = RunAotPass(*g);
  EXPECT_TRUE(run.Remarks("left 1 in-place op(s) through a view"));
  EXPECT_NE(g->Find("add_"), nullptr);
}

}  // namespace
}  // namespace airscope

// aot's tensor indexing (THPVariable_getitem / setitem,
// aten/src/ATen/TensorIndexing.h) and conversions (Tensor.to, .npu,
// TensorConversions.cpp to_impl), as core/aot/indexing.cc and
// conversions.cc cite them.
#include "aot_test_util.h"

namespace airscope {
namespace {

using testing_util::Calls;
using testing_util::ParseDynamo;
using testing_util::RunAotPass;

const char* kX = "L_x_: \"f32[4, 8][8, 1]npu:0\"";

std::vector<std::string> Lower(const std::string& expression, const std::string& annotation = "f32[4]") {
  auto g = ParseDynamo("        l_x_ = L_x_\n        r: \"" + annotation + "\" = " + expression +
                           ";  l_x_ = None\n        return (r,)\n",
                       kX);
  RunAotPass(*g);
  return Calls(*g);
}

// get_item's single slice: always dispatched, None bounds 0 and sys.maxsize.
TEST(AotIndexingTest, SingleIndexPaths) {
  EXPECT_EQ(Lower("l_x_[1]", "f32[8]")[0], "select = aten.select.int(arg0_1, 0, 1)");
  EXPECT_EQ(Lower("l_x_[slice(1, 3, None)]", "f32[2, 8]")[0], "slice = aten.slice.Tensor(arg0_1, 0, 1, 3)");
  EXPECT_EQ(Lower("l_x_[slice(None, None, None)]", "f32[4, 8]")[0],
            "slice = aten.slice.Tensor(arg0_1, 0, 0, 9223372036854775807)");
  EXPECT_EQ(Lower("l_x_[slice(None, None, 2)]", "f32[2, 8]")[0],
            "slice = aten.slice.Tensor(arg0_1, 0, 0, 9223372036854775807, 2)");
  EXPECT_EQ(Lower("l_x_[None]", "f32[1, 4, 8]")[0], "unsqueeze = aten.unsqueeze.default(arg0_1, 0)");
  EXPECT_EQ(Lower("l_x_[Ellipsis]", "f32[4, 8]")[0], "alias = aten.alias.default(arg0_1)");
}

// applySlicing: a full slice spelled with None bounds is still recorded (its
// stop is sys.maxsize, not the length); 0:size:1 spelled out is not.
TEST(AotIndexingTest, TupleIndexSlicesDimByDim) {
  EXPECT_EQ(Lower("l_x_[(slice(None, None, None), 0)]"),
            (std::vector<std::string>{"slice = aten.slice.Tensor(arg0_1, 0, 0, 9223372036854775807)",
                                      "select = aten.select.int(slice, 1, 0)", "output = output((select,))"}));
  EXPECT_EQ(Lower("l_x_[(slice(0, 4, None), 0)]"),
            (std::vector<std::string>{"select = aten.select.int(arg0_1, 1, 0)", "output = output((select,))"}));
  EXPECT_EQ(Lower("l_x_[(Ellipsis, None)]", "f32[4, 8, 1]")[0], "unsqueeze = aten.unsqueeze.default(arg0_1, 2)");
  EXPECT_EQ(Lower("l_x_[(0, Ellipsis)]", "f32[8]")[0], "select = aten.select.int(arg0_1, 0, 0)");
  EXPECT_EQ(Lower("l_x_[(slice(0, 4, None), slice(0, 8, None))]", "f32[4, 8]")[0],
            "alias = aten.alias.default(arg0_1)");
}

// Tensor indices end in one index.Tensor, None for the dims before them.
TEST(AotIndexingTest, TensorIndicesAreIndexTensor) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n        l_i_ = L_i_\n        l_m_ = L_m_\n"
      "        a: \"f32[3, 8]\" = l_x_[l_i_]\n"
      "        b: \"f32[4, 3]\" = l_x_[(slice(None, None, None), l_i_)]\n"
      "        c: \"f32[u0]\" = l_x_[l_m_]\n        return (a, b, c)\n",
      std::string(kX) + ", L_i_: \"i64[3][1]npu:0\", L_m_: \"b8[4, 8][8, 1]npu:0\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g), (std::vector<std::string>{"index = aten.index.Tensor(arg0_1, [arg1_1])",
                                                 "slice = aten.slice.Tensor(arg0_1, 0, 0, 9223372036854775807)",
                                                 "index_1 = aten.index.Tensor(slice, [None, arg1_1])",
                                                 "index_2 = aten.index.Tensor(arg0_1, [arg2_1])",
                                                 "output = output((index, index_1, index_2))"}));
  // meta_index_Tensor: a bool mask's dims become one data-dependent dim.
  EXPECT_EQ(g->Find("index_2")->tensor()->ShapeString(), "f32[u0]");
  EXPECT_EQ(g->Find("index_1")->tensor()->ShapeString(), "f32[4, 3]");
}

// x[0] = v: copy_ into the select view, functionalized to select_scatter;
// a number on an NPU tensor is scalar_tensor, viewed, expanded and copied.
TEST(AotIndexingTest, SetItemWritesThroughTheView) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n        l_v_ = L_v_\n"
      "        l_x_[0] = l_v_;  setitem = l_x_;  l_v_ = None\n"
      "        l_x_[1] = 0.5;  setitem_1 = l_x_\n        return ()\n",
      std::string(kX) + ", L_v_: \"f32[8][1]npu:0\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g),
            (std::vector<std::string>{
                "select = aten.select.int(arg0_1, 0, 0)", "copy = aten.copy.default(select, arg1_1)",
                "scalar_tensor = aten.scalar_tensor.default(0.5, dtype=torch.float32, layout=torch.strided, "
                "device=device(type='npu', index=0))",
                "select_scatter = aten.select_scatter.default(arg0_1, copy, 0, 0)",
                "select_1 = aten.select.int(select_scatter, 0, 1)", "view = aten.view.default(scalar_tensor, [])",
                "expand = aten.expand.default(view, [8])", "copy_1 = aten.copy.default(select_1, expand)",
                "select_scatter_1 = aten.select_scatter.default(select_scatter, copy_1, 0, 1)",
                "copy_ = aten.copy_.default(arg0_1, select_scatter_1)", "output = output(())"}));
}

TEST(AotIndexingTest, SetItemWithTensorIndexIsIndexPut) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n        l_i_ = L_i_\n        l_w_ = L_w_\n"
      "        l_x_[l_i_] = l_w_;  setitem = l_x_;  l_i_ = l_w_ = None\n        return ()\n",
      std::string(kX) + ", L_i_: \"i64[2][1]npu:0\", L_w_: \"f32[2, 8][8, 1]npu:0\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g),
            (std::vector<std::string>{"index_put = aten.index_put.default(arg0_1, [arg1_1], arg2_1)",
                                      "copy_ = aten.copy_.default(arg0_1, index_put)", "output = output(())"}));
}

// ---- conversions

TEST(AotConversionTest, ToDtypeAndDevice) {
  EXPECT_EQ(Lower("l_x_.to(torch.float16)", "f16[4, 8]")[0],
            "_to_copy = aten._to_copy.default(arg0_1, dtype=torch.float16)");
  EXPECT_EQ(Lower("l_x_.half()", "f16[4, 8]")[0], "_to_copy = aten._to_copy.default(arg0_1, dtype=torch.float16)");
  // dispatch_to(self, device): self.options().device(device).
  EXPECT_EQ(Lower("l_x_.cpu()", "f32[4, 8]")[0],
            "_to_copy = aten._to_copy.default(arg0_1, dtype=torch.float32, layout=torch.strided, "
            "device=device(type='cpu'))");
  EXPECT_EQ(Lower("l_x_.to('cpu', torch.float16)", "f16[4, 8]")[0],
            "_to_copy = aten._to_copy.default(arg0_1, dtype=torch.float16, device=device(type='cpu'))");
}

// to_will_alias: nothing is recorded when nothing changes.
TEST(AotConversionTest, NoCopyWhenNothingChanges) {
  EXPECT_EQ(Lower("l_x_.to(torch.float32)", "f32[4, 8]"), (std::vector<std::string>{"output = output((arg0_1,))"}));
  EXPECT_EQ(Lower("l_x_.npu()", "f32[4, 8]"), (std::vector<std::string>{"output = output((arg0_1,))"}));
  EXPECT_EQ(Lower("l_x_.to(device(type='npu', index=0))", "f32[4, 8]"),
            (std::vector<std::string>{"output = output((arg0_1,))"}));
  EXPECT_EQ(Lower("l_x_.float()", "f32[4, 8]"), (std::vector<std::string>{"output = output((arg0_1,))"}));
  EXPECT_EQ(Lower("l_x_.contiguous()", "f32[4, 8]"), (std::vector<std::string>{"output = output((arg0_1,))"}));
}

// TorchAir's py_impl of type_as on AutogradPrivateUse1: self.to(other.dtype).
TEST(AotConversionTest, TypeAsOnNpuIsToDtype) {
  auto g = ParseDynamo(
      "        l_x_ = L_x_\n        l_y_ = L_y_\n"
      "        r: \"f16[4, 8]\" = l_x_.type_as(l_y_);  l_x_ = l_y_ = None\n        return (r,)\n",
      std::string(kX) + ", L_y_: \"f16[2][1]npu:0\"");
  RunAotPass(*g);
  EXPECT_EQ(Calls(*g)[0], "_to_copy = aten._to_copy.default(arg0_1, dtype=torch.float16)");
}

// A device conversion of a tensor whose device is not stated stays opaque, said so.
TEST(AotConversionTest, UnknownDeviceIsARemark) {
  auto g = ParseDynamo("        l_x_ = L_x_\n        r: \"f32[4]\" = l_x_.cpu();  l_x_ = None\n        return (r,)\n",
                       "L_x_: \"f32[4]\"");
  auto run = RunAotPass(*g);
  EXPECT_TRUE(run.Remarks("device is not stated"));
}

}  // namespace
}  // namespace airscope

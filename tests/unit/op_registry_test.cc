#include "core/ops/op_registry.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "tests/unit/op_test_util.h"

namespace airscope {
namespace {

using testing::B;
using testing::Bools;
using testing::Cost;
using testing::F;
using testing::GraphBuilder;
using testing::I;
using testing::Infer;
using testing::Ints;
using testing::N;
using testing::Nodes;
using testing::None;
using testing::R;
using testing::Shape;

// ---------------------------------------------------------------- registry

TEST(OpRegistryTest, FindAcceptsBothSpellings) {
  const OpInfo* a = R().Find("torch.ops.aten.mm.default");
  const OpInfo* b = R().Find("aten.mm.default");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a->name, "aten.mm.default");
  EXPECT_EQ(a->category, OpCategory::kMatmul);
  EXPECT_EQ(R().Find("aten.no_such_op.default"), nullptr);
  EXPECT_EQ(R().Find("torch.ops.aten.mm"), nullptr);
  EXPECT_NE(R().Find("operator.getitem"), nullptr);
  EXPECT_EQ(R().Find("_operator.getitem"), R().Find("operator.getitem"));
  EXPECT_EQ(StripTorchOps("torch.ops.air.wait.default"), "air.wait.default");
  EXPECT_EQ(StripTorchOps("operator.getitem"), "operator.getitem");
}

TEST(OpRegistryTest, BuiltinIsOneSortedImmutableTable) {
  EXPECT_EQ(&OpRegistry::Builtin(), &OpRegistry::Builtin());
  std::vector<std::string> names = R().Names();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_GT(names.size(), 100u);
  for (const std::string& name : names) {
    const OpInfo* info = R().Find(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_TRUE(info->infer) << name;
    EXPECT_TRUE(info->cost) << name;
  }
}

TEST(OpRegistryTest, EveryOpOfTheSamplesIsKnown) {
  for (const char* name : {"aten._reshape_alias.default",
                           "aten._softmax.default",
                           "aten._unsafe_view.default",
                           "aten.abs.default",
                           "aten.add.Tensor",
                           "aten.addmm.default",
                           "aten.bmm.default",
                           "aten.clone.default",
                           "aten.convolution.default",
                           "aten.eq.Scalar",
                           "aten.expand.default",
                           "aten.gelu.default",
                           "aten.hardtanh_.default",
                           "aten.masked_fill.Scalar",
                           "aten.mean.dim",
                           "aten.mm.default",
                           "aten.mul.Tensor",
                           "aten.native_batch_norm.default",
                           "aten.native_layer_norm.default",
                           "aten.ones.default",
                           "aten.split.Tensor",
                           "aten.sub.Tensor",
                           "aten.sum.default",
                           "aten.t.default",
                           "aten.transpose.int",
                           "aten.tril.default",
                           "aten.view.default",
                           "operator.getitem"}) {
    EXPECT_NE(R().Find(name), nullptr) << name;
  }
}

TEST(OpRegistryTest, CategoriesAndInplaceFlags) {
  EXPECT_EQ(R().Find("aten.add.Tensor")->category, OpCategory::kPointwise);
  EXPECT_EQ(R().Find("aten._softmax.default")->category, OpCategory::kReduction);
  EXPECT_EQ(R().Find("aten.convolution.default")->category, OpCategory::kConvolution);
  EXPECT_EQ(R().Find("aten.convolution_backward.default")->category, OpCategory::kConvolution);
  EXPECT_EQ(R().Find("aten.native_layer_norm.default")->category, OpCategory::kNormalization);
  EXPECT_EQ(R().Find("aten.view.default")->category, OpCategory::kView);
  EXPECT_EQ(R().Find("operator.getitem")->category, OpCategory::kView);
  EXPECT_EQ(R().Find("aten.clone.default")->category, OpCategory::kCopy);
  EXPECT_EQ(R().Find("aten.ones.default")->category, OpCategory::kCreation);
  EXPECT_EQ(R().Find("air.scope_enter.default")->category, OpCategory::kStreamControl);
  EXPECT_EQ(R().Find("aten.item.default")->category, OpCategory::kOther);
  EXPECT_EQ(R().Find("aten._local_scalar_dense.default")->category, OpCategory::kOther);
  for (const char* name : {"aten.hardtanh_.default", "aten.relu_.default", "aten.add_.Tensor", "aten.copy_.default"}) {
    EXPECT_TRUE(R().Find(name)->inplace) << name;
  }
  EXPECT_FALSE(R().Find("aten.hardtanh.default")->inplace);
  EXPECT_EQ(OpCategoryName(OpCategory::kStreamControl), "stream_control");
}

TEST(OpRegistryTest, RegisterReplacesAndExtendsACopy) {
  OpRegistry copy = R();
  OpInfo info;
  info.name = "aten.mm.default";
  info.category = OpCategory::kOther;
  copy.Register(info);
  EXPECT_EQ(copy.Find("aten.mm.default")->category, OpCategory::kOther);
  EXPECT_EQ(R().Find("aten.mm.default")->category, OpCategory::kMatmul);
  EXPECT_EQ(copy.Names().size(), R().Names().size());
}

// ---------------------------------------------------------------- errors

TEST(OpErrorsTest, MissingInputMetaNamesTheInput) {
  GraphBuilder b;
  Node* x = b.Input("x");
  Node* y = b.Input("y", "f32[3, 4]");
  Node* mm = b.Call("aten.mm.default", {N(x), N(y)});
  EXPECT_EQ(Shape(mm), "error: mm: input 'x' has no shape");
}

TEST(OpErrorsTest, NotATensorArgument) {
  GraphBuilder b;
  Node* mm = b.Call("aten.mm.default", {I(1), I(2)});
  EXPECT_EQ(Shape(mm), "error: mm: argument 'self' is not a tensor");
}

// ---------------------------------------------------------------- pointwise

TEST(PointwiseTest, BroadcastingAndScalars) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 1, 3]");
  Node* y = b.Input("y", "f32[4, 3]");
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(x), N(y)})), "f32[2, 4, 3]");
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(y), I(1)})), "f32[4, 3]");
  EXPECT_EQ(Shape(b.Call("aten.mul.Tensor", {N(y), F(0.5)})), "f32[4, 3]");
  EXPECT_EQ(Shape(b.Call("aten.sub.Tensor", {N(x), N(x)})), "f32[2, 1, 3]");
  Node* z = b.Input("z", "f32[5]");
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(y), N(z)})),
            "error: add: cannot broadcast [4, 3] with [5]: dims 3 and 5 differ");
}

TEST(PointwiseTest, TypePromotion) {
  GraphBuilder b;
  Node* f32 = b.Input("f32", "f32[2]");
  Node* f16 = b.Input("f16", "f16[2]");
  Node* bf16 = b.Input("bf16", "bf16[2]");
  Node* f64 = b.Input("f64", "f64[2]");
  Node* i32 = b.Input("i32", "i32[2]");
  Node* i64 = b.Input("i64", "i64[2]");
  Node* u8 = b.Input("u8", "u8[2]");
  Node* i8 = b.Input("i8", "i8[2]");
  Node* b8 = b.Input("b8", "b8[2]");
  Node* f64_0d = b.Input("f64_0d", "f64[]");
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(i64), N(f16)})), "f16[2]");   // float beats int
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(f16), N(f32)})), "f32[2]");   // wider float wins
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(f16), N(bf16)})), "f32[2]");  // f16 + bf16 meet in f32
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(f32), N(f64)})), "f64[2]");
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(b8), N(i32)})), "i32[2]");  // bool + int -> int
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(i32), N(i64)})), "i64[2]");
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(u8), N(i8)})), "i16[2]");
  // Python scalars only matter when of a higher category.
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(f16), I(1)})), "f16[2]");
  EXPECT_EQ(Shape(b.Call("aten.mul.Tensor", {N(f16), F(2.0)})), "f16[2]");
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(i32), I(1)})), "i32[2]");
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(i32), F(1.5)})), "f32[2]");
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(b8), I(1)})), "i64[2]");
  // A zero-dim tensor of the same category does not widen a dimensioned one.
  EXPECT_EQ(Shape(b.Call("aten.mul.Tensor", {N(f32), N(f64_0d)})), "f32[2]");
  EXPECT_EQ(Shape(b.Call("aten.mul.Tensor", {N(i64), N(f64_0d)})), "f64[2]");
  // True division of integers gives the default float.
  EXPECT_EQ(Shape(b.Call("aten.div.Tensor", {N(i64), N(i32)})), "f32[2]");
  EXPECT_EQ(Shape(b.Call("aten.div.Tensor", {N(f16), I(2)})), "f16[2]");
}

TEST(PointwiseTest, ComparisonsGiveBool) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[16, 16]");
  Node* y = b.Input("y", "f32[16]");
  for (const char* cmp : {"eq", "ne", "lt", "gt", "ge", "le"}) {
    EXPECT_EQ(Shape(b.Call(fmt::format("aten.{}.Scalar", cmp), {N(x), I(0)})), "b8[16, 16]") << cmp;
    EXPECT_EQ(Shape(b.Call(fmt::format("aten.{}.Tensor", cmp), {N(x), N(y)})), "b8[16, 16]") << cmp;
  }
}

TEST(PointwiseTest, UnaryFunctions) {
  GraphBuilder b;
  Node* x = b.Input("x", "f16[2, 3]");
  Node* i = b.Input("i", "i64[4]");
  for (const char* op :
       {"aten.abs.default", "aten.neg.default", "aten.exp.default", "aten.relu.default", "aten.sigmoid.default",
        "aten.tanh.default", "aten.rsqrt.default", "aten.sqrt.default", "aten.gelu.default", "aten.tril.default"}) {
    EXPECT_EQ(Shape(b.Call(op, {N(x)})), "f16[2, 3]") << op;
  }
  EXPECT_EQ(Shape(b.Call("aten.abs.default", {N(i)})), "i64[4]");
  EXPECT_EQ(Shape(b.Call("aten.neg.default", {N(i)})), "i64[4]");
  EXPECT_EQ(Shape(b.Call("aten.exp.default", {N(i)})), "f32[4]");
  EXPECT_EQ(Shape(b.Call("aten.sqrt.default", {N(i)})), "f32[4]");
  EXPECT_EQ(Shape(b.Call("aten.hardtanh.default", {N(x), F(0.0), F(6.0)})), "f16[2, 3]");
  EXPECT_EQ(Shape(b.Call("aten.hardtanh_.default", {N(x), F(0.0), F(6.0)})), "f16[2, 3]");
  EXPECT_EQ(Shape(b.Call("aten.relu_.default", {N(x)})), "f16[2, 3]");
  EXPECT_EQ(Shape(b.Call("aten.pow.Tensor_Scalar", {N(x), I(2)})), "f16[2, 3]");
  EXPECT_EQ(Shape(b.Call("aten.pow.Tensor_Scalar", {N(i), F(0.5)})), "f32[4]");
}

TEST(PointwiseTest, WhereMaskedFillAndInplace) {
  GraphBuilder b;
  Node* cond = b.Input("cond", "b8[16, 16]");
  Node* x = b.Input("x", "f32[2, 4, 16, 16]");
  Node* y = b.Input("y", "f16[16]");
  EXPECT_EQ(Shape(b.Call("aten.where.self", {N(cond), N(x), N(y)})), "f32[2, 4, 16, 16]");
  EXPECT_EQ(Shape(b.Call("aten.masked_fill.Scalar", {N(x), N(cond), F(-INFINITY)})), "f32[2, 4, 16, 16]");
  Node* big_mask = b.Input("big_mask", "b8[3, 2, 4, 16, 16]");
  EXPECT_EQ(Shape(b.Call("aten.masked_fill.Scalar", {N(x), N(big_mask), F(0)})),
            "error: masked_fill: mask [3, 2, 4, 16, 16] does not broadcast to self [2, 4, 16, 16]");
  Node* row = b.Input("row", "f32[16]");
  EXPECT_EQ(Shape(b.Call("aten.add_.Tensor", {N(x), N(row)})), "f32[2, 4, 16, 16]");
  EXPECT_EQ(Shape(b.Call("aten.add_.Tensor", {N(row), N(x)})),
            "error: add_: in-place output [16] cannot hold broadcast shape [2, 4, 16, 16]");
}

TEST(PointwiseTest, SymbolicBroadcast) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[s0, 4]");
  Node* y = b.Input("y", "f32[s0, 1]");
  Node* z = b.Input("z", "f32[1, 4]");
  EXPECT_EQ(Shape(b.Call("aten.add.Tensor", {N(x), N(y)})), "f32[s0, 4]");
  EXPECT_EQ(Shape(b.Call("aten.mul.Tensor", {N(z), N(y)})), "f32[s0, 4]");
}

TEST(PointwiseTest, ElementwiseCost) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[8, 256]");
  Node* add = b.Call("aten.add.Tensor", {N(x), N(x)});
  ASSERT_TRUE(Infer(add).ok());
  auto cost = Cost(add);
  ASSERT_TRUE(cost);
  EXPECT_EQ(cost->flops, 8 * 256);
  EXPECT_EQ(cost->bytes_read, 8 * 256 * 4);  // x is one input, read once
  EXPECT_EQ(cost->bytes_written, 8 * 256 * 4);
  Node* gelu = b.Call("aten.gelu.default", {N(x)});
  ASSERT_TRUE(Infer(gelu).ok());
  EXPECT_GT(Cost(gelu)->flops, cost->flops);  // a few flops per element
}

// ---------------------------------------------------------------- matmul

TEST(MatmulTest, MmShapeAndExactFlops) {
  GraphBuilder b;
  Node* a = b.Input("a", "f32[8, 64]");
  Node* w = b.Input("w", "f32[64, 256]");
  Node* mm = b.Call("aten.mm.default", {N(a), N(w)});
  EXPECT_EQ(Shape(mm), "f32[8, 256]");
  auto cost = Cost(mm);
  ASSERT_TRUE(cost);
  EXPECT_EQ(cost->flops, 2.0 * 8 * 256 * 64);
  EXPECT_EQ(cost->bytes_read, (8 * 64 + 64 * 256) * 4);
  EXPECT_EQ(cost->bytes_written, 8 * 256 * 4);
  Node* bad = b.Call("aten.mm.default", {N(w), N(w)});
  EXPECT_EQ(Shape(bad), "error: mm: inner dims 256 and 64 differ");
}

TEST(MatmulTest, AddmmAddsTheBias) {
  GraphBuilder b;
  Node* bias = b.Input("bias", "f32[256]");
  Node* x = b.Input("x", "f32[8, 64]");
  Node* w = b.Input("w", "f32[64, 256]");
  Node* addmm = b.Call("aten.addmm.default", {N(bias), N(x), N(w)});
  EXPECT_EQ(Shape(addmm), "f32[8, 256]");
  EXPECT_EQ(Cost(addmm)->flops, 2.0 * 8 * 256 * 64 + 8 * 256);
  Node* bad_bias = b.Input("bad_bias", "f32[255]");
  EXPECT_EQ(Shape(b.Call("aten.addmm.default", {N(bad_bias), N(x), N(w)})),
            "error: addmm: cannot broadcast [8, 256] with [255]: dims 256 and 255 differ");
}

TEST(MatmulTest, BmmAndMatmul) {
  GraphBuilder b;
  Node* q = b.Input("q", "f32[8, 16, 32]");
  Node* k = b.Input("k", "f32[8, 32, 16]");
  Node* bmm = b.Call("aten.bmm.default", {N(q), N(k)});
  EXPECT_EQ(Shape(bmm), "f32[8, 16, 16]");
  EXPECT_EQ(Cost(bmm)->flops, 2.0 * 8 * 16 * 16 * 32);
  EXPECT_EQ(Shape(b.Call("aten.bmm.default", {N(q), N(q)})), "error: bmm: inner dims 32 and 16 differ");
  Node* v = b.Input("v", "f32[32]");
  Node* m = b.Input("m", "f32[32, 5]");
  Node* batched = b.Input("batched", "f32[3, 1, 16, 32]");
  Node* other = b.Input("other", "f32[4, 32, 7]");
  EXPECT_EQ(Shape(b.Call("aten.matmul.default", {N(v), N(v)})), "f32[]");
  EXPECT_EQ(Shape(b.Call("aten.matmul.default", {N(v), N(m)})), "f32[5]");
  EXPECT_EQ(Shape(b.Call("aten.matmul.default", {N(q), N(v)})), "f32[8, 16]");
  EXPECT_EQ(Shape(b.Call("aten.matmul.default", {N(q), N(m)})), "f32[8, 16, 5]");
  EXPECT_EQ(Shape(b.Call("aten.matmul.default", {N(batched), N(other)})), "f32[3, 4, 16, 7]");
}

TEST(MatmulTest, SymbolicM) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[s0, 64]");
  Node* w = b.Input("w", "f32[64, 128]");
  Node* mm = b.Call("aten.mm.default", {N(x), N(w)});
  EXPECT_EQ(Shape(mm), "f32[s0, 128]");
  EXPECT_FALSE(Cost(mm));  // unknown until s0 is
}

// ---------------------------------------------------------------- conv + norm

Node* Conv(GraphBuilder& b, Node* x, Node* w, Argument bias, std::vector<int64_t> stride, std::vector<int64_t> padding,
           std::vector<int64_t> dilation, bool transposed, std::vector<int64_t> output_padding, int64_t groups) {
  return b.Call("aten.convolution.default", {N(x), N(w), bias, Ints(stride), Ints(padding), Ints(dilation),
                                             B(transposed), Ints(output_padding), I(groups)});
}

TEST(ConvTest, StridedConvShapeAndExactFlops) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[1, 3, 224, 224]");
  Node* w = b.Attr("w", "f32[32, 3, 3, 3]");
  Node* conv = Conv(b, x, w, None(), {2, 2}, {1, 1}, {1, 1}, false, {0, 0}, 1);
  EXPECT_EQ(Shape(conv), "f32[1, 32, 112, 112]");
  auto cost = Cost(conv);
  ASSERT_TRUE(cost);
  EXPECT_EQ(cost->flops, 2.0 * 1 * 32 * 112 * 112 * 3 * 3 * 3);
  EXPECT_EQ(cost->bytes_read, (3 * 224 * 224 + 32 * 3 * 3 * 3) * 4);
  EXPECT_EQ(cost->bytes_written, 32 * 112 * 112 * 4);
}

TEST(ConvTest, DepthwiseDilatedAndBias) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 32, 56, 56]");
  Node* dw = b.Attr("dw", "f32[32, 1, 3, 3]");
  Node* depthwise = Conv(b, x, dw, None(), {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 32);
  EXPECT_EQ(Shape(depthwise), "f32[2, 32, 56, 56]");
  EXPECT_EQ(Cost(depthwise)->flops, 2.0 * 2 * 32 * 56 * 56 * 1 * 3 * 3);
  // Dilation 2 widens a 3x3 kernel to 5x5: 56 + 2*1 - 4 - 1 + 1 = 54.
  EXPECT_EQ(Shape(Conv(b, x, dw, None(), {1, 1}, {1, 1}, {2, 2}, false, {0, 0}, 32)), "f32[2, 32, 54, 54]");
  // One-element lists apply to both spatial dims.
  EXPECT_EQ(Shape(Conv(b, x, dw, None(), {2}, {1}, {1}, false, {0}, 32)), "f32[2, 32, 28, 28]");
  Node* w = b.Attr("w", "f32[64, 32, 1, 1]");
  Node* bias = b.Attr("bias", "f32[64]");
  Node* pointwise = Conv(b, x, w, N(bias), {1, 1}, {0, 0}, {1, 1}, false, {0, 0}, 1);
  EXPECT_EQ(Shape(pointwise), "f32[2, 64, 56, 56]");
  EXPECT_EQ(Cost(pointwise)->flops, 2.0 * 2 * 64 * 56 * 56 * 32 + 2 * 64 * 56 * 56);
}

TEST(ConvTest, TransposedAnd1d) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[1, 16, 7, 7]");
  Node* w = b.Attr("w", "f32[16, 8, 3, 3]");  // [Cin, Cout/groups, kh, kw]
  Node* up = Conv(b, x, w, None(), {2, 2}, {1, 1}, {1, 1}, true, {1, 1}, 1);
  EXPECT_EQ(Shape(up), "f32[1, 8, 14, 14]");  // (7-1)*2 - 2 + 2 + 1 + 1
  EXPECT_EQ(Cost(up)->flops, 2.0 * 1 * 16 * 7 * 7 * 8 * 3 * 3);
  Node* grouped = Conv(b, x, w, None(), {1, 1}, {0, 0}, {1, 1}, true, {0, 0}, 2);
  EXPECT_EQ(Shape(grouped), "f32[1, 16, 9, 9]");  // Cout = 8 * groups
  Node* seq = b.Input("seq", "f32[4, 8, 100]");
  Node* k = b.Attr("k", "f32[12, 8, 5]");
  EXPECT_EQ(Shape(Conv(b, seq, k, None(), {1}, {2}, {1}, false, {0}, 1)), "f32[4, 12, 100]");
}

TEST(ConvTest, ChannelMismatchNamesBothCounts) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[1, 3, 8, 8]");
  Node* w = b.Attr("w", "f32[16, 4, 3, 3]");
  EXPECT_EQ(Shape(Conv(b, x, w, None(), {1, 1}, {0, 0}, {1, 1}, false, {0, 0}, 1)),
            "error: convolution: input has 3 channels but weight [16, 4, 3, 3] with groups=1 expects 4");
  Node* tiny = b.Input("tiny", "f32[1, 4, 2, 2]");
  EXPECT_EQ(Shape(Conv(b, tiny, w, None(), {1, 1}, {0, 0}, {1, 1}, false, {0, 0}, 1)),
            "error: convolution: input size 2 is too small for kernel 3 (dilation 1, padding 0): output size 0");
}

TEST(ConvTest, SymbolicBatchAndSpatial) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[s0, 3, s1, 32]");
  Node* w = b.Attr("w", "f32[8, 3, 3, 3]");
  EXPECT_EQ(Shape(Conv(b, x, w, None(), {1, 1}, {1, 1}, {1, 1}, false, {0, 0}, 1)), "f32[s0, 8, s1, 32]");
  EXPECT_EQ(Shape(Conv(b, x, w, None(), {1, 1}, {0, 0}, {1, 1}, false, {0, 0}, 1)), "f32[s0, 8, s1 - 2, 30]");
}

TEST(NormTest, BatchNormTuple) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[1, 32, 112, 112]");
  Node* p = b.Attr("p", "f32[32]");
  Node* bn = b.Call("aten.native_batch_norm.default", {N(x), N(p), N(p), N(p), N(p), B(false), F(0.1), F(1e-5)});
  EXPECT_EQ(Shape(bn), "(f32[1, 32, 112, 112], f32[32], f32[32])");
  Node* half = b.Input("half", "f16[4, 8]");
  Node* q = b.Attr("q", "f32[8]");
  Node* bn16 =
      b.Call("aten.native_batch_norm.default", {N(half), N(q), N(q), None(), None(), B(true), F(0.1), F(1e-5)});
  EXPECT_EQ(Shape(bn16), "(f16[4, 8], f32[8], f32[8])");
  Node* wrong = b.Attr("wrong", "f32[31]");
  EXPECT_EQ(
      Shape(b.Call("aten.native_batch_norm.default", {N(x), N(wrong), N(p), N(p), N(p), B(false), F(0.1), F(1e-5)})),
      "error: native_batch_norm: weight has 31 elements but input has 32 channels");
}

TEST(NormTest, LayerNormStatsKeepLeadingDims) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 16, 128]");
  Node* p = b.Attr("p", "f32[128]");
  Node* ln = b.Call("aten.native_layer_norm.default", {N(x), Ints({128}), N(p), N(p), F(1e-5)});
  EXPECT_EQ(Shape(ln), "(f32[2, 16, 128], f32[2, 16, 1], f32[2, 16, 1])");
  Node* ln2 = b.Call("aten.native_layer_norm.default", {N(x), Ints({16, 128}), None(), None(), F(1e-5)});
  EXPECT_EQ(Shape(ln2), "(f32[2, 16, 128], f32[2, 1, 1], f32[2, 1, 1])");
  Node* bad = b.Call("aten.native_layer_norm.default", {N(x), Ints({64}), N(p), N(p), F(1e-5)});
  EXPECT_EQ(Shape(bad), "error: native_layer_norm: input dim 2 is 128 but normalized_shape says 64");
}

// ---------------------------------------------------------------- views

TEST(ViewTest, ViewReshapeWithInference) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 16, 128]");
  EXPECT_EQ(Shape(b.Call("aten.view.default", {N(x), Ints({32, 128})})), "f32[32, 128]");
  EXPECT_EQ(Shape(b.Call("aten.view.default", {N(x), Ints({-1, 4, 32})})), "f32[32, 4, 32]");
  EXPECT_EQ(Shape(b.Call("aten._unsafe_view.default", {N(x), Ints({2, -1})})), "f32[2, 2048]");
  EXPECT_EQ(Shape(b.Call("aten.reshape.default", {N(x), Ints({-1})})), "f32[4096]");
  EXPECT_EQ(Shape(b.Call("aten.view.default", {N(x), Ints({3, -1})})),
            "error: view: shape '[3, -1]' is invalid for input of size 4096 (self [2, 16, 128])");
  EXPECT_EQ(Shape(b.Call("aten.view.default", {N(x), Ints({4, 4})})),
            "error: view: shape '[4, 4]' is invalid for input of size 4096 (self [2, 16, 128])");
  EXPECT_EQ(Shape(b.Call("aten.view.default", {N(x), Ints({-1, -1})})),
            "error: view: only one dimension can be inferred in [-1, -1]");
  EXPECT_EQ(Shape(b.Call("aten._reshape_alias.default", {N(x), Ints({32, 128}), Ints({128, 1})})), "f32[32, 128]");
}

TEST(ViewTest, SymbolicView) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[s0, 16, 128]");
  EXPECT_EQ(Shape(b.Call("aten.view.default", {N(x), Ints({-1, 128})})), "f32[16*s0, 128]");
  NodeMeta sym;
  sym.kind = ValueKind::kSymInt;
  sym.annotation = "Sym(s0)";
  Node* size = b.Input("size");
  size->set_meta(sym);
  EXPECT_EQ(Shape(b.Call("aten.view.default", {N(x), Argument::List({N(size), I(-1)})})), "f32[s0, 2048]");
  Node* flat = b.Input("flat", "f32[16*s0]");
  // Atoms are opaque: "16*s0" is one symbol and divides only itself.
  EXPECT_EQ(Shape(b.Call("aten.view.default", {N(flat), Argument::List({I(-1)})})), "f32[16*s0]");
}

TEST(ViewTest, TransposePermuteExpandT) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 4, 16, 32]");
  EXPECT_EQ(Shape(b.Call("aten.transpose.int", {N(x), I(1), I(2)})), "f32[2, 16, 4, 32]");
  EXPECT_EQ(Shape(b.Call("aten.transpose.int", {N(x), I(-2), I(-1)})), "f32[2, 4, 32, 16]");
  EXPECT_EQ(Shape(b.Call("aten.transpose.int", {N(x), I(4), I(0)})),
            "error: transpose: dim 4 out of range for a tensor of rank 4");
  EXPECT_EQ(Shape(b.Call("aten.permute.default", {N(x), Ints({0, 2, 1, -1})})), "f32[2, 16, 4, 32]");
  EXPECT_EQ(Shape(b.Call("aten.permute.default", {N(x), Ints({0, 0, 1, 2})})),
            "error: permute: dim 0 repeats in the permutation");
  Node* one = b.Input("one", "f32[1, 16, 1]");
  EXPECT_EQ(Shape(b.Call("aten.expand.default", {N(one), Ints({3, 4, -1, 8})})), "f32[3, 4, 16, 8]");
  EXPECT_EQ(Shape(b.Call("aten.expand.default", {N(one), Ints({2, 8, 8})})),
            "error: expand: cannot expand dim 1 of size 16 to 8");
  Node* w = b.Input("w", "f32[256, 64]");
  EXPECT_EQ(Shape(b.Call("aten.t.default", {N(w)})), "f32[64, 256]");
  Node* v = b.Input("v", "f32[7]");
  EXPECT_EQ(Shape(b.Call("aten.t.default", {N(v)})), "f32[7]");
  EXPECT_EQ(Shape(b.Call("aten.t.default", {N(x)})), "error: t: expects a tensor with <= 2 dims, got [2, 4, 16, 32]");
}

TEST(ViewTest, SliceSelectSqueeze) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4, 10]");
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(Shape(b.Call("aten.slice.Tensor", {N(x), I(1), I(2), I(5)})), "f32[4, 3]");
  EXPECT_EQ(Shape(b.Call("aten.slice.Tensor", {N(x), I(1), None(), None()})), "f32[4, 10]");
  EXPECT_EQ(Shape(b.Call("aten.slice.Tensor", {N(x), I(1), I(0), I(kMax)})), "f32[4, 10]");
  EXPECT_EQ(Shape(b.Call("aten.slice.Tensor", {N(x), I(-1), I(-3), None()})), "f32[4, 3]");
  EXPECT_EQ(Shape(b.Call("aten.slice.Tensor", {N(x), I(1), I(1), I(100), I(3)})), "f32[4, 3]");
  EXPECT_EQ(Shape(b.Call("aten.slice.Tensor", {N(x), I(0), I(3), I(1)})), "f32[0, 10]");
  EXPECT_EQ(Shape(b.Call("aten.slice.Tensor", {N(x)})), "f32[4, 10]");
  Node* s = b.Input("s", "f32[s0, 8]");
  EXPECT_EQ(Shape(b.Call("aten.slice.Tensor", {N(s), I(0), I(1), I(kMax)})), "f32[s0 - 1, 8]");
  EXPECT_EQ(Shape(b.Call("aten.select.int", {N(x), I(0), I(-1)})), "f32[10]");
  EXPECT_EQ(Shape(b.Call("aten.select.int", {N(x), I(1), I(10)})),
            "error: select: index 10 out of range for dim 1 of size 10");
  EXPECT_EQ(Shape(b.Call("aten.unsqueeze.default", {N(x), I(-1)})), "f32[4, 10, 1]");
  EXPECT_EQ(Shape(b.Call("aten.unsqueeze.default", {N(x), I(0)})), "f32[1, 4, 10]");
  Node* ones = b.Input("ones", "f32[1, 3, 1]");
  EXPECT_EQ(Shape(b.Call("aten.squeeze.dim", {N(ones), I(0)})), "f32[3, 1]");
  EXPECT_EQ(Shape(b.Call("aten.squeeze.dim", {N(ones), I(1)})), "f32[1, 3, 1]");
  EXPECT_EQ(Shape(b.Call("aten.squeeze.default", {N(ones)})), "f32[3]");
}

TEST(ViewTest, SplitAndGetitem) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 16, 384]");
  Node* split = b.Call("aten.split.Tensor", {N(x), I(128), I(2)});
  EXPECT_EQ(Shape(split), "(f32[2, 16, 128], f32[2, 16, 128], f32[2, 16, 128])");
  EXPECT_EQ(Shape(b.Call("operator.getitem", {N(split), I(1)})), "f32[2, 16, 128]");
  EXPECT_EQ(Shape(b.Call("operator.getitem", {N(split), I(-1)})), "f32[2, 16, 128]");
  EXPECT_EQ(Shape(b.Call("operator.getitem", {N(split), I(3)})),
            "error: getitem: index 3 out of range for 'split' with 3 elements");
  EXPECT_EQ(Shape(b.Call("operator.getitem", {N(x), I(0)})), "error: getitem: input 'x' is not a tuple");
  EXPECT_EQ(Shape(b.Call("aten.split.Tensor", {N(x), I(100), I(-1)})),
            "(f32[2, 16, 100], f32[2, 16, 100], f32[2, 16, 100], f32[2, 16, 84])");
  EXPECT_EQ(Shape(b.Call("aten.split_with_sizes.default", {N(x), Ints({100, 284}), I(2)})),
            "(f32[2, 16, 100], f32[2, 16, 284])");
  EXPECT_EQ(Shape(b.Call("aten.split_with_sizes.default", {N(x), Ints({100, 200}), I(2)})),
            "error: split_with_sizes: split_sizes [100, 200] sum to 300 but dim 2 has size 384");
}

TEST(ViewTest, ViewsCostNothing) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 16, 128]");
  Node* view = b.Call("aten.view.default", {N(x), Ints({32, 128})});
  ASSERT_TRUE(Infer(view).ok());
  auto cost = Cost(view);
  ASSERT_TRUE(cost);
  EXPECT_EQ(cost->flops, 0);
  EXPECT_EQ(cost->bytes_read, 0);
  EXPECT_EQ(cost->bytes_written, 0);
}

// ---------------------------------------------------------------- reductions

TEST(ReductionTest, SumMeanAmaxSoftmax) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 16, 128]");
  Node* i = b.Input("i", "i32[4, 5]");
  Node* h = b.Input("h", "f16[4, 5]");
  EXPECT_EQ(Shape(b.Call("aten.sum.default", {N(x)})), "f32[]");
  EXPECT_EQ(Shape(b.Call("aten.sum.default", {N(i)})), "i64[]");
  EXPECT_EQ(Shape(b.Call("aten.sum.dim_IntList", {N(x), Ints({-1})})), "f32[2, 16]");
  EXPECT_EQ(Shape(b.Call("aten.sum.dim_IntList", {N(x), Ints({0, 2}), B(true)})), "f32[1, 16, 1]");
  EXPECT_EQ(Shape(b.Call("aten.sum.dim_IntList", {N(h), Ints({1})}, {{"dtype", Argument::OfDType(DType::kFloat32)}})),
            "f32[4]");
  EXPECT_EQ(Shape(b.Call("aten.sum.dim_IntList", {N(x), None()})), "f32[]");
  Node* img = b.Input("img", "f32[1, 1280, 7, 7]");
  EXPECT_EQ(Shape(b.Call("aten.mean.dim", {N(img), Ints({-1, -2}), B(true)})), "f32[1, 1280, 1, 1]");
  EXPECT_EQ(Shape(b.Call("aten.mean.dim", {N(img), Ints({-1, -2})})), "f32[1, 1280]");
  EXPECT_EQ(Shape(b.Call("aten.amax.default", {N(x), Ints({-1}), B(true)})), "f32[2, 16, 1]");
  EXPECT_EQ(Shape(b.Call("aten.amax.default", {N(x)})), "f32[]");
  EXPECT_EQ(Shape(b.Call("aten._softmax.default", {N(x), I(-1), B(false)})), "f32[2, 16, 128]");
  EXPECT_EQ(Shape(b.Call("aten._softmax.default", {N(h), I(-1), B(true)})), "f32[4, 5]");
  EXPECT_EQ(Shape(b.Call("aten._log_softmax.default", {N(h), I(1), B(false)})), "f16[4, 5]");
  EXPECT_EQ(Shape(b.Call("aten._softmax.default", {N(x), I(3), B(false)})),
            "error: _softmax: dim 3 out of range for a tensor of rank 3");
  Node* sum = b.Call("aten.sum.default", {N(x)});
  ASSERT_TRUE(Infer(sum).ok());
  EXPECT_EQ(Cost(sum)->flops, 2 * 16 * 128);
  EXPECT_EQ(Cost(sum)->bytes_written, 4);
}

// ---------------------------------------------------------------- creation, copies, misc

TEST(MiscTest, Creation) {
  GraphBuilder b;
  Node* ones = b.Call("aten.ones.default", {Ints({16, 16})},
                      {{"device", Argument::OfDevice(Device{"cpu", -1})}, {"pin_memory", B(false)}});
  ASSERT_TRUE(Infer(ones).ok());
  EXPECT_EQ(ones->meta()->tensor()->ToAnnotation(), "f32[16, 16]");  // the graph states no devices
  {
    GraphBuilder with_devices;
    with_devices.Input("x", "f32[2][1]npu:0");
    Node* on_cpu =
        with_devices.Call("aten.ones.default", {Ints({16, 16})}, {{"device", Argument::OfDevice(Device{"cpu", -1})}});
    ASSERT_TRUE(Infer(on_cpu).ok());
    EXPECT_EQ(on_cpu->meta()->tensor()->device, "cpu");
  }
  EXPECT_EQ(Shape(b.Call("aten.zeros.default", {Ints({3})}, {{"dtype", Argument::OfDType(DType::kInt64)}})), "i64[3]");
  EXPECT_EQ(Shape(b.Call("aten.empty.default", {Ints({2, 3})})), "f32[2, 3]");
  EXPECT_EQ(Shape(b.Call("aten.full.default", {Ints({2}), I(7)})), "i64[2]");
  EXPECT_EQ(Shape(b.Call("aten.full.default", {Ints({2}), F(0.5)})), "f32[2]");
  EXPECT_EQ(Shape(b.Call("aten.full.default", {Ints({2}), B(true)})), "b8[2]");
  EXPECT_EQ(Shape(b.Call("aten.full.default", {Ints({2}), I(1)}, {{"dtype", Argument::OfDType(DType::kFloat16)}})),
            "f16[2]");
  EXPECT_EQ(Shape(b.Call("aten.empty_strided.default", {Ints({2, 3}), Ints({3, 1})})), "f32[2, 3]");
  EXPECT_EQ(Shape(b.Call("aten.arange.default", {I(10)})), "i64[10]");
  EXPECT_EQ(Shape(b.Call("aten.arange.start", {I(2), I(10)})), "i64[8]");
  EXPECT_EQ(Shape(b.Call("aten.arange.start_step", {I(0), I(10), I(3)})), "i64[4]");
  EXPECT_EQ(Shape(b.Call("aten.arange.start", {F(0.0), F(1.0)})), "f32[1]");
  // torch's check_size_nonnegative, in its words; new_* too.
  EXPECT_EQ(Shape(b.Call("aten.zeros.default", {Ints({3, -1})})),
            "error: zeros: Trying to create tensor with negative dimension -1: [3, -1]");
  EXPECT_EQ(Shape(b.Call("aten.full.default", {Ints({-2}), I(7)})),
            "error: full: Trying to create tensor with negative dimension -2: [-2]");
  EXPECT_EQ(Shape(b.Call("aten.new_zeros.default", {N(b.Input("s", "f32[2]")), Ints({-1})})),
            "error: new_zeros: Trying to create tensor with negative dimension -1: [-1]");
  auto cost = Cost(ones);
  ASSERT_TRUE(cost);
  EXPECT_EQ(cost->bytes_written, 16 * 16 * 4);
  EXPECT_EQ(cost->flops, 0);
}

TEST(MiscTest, CopiesCatStackEmbedding) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 3]");
  Node* y = b.Input("y", "f32[2, 5]");
  Node* clone =
      b.Call("aten.clone.default", {N(x)}, {{"memory_format", Argument::OfMemoryFormat(MemoryFormat::kContiguous)}});
  EXPECT_EQ(Shape(clone), "f32[2, 3]");
  auto cost = Cost(clone);
  EXPECT_EQ(cost->flops, 0);
  EXPECT_EQ(cost->bytes_read, 24);
  EXPECT_EQ(cost->bytes_written, 24);
  EXPECT_EQ(Shape(b.Call("aten._to_copy.default", {N(x)}, {{"dtype", Argument::OfDType(DType::kFloat16)}})),
            "f16[2, 3]");
  EXPECT_EQ(Shape(b.Call("aten.copy_.default", {N(x), N(x)})), "f32[2, 3]");
  EXPECT_EQ(Shape(b.Call("aten.detach.default", {N(x)})), "f32[2, 3]");
  EXPECT_EQ(Shape(b.Call("aten.alias.default", {N(x)})), "f32[2, 3]");
  EXPECT_EQ(Shape(b.Call("aten.cat.default", {Nodes({x, y}), I(-1)})), "f32[2, 8]");
  EXPECT_EQ(Shape(b.Call("aten.cat.default", {Nodes({x, y})})),
            "error: cat: sizes [2, 3] and [2, 5] differ in dim 1: 3 and 5");
  Node* empty = b.Input("empty", "f32[0]");
  EXPECT_EQ(Shape(b.Call("aten.cat.default", {Nodes({x, empty, x})})), "f32[4, 3]");
  Node* s = b.Input("s", "f32[s0, 3]");
  EXPECT_EQ(Shape(b.Call("aten.cat.default", {Nodes({x, s})})), "f32[s0 + 2, 3]");
  // Like symbols add up as sympy prints them: torch annotates cat([a, a]) of [s0, 3] as f32[2*s0, 3].
  EXPECT_EQ(Shape(b.Call("aten.cat.default", {Nodes({s, s})})), "f32[2*s0, 3]");
  Node* t = b.Input("t", "f32[s1, 3]");
  EXPECT_EQ(Shape(b.Call("aten.cat.default", {Nodes({t, s, x, s})})), "f32[2*s0 + s1 + 2, 3]");
  Node* u = b.Input("u", "f32[2*s1, 3]");  // a compound symbol stays as it comes
  EXPECT_EQ(Shape(b.Call("aten.cat.default", {Nodes({u, s})})), "f32[2*s1 + s0, 3]");
  EXPECT_EQ(Shape(b.Call("aten.stack.default", {Nodes({x, x, x}), I(1)})), "f32[2, 3, 3]");
  EXPECT_EQ(Shape(b.Call("aten.stack.default", {Nodes({x, x}), I(-1)})), "f32[2, 3, 2]");
  Node* table = b.Attr("table", "f32[1000, 64]");
  Node* ids = b.Input("ids", "i64[4, 7]");
  EXPECT_EQ(Shape(b.Call("aten.embedding.default", {N(table), N(ids)})), "f32[4, 7, 64]");
}

TEST(MiscTest, HostSyncAndStreamControl) {
  GraphBuilder b;
  Node* x = b.Input("x", "i64[]");
  Node* item = b.Call("aten._local_scalar_dense.default", {N(x)});
  auto meta = Infer(item);
  ASSERT_TRUE(meta.ok());
  EXPECT_EQ(meta->kind, ValueKind::kSymInt);
  EXPECT_EQ(meta->tensor(), nullptr);
  Node* many = b.Input("many", "f32[3]");
  EXPECT_EQ(Shape(b.Call("aten.item.default", {N(many)})),
            "error: item: a tensor with 3 elements cannot be converted to a scalar");
  for (const char* op :
       {"air.scope_enter.default", "air.scope_exit.default", "air.record.default", "air.wait.default"}) {
    Node* n = b.Call(op, {});
    auto m = Infer(n);
    ASSERT_TRUE(m.ok()) << op;
    EXPECT_EQ(m->kind, ValueKind::kOpaque);
    EXPECT_TRUE(m->annotation.empty());
    EXPECT_TRUE(m->tensors.empty());
    auto cost = Cost(n);
    ASSERT_TRUE(cost);
    EXPECT_EQ(cost->flops + cost->bytes_read + cost->bytes_written, 0);
  }
}

// ---------------------------------------------------------------- backward

TEST(BackwardTest, ConvolutionBackwardHonoursOutputMask) {
  GraphBuilder b;
  Node* grad = b.Input("grad", "f32[1, 32, 112, 112]");
  Node* x = b.Input("x", "f32[1, 3, 224, 224]");
  Node* w = b.Input("w", "f32[32, 3, 3, 3]");
  auto call = [&](std::vector<bool> mask) {
    return b.Call("aten.convolution_backward.default",
                  {N(grad), N(x), N(w), Ints({32}), Ints({2, 2}), Ints({1, 1}), Ints({1, 1}), B(false), Ints({0, 0}),
                   I(1), Bools(std::move(mask))});
  };
  Node* all = call({true, true, true});
  EXPECT_EQ(Shape(all), "(f32[1, 3, 224, 224], f32[32, 3, 3, 3], f32[32])");
  EXPECT_EQ(Cost(all)->flops, 2 * (2.0 * 32 * 112 * 112 * 27) + 32 * 112 * 112);
  EXPECT_EQ(Shape(call({false, true, false})), "(None, f32[32, 3, 3, 3], None)");
  Node* wrong_grad = b.Input("wrong_grad", "f32[1, 32, 56, 56]");
  EXPECT_EQ(Shape(b.Call("aten.convolution_backward.default",
                         {N(wrong_grad), N(x), N(w), None(), Ints({2, 2}), Ints({1, 1}), Ints({1, 1}), B(false),
                          Ints({0, 0}), I(1), Bools({true, true, false})})),
            "error: convolution_backward: grad_output dim 2 is 56 but the convolution output has 112");
}

TEST(BackwardTest, NormBackwards) {
  GraphBuilder b;
  Node* grad = b.Input("grad", "f32[2, 16, 128]");
  Node* x = b.Input("x", "f32[2, 16, 128]");
  Node* stats = b.Input("stats", "f32[2, 16, 1]");
  Node* p = b.Attr("p", "f32[128]");
  EXPECT_EQ(Shape(b.Call("aten.native_layer_norm_backward.default",
                         {N(grad), N(x), Ints({128}), N(stats), N(stats), N(p), N(p), Bools({true, true, true})})),
            "(f32[2, 16, 128], f32[128], f32[128])");
  EXPECT_EQ(Shape(b.Call("aten.native_layer_norm_backward.default",
                         {N(grad), N(x), Ints({128}), N(stats), N(stats), None(), None(), Bools({true, true, true})})),
            "(f32[2, 16, 128], None, None)");
  Node* img = b.Input("img", "f32[4, 32, 8, 8]");
  Node* c = b.Attr("c", "f32[32]");
  EXPECT_EQ(Shape(b.Call("aten.native_batch_norm_backward.default",
                         {N(img), N(img), N(c), N(c), N(c), N(c), N(c), B(true), F(1e-5), Bools({true, true, true})})),
            "(f32[4, 32, 8, 8], f32[32], f32[32])");
  EXPECT_EQ(Shape(b.Call("aten.native_batch_norm_backward.default", {N(img), N(img), N(c), N(c), N(c), N(c), N(c),
                                                                     B(true), F(1e-5), Bools({true, false, false})})),
            "(f32[4, 32, 8, 8], None, None)");
}

TEST(BackwardTest, PointwiseSoftmaxEmbeddingBackwards) {
  GraphBuilder b;
  Node* grad = b.Input("grad", "f32[2, 4, 16, 16]");
  Node* x = b.Input("x", "f32[2, 4, 16, 16]");
  EXPECT_EQ(Shape(b.Call("aten.threshold_backward.default", {N(grad), N(x), I(0)})), "f32[2, 4, 16, 16]");
  EXPECT_EQ(Shape(b.Call("aten.gelu_backward.default", {N(grad), N(x)})), "f32[2, 4, 16, 16]");
  EXPECT_EQ(Shape(b.Call("aten.hardtanh_backward.default", {N(grad), N(x), F(0), F(6)})), "f32[2, 4, 16, 16]");
  EXPECT_EQ(
      Shape(b.Call("aten._softmax_backward_data.default", {N(grad), N(x), I(-1), Argument::OfDType(DType::kFloat16)})),
      "f16[2, 4, 16, 16]");
  Node* g = b.Input("g", "f32[4, 7, 64]");
  Node* ids = b.Input("ids", "i64[4, 7]");
  EXPECT_EQ(Shape(b.Call("aten.embedding_dense_backward.default", {N(g), N(ids), I(1000), I(-1), B(false)})),
            "f32[1000, 64]");
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

// ---------------------------------------------------------------- the ops aot records

// Pool.h pooling_output_shape_pad_lr: floor((8 + 2 - 3) / 2) + 1 = 4; ceil_mode
// rounds up unless the last window would start past the padded input.
TEST(AotOpsTest, PoolingShapes) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[1, 8, 8, 8]");
  EXPECT_EQ(Shape(b.Call("aten.max_pool2d_with_indices.default", {N(x), Ints({3, 3}), Ints({2, 2}), Ints({1, 1})})),
            "(f32[1, 8, 4, 4], i64[1, 8, 4, 4])");
  EXPECT_EQ(Shape(b.Call("aten.max_pool2d_with_indices.default", {N(x), Ints({2, 2})})),
            "(f32[1, 8, 4, 4], i64[1, 8, 4, 4])");
  EXPECT_EQ(Shape(b.Call("aten.avg_pool2d.default", {N(x), Ints({3, 3}), Ints({2, 2}), Ints({0, 0}), B(true)})),
            "f32[1, 8, 4, 4]");
  EXPECT_EQ(Shape(b.Call("aten._adaptive_avg_pool2d.default", {N(x), Ints({2, 3})})), "f32[1, 8, 2, 3]");
}

// What torch refuses (Pool.h pooling_output_shape, then pool2d_shape_check),
// in its words, rather than a division by zero or an int64 overflow.
TEST(AotOpsTest, PoolingRefusesWhatTorchRefuses) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[1, 8, 8, 8]");
  auto pool = [&](std::vector<int64_t> kernel, std::vector<int64_t> stride, std::vector<int64_t> pad) {
    return Shape(b.Call("aten.max_pool2d_with_indices.default", {N(x), Ints(kernel), Ints(stride), Ints(pad)}));
  };
  EXPECT_NE(pool({3, 3}, {0, 2}, {1, 1}).find("stride should not be zero"), std::string::npos);
  EXPECT_NE(pool({3, 3}, {2, 2}, {2, 1})
                .find("pad should be at most half of effective kernel size, but got pad=2, kernel_size=3 and "
                      "dilation=1"),
            std::string::npos);
  EXPECT_NE(pool({3, 3}, {2, 2}, {-1, 0}).find("pad must be non-negative, but got pad: -1"), std::string::npos);
  EXPECT_NE(pool({0, 3}, {2, 2}, {0, 0}).find("kernel size should be greater than zero, but got kH: 0 kW: 3"),
            std::string::npos);
  EXPECT_NE(pool({3, 3}, {-2, 2}, {0, 0}).find("stride should be greater than zero, but got dH: -2 dW: 2"),
            std::string::npos);
  int64_t huge = std::numeric_limits<int64_t>::max();
  EXPECT_NE(pool({huge, 3}, {2, 2}, {0, 0}).find("output size is too small"), std::string::npos);
}

// TorchAir's NPU meta: both statistics `input.new_zeros((0,))`; group norm's are [N, group].
TEST(AotOpsTest, NoTrainingBatchNormAndGroupNorm) {
  GraphBuilder b;
  Node* x = b.Input("x", "f16[2, 8, 4, 4]");
  Node* p = b.Attr("p", "f16[8]");
  EXPECT_EQ(Shape(b.Call("aten._native_batch_norm_legit_no_training.default",
                         {N(x), N(p), N(p), N(p), N(p), F(0.1), F(1e-5)})),
            "(f16[2, 8, 4, 4], f16[0], f16[0])");
  EXPECT_EQ(Shape(b.Call("aten.native_group_norm.default", {N(x), N(p), N(p), I(2), I(8), I(16), I(4), F(1e-5)})),
            "(f16[2, 8, 4, 4], f16[2, 4], f16[2, 4])");
  EXPECT_EQ(Shape(b.Call("aten.native_group_norm.default", {N(x), N(p), N(p), I(2), I(8), I(16), I(3), F(1e-5)})),
            "error: native_group_norm: 8 channels do not split into 3 groups");
}

// meta_index_Tensor: adjacent index tensors replace their dims in place, a
// bool mask stands for its nonzero() indices; in-place fills keep self.
TEST(AotOpsTest, IndexAndFills) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4, 5, 6]");
  Node* i = b.Input("i", "i64[2, 3]");
  Node* mask = b.Input("mask", "b8[4, 5]");
  Node* listed = b.Call("aten.index.Tensor", {N(x), Argument::List({Argument::None(), N(i)})});
  EXPECT_EQ(Shape(listed), "f32[4, 2, 3, 6]");
  Node* apart = b.Call("aten.index.Tensor", {N(x), Argument::List({N(i), Argument::None(), N(i)})});
  EXPECT_EQ(Shape(apart), "f32[2, 3, 5]");
  EXPECT_EQ(Shape(b.Call("aten.index.Tensor", {N(x), Argument::List({N(mask)})})), "f32[u0, 6]");
  EXPECT_EQ(Shape(b.Call("aten.zero.default", {N(x)})), "f32[4, 5, 6]");
  EXPECT_TRUE(R().Find("aten.fill_.Scalar")->inplace);
  EXPECT_TRUE(R().Find("aten.index_put_.default")->inplace);
}

// npu_all_to_all_single_npu_meta (hcom_alltoall.py:43-62): rows = sum(recv_counts) / row size.
TEST(AotOpsTest, CollectiveShapes) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4, 8]");
  EXPECT_EQ(Shape(b.Call("_c10d_functional.all_to_all_single.default",
                         {N(x), Ints({1, 5}), Ints({2, 2}), Argument::String("0")})),
            "f32[6, 8]");
  EXPECT_EQ(Shape(b.Call("npu_define.all_to_all_single_npu.default",
                         {N(x), Ints({16, 16}), Ints({0, 16}), Ints({8, 40}), Ints({0, 8}), Argument::String("ptd:0"),
                          Ints({0, 1}), I(2)})),
            "f32[6, 8]");
  EXPECT_EQ(Shape(b.Call("npu_define.allgather_in_tensor.default",
                         {N(x), N(x), Argument::String("ptd:0"), Ints({0, 1}), I(2)})),
            "f32[4, 8]");
}

}  // namespace
}  // namespace airscope

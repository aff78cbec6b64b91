// The GE operators TorchAir's converters build for one aten op
// (formats/ge_expansions.cc cites each converter file:line): types, names in
// creation order (GeGraph.next_unique_name), inputs, Const values and attrs.
#include "formats/ge_expansions.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/fx/readable.h"
#include "core/ops/shape_inference.h"
#include "formats/ge_ops.h"
#include "formats/pbtxt_reader.h"
#include "formats/pbtxt_writer.h"

namespace airscope {
namespace {

std::unique_ptr<Graph> Aten(const std::string& signature, const std::string& body) {
  std::string text = "class GraphModule(torch.nn.Module):\n    def forward(self, " + signature + "):\n" + body;
  auto graph = ParseReadable(text, "test.py");
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  if (!graph.ok()) return std::make_unique<Graph>();
  InferShapes(**graph, OpRegistry::Builtin());
  return std::move(*graph);
}

std::vector<GeOp> Ops(const Graph& graph) {
  auto ops = BuildGeOps(graph);
  EXPECT_TRUE(ops.ok()) << ops.status().message();
  return ops.ok() ? *ops : std::vector<GeOp>{};
}

// "Name:Type(inputs)" per operator that is not a Data or the NetOutput.
std::vector<std::string> Describe(const std::vector<GeOp>& ops) {
  std::vector<std::string> out;
  for (const GeOp& op : ops) {
    if (op.type == "Data" || op.type == "NetOutput") continue;
    std::string inputs;
    for (const std::string& in : op.inputs) inputs += (inputs.empty() ? "" : ", ") + (in.empty() ? "-" : in);
    out.push_back(op.name + ":" + op.type + "(" + inputs + ")");
  }
  return out;
}

const GeOp* Find(const std::vector<GeOp>& ops, const std::string& name) {
  for (const GeOp& op : ops) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

const GeAttr* Attr(const GeOp& op, const std::string& key) {
  for (const GeAttr& attr : op.attrs) {
    if (attr.key == key) return &attr;
  }
  return nullptr;
}

std::string Readable(const std::vector<GeOp>& ops, const std::string& name) {
  const GeOp* op = Find(ops, name);
  const GeAttr* attr = op ? Attr(*op, "_readable_value") : nullptr;
  return attr ? attr->s : "";
}

// addmm.py:42-78, f32: alpha and beta Consts (dtype_promote), MatMulV2 without
// bias, Mul by alpha ("fp32 dtype need to reserve this Mul"), Add of self.
TEST(GeExpansionsTest, AddmmF32IsMatMulV2MulAdd) {
  auto g = Aten("arg0_1: \"f32[4]\", arg1_1: \"f32[2, 3]\", arg2_1: \"f32[3, 4]\"",
                "        addmm = torch.ops.aten.addmm.default(arg0_1, arg1_1, arg2_1)\n        return (addmm,)\n");
  auto ops = Ops(*g);
  EXPECT_EQ(Describe(ops),
            (std::vector<std::string>{"Const:Const()", "Const_1:Const()", "MatMulV2:MatMulV2(arg1_1:0, arg2_1:0, -, -)",
                                      "Mul:Mul(MatMulV2:0, Const:0)", "Add:Add(Mul:0, arg0_1:0)"}));
  EXPECT_EQ(Readable(ops, "Const"), "1");
  const GeOp* matmul = Find(ops, "MatMulV2");
  ASSERT_NE(matmul, nullptr);
  EXPECT_EQ(matmul->input_desc[2].name, "bias");
  EXPECT_TRUE(matmul->input_desc[2].unfed_optional);
  EXPECT_EQ(Attr(*matmul, "offset_x")->i, 0);
  EXPECT_FALSE(Attr(*matmul, "transpose_x2")->b);
  // The parts point at the node's operator; the node's operator says what it was.
  EXPECT_EQ(Attr(*Find(ops, "Mul"), "_fx_part_of")->s, "Add");
  EXPECT_EQ(Attr(*Find(ops, "Add"), "_aten_op")->s, "torch.ops.aten.addmm.default");
}

// is_need_to_convert_bias: an fp16 rank-1 self goes into MatMulV2's bias;
// beta != 1 scales it by a Mul first.
TEST(GeExpansionsTest, AddmmF16BiasAndBeta) {
  auto g = Aten("arg0_1: \"f16[4]\", arg1_1: \"f16[2, 3]\", arg2_1: \"f16[3, 4]\"",
                "        addmm = torch.ops.aten.addmm.default(arg0_1, arg1_1, arg2_1, beta = 2)\n"
                "        return (addmm,)\n");
  EXPECT_EQ(Describe(Ops(*g)),
            (std::vector<std::string>{"Const:Const()", "Const_1:Const()", "Mul:Mul(arg0_1:0, Const_1:0)",
                                      "MatMulV2:MatMulV2(arg1_1:0, arg2_1:0, Mul:0, -)"}));
}

// get_addmm_output: beta other than 0 and 1 -> AxpyV2(mm, self, beta).
TEST(GeExpansionsTest, AddmmF32BetaIsAxpyV2) {
  auto g = Aten("arg0_1: \"f32[4]\", arg1_1: \"f32[2, 3]\", arg2_1: \"f32[3, 4]\"",
                "        addmm = torch.ops.aten.addmm.default(arg0_1, arg1_1, arg2_1, beta = 0.5, alpha = 2)\n"
                "        return (addmm,)\n");
  auto ops = Ops(*g);
  EXPECT_EQ(Describe(ops).back(), "AxpyV2:AxpyV2(Mul:0, arg0_1:0, Const_1:0)");
  EXPECT_EQ(Readable(ops, "Const"), "2");
  EXPECT_EQ(Readable(ops, "Const_1"), "0.5");
}

// view.py:11-21 (Reshape with an int64 Const of the sizes), t.py:10-20
// (Transpose by Const [1, 0]), permute.py:17-39, expand.py:12-29.
TEST(GeExpansionsTest, ShapeOpsTakeTheirListsAsInt64Consts) {
  auto g = Aten("arg0_1: \"f32[2, 3, 4]\"",
                "        view = torch.ops.aten.view.default(arg0_1, [6, 4])\n"
                "        t = torch.ops.aten.t.default(view)\n"
                "        permute = torch.ops.aten.permute.default(arg0_1, [2, 0, 1])\n"
                "        return (t, permute)\n");
  auto ops = Ops(*g);
  EXPECT_EQ(Describe(ops), (std::vector<std::string>{"Const:Const()", "Reshape:Reshape(arg0_1:0, Const:0)",
                                                     "Const_1:Const()", "Transpose:Transpose(Reshape:0, Const_1:0)",
                                                     "Const_2:Const()", "Transpose_1:Transpose(arg0_1:0, Const_2:0)"}));
  EXPECT_EQ(Readable(ops, "Const"), "[6, 4]");
  EXPECT_EQ(Readable(ops, "Const_1"), "[1, 0]");
  EXPECT_EQ(Readable(ops, "Const_2"), "[2, 0, 1]");
  const GeAttr* value = Attr(*Find(ops, "Const"), "value");
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(value->tensor_desc.dtype, DType::kInt64);
  EXPECT_EQ(value->tensor_desc.dims, (std::vector<int64_t>{2}));
  EXPECT_EQ(value->s, std::string("\x06\0\0\0\0\0\0\0\x04\0\0\0\0\0\0\0", 16));
  EXPECT_EQ(Attr(*Find(ops, "Reshape"), "num_axes")->i, -1);
}

// permute.py:35-37: when only size-1 dims move, Squeeze then Unsqueeze at the output's 1s.
TEST(GeExpansionsTest, PermuteOfSizeOneDimsIsSqueezeUnsqueeze) {
  auto g = Aten("arg0_1: \"f32[1, 4]\"",
                "        permute = torch.ops.aten.permute.default(arg0_1, [1, 0])\n        return (permute,)\n");
  auto ops = Ops(*g);
  EXPECT_EQ(Describe(ops), (std::vector<std::string>{"Squeeze:Squeeze(arg0_1:0)", "Unsqueeze:Unsqueeze(Squeeze:0)"}));
  EXPECT_EQ(Attr(*Find(ops, "Unsqueeze"), "axes")->list_i, (std::vector<int64_t>{1}));
}

TEST(GeExpansionsTest, SoftmaxGeluAndReductions) {
  auto g = Aten("arg0_1: \"f32[2, 8]\"",
                "        _softmax = torch.ops.aten._softmax.default(arg0_1, -1, False)\n"
                "        gelu = torch.ops.aten.gelu.default(_softmax, approximate = 'tanh')\n"
                "        sum_1 = torch.ops.aten.sum.dim_IntList(gelu, [1], True)\n"
                "        mean = torch.ops.aten.mean.dim(gelu, [-1])\n"
                "        return (sum_1, mean)\n");
  auto ops = Ops(*g);
  EXPECT_EQ(Describe(ops), (std::vector<std::string>{"SoftmaxV2:SoftmaxV2(arg0_1:0)", "Gelu:Gelu(SoftmaxV2:0)",
                                                     "Const:Const()", "ReduceSum:ReduceSum(Gelu:0, Const:0)",
                                                     "Const_1:Const()", "ReduceMean:ReduceMean(Gelu:0, Const_1:0)"}));
  EXPECT_EQ(Attr(*Find(ops, "SoftmaxV2"), "axes")->list_i, (std::vector<int64_t>{-1}));
  EXPECT_FALSE(Attr(*Find(ops, "SoftmaxV2"), "half_to_float")->b);
  EXPECT_TRUE(Attr(*Find(ops, "ReduceSum"), "keep_dims")->b);
  EXPECT_FALSE(Attr(*Find(ops, "ReduceMean"), "keep_dims")->b);
  EXPECT_TRUE(Attr(*Find(ops, "ReduceMean"), "noop_with_empty_axes")->b);
  EXPECT_EQ(Readable(ops, "Const_1"), "[-1]");
}

// cat.py:11-17 (ConcatV2, inputs x0.., concat_dim an int64 Const, N),
// split_with_sizes.py:8-21 (SplitV, the dim an int32 Const), embedding.py:4-23 (GatherV2 axis [0]).
TEST(GeExpansionsTest, CatSplitAndEmbedding) {
  auto g = Aten("arg0_1: \"f32[2, 4]\", arg1_1: \"f32[3, 4]\", arg2_1: \"i64[5]\"",
                "        cat = torch.ops.aten.cat.default([arg0_1, arg1_1])\n"
                "        split_with_sizes = torch.ops.aten.split_with_sizes.default(cat, [1, 4])\n"
                "        getitem = split_with_sizes[0]\n"
                "        embedding = torch.ops.aten.embedding.default(cat, arg2_1)\n"
                "        return (getitem, embedding)\n");
  auto ops = Ops(*g);
  EXPECT_EQ(Describe(ops), (std::vector<std::string>{
                               "Const:Const()", "ConcatV2:ConcatV2(arg0_1:0, arg1_1:0, Const:0)", "Const_1:Const()",
                               "Const_2:Const()", "SplitV:SplitV(ConcatV2:0, Const_1:0, Const_2:0)", "Const_3:Const()",
                               "GatherV2:GatherV2(ConcatV2:0, arg2_1:0, Const_3:0)"}));
  const GeOp* concat = Find(ops, "ConcatV2");
  EXPECT_EQ(concat->input_desc[1].name, "x1");
  EXPECT_EQ(concat->input_desc[2].name, "concat_dim");
  EXPECT_EQ(Attr(*concat, "N")->i, 2);
  EXPECT_EQ(Attr(*Find(ops, "Const_2"), "value")->tensor_desc.dtype, DType::kInt32);
  EXPECT_EQ(Attr(*Find(ops, "SplitV"), "num_split")->i, 2);
  EXPECT_EQ(Find(ops, "SplitV")->output_desc.size(), 2u);
  EXPECT_EQ(Readable(ops, "Const_3"), "[0]");
}

// convolution.py:182-231 / _npu_conv2d: Conv2D with NCHW strides/pads/dilations
// (ListInt attrs typed VT_LIST_INT) and its layout attrs; a 1-D convolution
// goes through Unsqueeze at dim 2 and back.
TEST(GeExpansionsTest, ConvolutionIsConv2D) {
  auto g = Aten("arg0_1: \"f32[1, 3, 8, 8]\", arg1_1: \"f32[4, 3, 3, 3]\", arg2_1: \"f32[4]\"",
                "        convolution = torch.ops.aten.convolution.default(arg0_1, arg1_1, arg2_1, [2, 2], [1, 1], "
                "[1, 1], False, [0, 0], 1)\n        return (convolution,)\n");
  auto ops = Ops(*g);
  EXPECT_EQ(Describe(ops), (std::vector<std::string>{"Conv2D:Conv2D(arg0_1:0, arg1_1:0, arg2_1:0, -)"}));
  const GeOp& conv = *Find(ops, "Conv2D");
  EXPECT_EQ(Attr(conv, "strides")->list_i, (std::vector<int64_t>{1, 1, 2, 2}));
  EXPECT_EQ(Attr(conv, "strides")->list_val_type, "VT_LIST_INT");
  EXPECT_EQ(Attr(conv, "pads")->list_i, (std::vector<int64_t>{1, 1, 1, 1}));
  EXPECT_EQ(Attr(conv, "data_format")->s, "NCHW");
  EXPECT_EQ(Attr(conv, "input_layout_info")->list_i, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(Attr(conv, "input_layout_info")->list_s, (std::vector<std::string>{"NCHW", "NCHW", "NCHW"}));
  auto g1 = Aten("arg0_1: \"f32[1, 3, 8]\", arg1_1: \"f32[4, 3, 3]\"",
                 "        convolution = torch.ops.aten.convolution.default(arg0_1, arg1_1, None, [1], [0], [1], "
                 "False, [0], 1)\n        return (convolution,)\n");
  auto ops1 = Ops(*g1);
  EXPECT_EQ(Describe(ops1),
            (std::vector<std::string>{"Unsqueeze:Unsqueeze(arg0_1:0)", "Unsqueeze_1:Unsqueeze(arg1_1:0)",
                                      "Conv2D:Conv2D(Unsqueeze:0, Unsqueeze_1:0, -, -)", "Squeeze:Squeeze(Conv2D:0)"}));
  EXPECT_EQ(Attr(*Find(ops1, "Conv2D"), "pads")->list_i, (std::vector<int64_t>{0, 0, 0, 0}));
}

// native_layer_norm.py: LayerNormV4(x, Const(shape, int64), gamma, beta, epsilon);
// a None weight is Fill(Const(shape, int32), Const(1.0)).
TEST(GeExpansionsTest, LayerNormIsLayerNormV4) {
  auto g =
      Aten("arg0_1: \"f32[2, 8]\", arg1_1: \"f32[8]\"",
           "        native_layer_norm = torch.ops.aten.native_layer_norm.default(arg0_1, [8], None, arg1_1, 1e-05)\n"
           "        getitem = native_layer_norm[0]\n        return (getitem,)\n");
  auto ops = Ops(*g);
  EXPECT_EQ(Describe(ops), (std::vector<std::string>{
                               "Const:Const()", "Const_1:Const()", "Fill:Fill(Const:0, Const_1:0)", "Const_2:Const()",
                               "LayerNormV4:LayerNormV4(arg0_1:0, Const_2:0, Fill:0, arg1_1:0)"}));
  const GeOp& norm = *Find(ops, "LayerNormV4");
  EXPECT_FLOAT_EQ(Attr(norm, "epsilon")->f, 1e-05f);
  EXPECT_EQ(norm.output_desc.size(), 3u);
  EXPECT_EQ(norm.output_desc[2].name, "rstd");
  EXPECT_EQ(Attr(*Find(ops, "Const"), "value")->tensor_desc.dtype, DType::kInt32);
  EXPECT_EQ(Readable(ops, "Const_1"), "1.0");
  EXPECT_EQ(Attr(*Find(ops, "Const_2"), "value")->tensor_desc.dtype, DType::kInt64);
}

// The pbtxt reader rebuilds the FX graph from the node's operator (`_fx_args`,
// `_aten_op`) and skips its parts.
TEST(GeExpansionsTest, PbtxtRoundTripSkipsTheParts) {
  auto g = Aten("arg0_1: \"f32[4]\", arg1_1: \"f32[2, 3]\", arg2_1: \"f32[3, 4]\"",
                "        addmm = torch.ops.aten.addmm.default(arg0_1, arg1_1, arg2_1)\n"
                "        view = torch.ops.aten.view.default(addmm, [8])\n        return (view,)\n");
  auto text = GraphToPbtxt(*g);
  ASSERT_TRUE(text.ok()) << text.status().message();
  auto back = ParsePbtxt(*text, "test.pbtxt");
  ASSERT_TRUE(back.ok()) << back.status().message();
  std::vector<std::string> targets;
  for (const Node* node : **back) {
    if (node->op() == OpKind::kCallFunction) targets.push_back(node->target());
  }
  EXPECT_EQ(targets, (std::vector<std::string>{"torch.ops.aten.addmm.default", "torch.ops.aten.view.default"}));
}

}  // namespace
}  // namespace airscope

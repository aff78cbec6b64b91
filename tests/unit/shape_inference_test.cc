#include "core/ops/shape_inference.h"

#include <gtest/gtest.h>

#include "tests/unit/op_test_util.h"
#include "core/file_util.h"
#include "core/fx/readable.h"

namespace airscope {
namespace {

using testing::Annotated;
using testing::B;
using testing::F;
using testing::GraphBuilder;
using testing::I;
using testing::Ints;
using testing::N;
using testing::None;
using testing::R;

// Remembers every call_function annotation, strips it, re-infers, and
// checks each inferred tensor equals the annotation torch printed.
void ExpectReinferredEqualsAnnotations(Graph& graph) {
  std::vector<std::pair<Node*, NodeMeta>> expected;
  for (Node* node : graph) {
    if (node->op() == OpKind::kCallFunction && node->meta()) {
      expected.emplace_back(node, *node->meta());
      node->clear_meta();
    }
  }
  ASSERT_FALSE(expected.empty());
  InferenceReport report = InferShapes(graph, R());
  EXPECT_EQ(report.unknown_ops, 0u);
  EXPECT_EQ(report.failed, 0u) << (report.errors.empty() ? "" : report.errors[0]);
  EXPECT_TRUE(report.warnings.empty());
  for (auto& [node, want] : expected) {
    ASSERT_NE(node->meta(), nullptr) << node->name();
    EXPECT_EQ(node->meta()->source, MetaSource::kInferred) << node->name();
    ASSERT_NE(node->meta()->tensor(), nullptr) << node->name();
    EXPECT_EQ(node->meta()->tensor()->ShapeString(), want.tensor()->ShapeString()) << node->name();
  }
}

// tests/data/mlp.readable.py, node by node.
TEST(ShapeInferenceTest, MlpSampleReproduced) {
  GraphBuilder b;
  Node* arg0_1 = b.Input("arg0_1", "f32[8, 64]");
  Node* c0 = b.Attr("_param_constant0", "f32[256, 64]");
  Node* t = b.Call("aten.t.default", {N(c0)}, {}, "t");
  t->set_meta(Annotated("f32[64, 256]"));
  Node* c1 = b.Attr("_param_constant1", "f32[256]");
  Node* addmm = b.Call("aten.addmm.default", {N(c1), N(arg0_1), N(t)}, {}, "addmm");
  addmm->set_meta(Annotated("f32[8, 256]"));
  Node* gelu = b.Call("aten.gelu.default", {N(addmm)}, {}, "gelu");
  gelu->set_meta(Annotated("f32[8, 256]"));
  Node* c2 = b.Attr("_param_constant2", "f32[64, 256]");
  Node* t_1 = b.Call("aten.t.default", {N(c2)}, {}, "t_1");
  t_1->set_meta(Annotated("f32[256, 64]"));
  Node* c3 = b.Attr("_param_constant3", "f32[64]");
  Node* addmm_1 = b.Call("aten.addmm.default", {N(c3), N(gelu), N(t_1)}, {}, "addmm_1");
  addmm_1->set_meta(Annotated("f32[8, 64]"));
  Node* c4 = b.Attr("_param_constant4", "f32[64]");
  Node* c5 = b.Attr("_param_constant5", "f32[64]");
  Node* ln = b.Call("aten.native_layer_norm.default", {N(addmm_1), Ints({64}), N(c4), N(c5), F(1e-05)}, {},
                    "native_layer_norm");
  Node* getitem = b.Call("operator.getitem", {N(ln), I(0)}, {}, "getitem");
  getitem->set_meta(Annotated("f32[8, 64]"));
  b.Output({N(getitem)});
  ASSERT_TRUE(b.graph.Lint().ok());
  ExpectReinferredEqualsAnnotations(b.graph);
  EXPECT_EQ(ln->meta()->kind, ValueKind::kTuple);

  size_t unknown = 99;
  OpCost total = TotalCost(b.graph, R(), &unknown);
  EXPECT_EQ(unknown, 0u);
  double addmms = (2.0 * 8 * 256 * 64 + 8 * 256) + (2.0 * 8 * 64 * 256 + 8 * 64);
  double gelu_flops = 8.0 * 8 * 256;
  double layer_norm_flops = 5.0 * 8 * 64;
  EXPECT_EQ(total.flops, addmms + gelu_flops + layer_norm_flops);
}

// The first nodes of tests/data/gpt_block2.readable.py (through the first
// attention softmax and the value bmm).
TEST(ShapeInferenceTest, GptBlockSamplePrefixReproduced) {
  GraphBuilder b;
  auto call = [&](const char* target, std::vector<Argument> args, const char* name, const char* ann,
                  std::vector<Kwarg> kwargs = {}) {
    Node* n = b.Call(target, std::move(args), std::move(kwargs), name);
    if (*ann) n->set_meta(Annotated(ann));
    return n;
  };
  Node* arg0_1 = b.Input("arg0_1", "f32[2, 16, 128]");
  Node* c0 = b.Attr("_param_constant0", "f32[128]");
  Node* c1 = b.Attr("_param_constant1", "f32[128]");
  Node* ln =
      call("aten.native_layer_norm.default", {N(arg0_1), Ints({128}), N(c0), N(c1), F(1e-05)}, "native_layer_norm", "");
  Node* getitem = call("operator.getitem", {N(ln), I(0)}, "getitem", "f32[2, 16, 128]");
  Node* c2 = b.Attr("_param_constant2", "f32[384, 128]");
  Node* t = call("aten.t.default", {N(c2)}, "t", "f32[128, 384]");
  Node* view = call("aten.view.default", {N(getitem), Ints({32, 128})}, "view", "f32[32, 128]");
  Node* c3 = b.Attr("_param_constant3", "f32[384]");
  Node* addmm = call("aten.addmm.default", {N(c3), N(view), N(t)}, "addmm", "f32[32, 384]");
  Node* view_1 = call("aten.view.default", {N(addmm), Ints({2, 16, 384})}, "view_1", "f32[2, 16, 384]");
  Node* split = call("aten.split.Tensor", {N(view_1), I(128), I(2)}, "split", "");
  Node* getitem_3 = call("operator.getitem", {N(split), I(0)}, "getitem_3", "f32[2, 16, 128]");
  Node* getitem_4 = call("operator.getitem", {N(split), I(1)}, "getitem_4", "f32[2, 16, 128]");
  Node* getitem_5 = call("operator.getitem", {N(split), I(2)}, "getitem_5", "f32[2, 16, 128]");
  Node* view_2 = call("aten.view.default", {N(getitem_3), Ints({2, 16, 4, 32})}, "view_2", "f32[2, 16, 4, 32]");
  Node* transpose = call("aten.transpose.int", {N(view_2), I(1), I(2)}, "transpose", "f32[2, 4, 16, 32]");
  Node* view_3 = call("aten.view.default", {N(getitem_4), Ints({2, 16, 4, 32})}, "view_3", "f32[2, 16, 4, 32]");
  Node* transpose_1 = call("aten.transpose.int", {N(view_3), I(1), I(2)}, "transpose_1", "f32[2, 4, 16, 32]");
  Node* view_4 = call("aten.view.default", {N(getitem_5), Ints({2, 16, 4, 32})}, "view_4", "f32[2, 16, 4, 32]");
  Node* transpose_2 = call("aten.transpose.int", {N(view_4), I(1), I(2)}, "transpose_2", "f32[2, 4, 16, 32]");
  Node* transpose_3 = call("aten.transpose.int", {N(transpose_1), I(-2), I(-1)}, "transpose_3", "f32[2, 4, 32, 16]");
  Argument contiguous = Argument::OfMemoryFormat(MemoryFormat::kContiguous);
  Node* expand = call("aten.expand.default", {N(transpose), Ints({2, 4, 16, 32})}, "expand", "f32[2, 4, 16, 32]");
  Node* clone = call("aten.clone.default", {N(expand)}, "clone", "f32[2, 4, 16, 32]", {{"memory_format", contiguous}});
  Node* uv = call("aten._unsafe_view.default", {N(clone), Ints({8, 16, 32})}, "_unsafe_view", "f32[8, 16, 32]");
  Node* expand_1 = call("aten.expand.default", {N(transpose_3), Ints({2, 4, 32, 16})}, "expand_1", "f32[2, 4, 32, 16]");
  Node* clone_1 =
      call("aten.clone.default", {N(expand_1)}, "clone_1", "f32[2, 4, 32, 16]", {{"memory_format", contiguous}});
  Node* uv_1 = call("aten._unsafe_view.default", {N(clone_1), Ints({8, 32, 16})}, "_unsafe_view_1", "f32[8, 32, 16]");
  Node* bmm = call("aten.bmm.default", {N(uv), N(uv_1)}, "bmm", "f32[8, 16, 16]");
  Node* uv_2 = call("aten._unsafe_view.default", {N(bmm), Ints({2, 4, 16, 16})}, "_unsafe_view_2", "f32[2, 4, 16, 16]");
  Node* mul = call("aten.mul.Tensor", {N(uv_2), F(0.17677669529663687)}, "mul", "f32[2, 4, 16, 16]");
  Node* ones = call("aten.ones.default", {Ints({16, 16})}, "ones", "f32[16, 16]",
                    {{"device", Argument::OfDevice(Device{"cpu", -1})}, {"pin_memory", B(false)}});
  Node* tril = call("aten.tril.default", {N(ones)}, "tril", "f32[16, 16]");
  Node* eq = call("aten.eq.Scalar", {N(tril), I(0)}, "eq", "b8[16, 16]");
  Node* masked_fill =
      call("aten.masked_fill.Scalar", {N(mul), N(eq), F(-INFINITY)}, "masked_fill", "f32[2, 4, 16, 16]");
  Node* softmax = call("aten._softmax.default", {N(masked_fill), I(-1), B(false)}, "_softmax", "f32[2, 4, 16, 16]");
  Node* expand_2 = call("aten.expand.default", {N(softmax), Ints({2, 4, 16, 16})}, "expand_2", "f32[2, 4, 16, 16]");
  Node* alias = call("aten._reshape_alias.default", {N(expand_2), Ints({8, 16, 16}), Ints({256, 16, 1})},
                     "_reshape_alias", "f32[8, 16, 16]");
  Node* expand_3 = call("aten.expand.default", {N(transpose_2), Ints({2, 4, 16, 32})}, "expand_3", "f32[2, 4, 16, 32]");
  Node* clone_2 =
      call("aten.clone.default", {N(expand_3)}, "clone_2", "f32[2, 4, 16, 32]", {{"memory_format", contiguous}});
  Node* uv_3 = call("aten._unsafe_view.default", {N(clone_2), Ints({8, 16, 32})}, "_unsafe_view_3", "f32[8, 16, 32]");
  Node* bmm_1 = call("aten.bmm.default", {N(alias), N(uv_3)}, "bmm_1", "f32[8, 16, 32]");
  b.Output({N(bmm_1)});
  ASSERT_TRUE(b.graph.Lint().ok()) << b.graph.Lint().message();
  ExpectReinferredEqualsAnnotations(b.graph);
}

// Views keep the input's layout and say so with strides, as torch reports
// them (x.permute(0, 2, 1, 3).stride() and the like; the rules are those of
// aten/src/ATen/native/TensorShape.cpp and TensorUtils.cpp computeStride,
// cited in core/ops/ops_views.cc); a contiguous result states none. permute
// used to claim contiguous strides (issue 12, item 10).
TEST(ShapeInferenceTest, ViewStridesAreTorchs) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 128, 8, 64]");
  Node* m = b.Input("m", "f32[4, 6]");
  auto strides_of = [&](const char* target, std::vector<Argument> args) -> std::string {
    Node* n = b.Call(target, std::move(args), {});
    InferenceReport report = InferShapes(b.graph, R());
    if (!n->meta() || !n->meta()->tensor()) return report.errors.empty() ? "no meta" : report.errors.back();
    return n->meta()->tensor()->ToAnnotation();
  };
  EXPECT_EQ(strides_of("aten.permute.default", {N(x), Ints({0, 2, 1, 3})}), "f32[2, 8, 128, 64][65536, 64, 512, 1]");
  EXPECT_EQ(strides_of("aten.transpose.int", {N(x), I(1), I(2)}), "f32[2, 8, 128, 64][65536, 64, 512, 1]");
  EXPECT_EQ(strides_of("aten.t.default", {N(m)}), "f32[6, 4][1, 6]");
  EXPECT_EQ(strides_of("aten.permute.default", {N(x), Ints({0, 1, 2, 3})}), "f32[2, 128, 8, 64]");  // contiguous
  EXPECT_EQ(strides_of("aten.expand.default", {N(m), Ints({3, 4, 6})}), "f32[3, 4, 6][0, 6, 1]");
  EXPECT_EQ(strides_of("aten.slice.Tensor", {N(m), I(1), I(0), I(6), I(2)}), "f32[4, 3][6, 2]");
  EXPECT_EQ(strides_of("aten.select.int", {N(m), I(1), I(0)}), "f32[4][6]");
  EXPECT_EQ(strides_of("aten.select.int", {N(m), I(0), I(0)}), "f32[6]");
  // Through a transpose: unsqueeze, squeeze and view follow the layout.
  Node* t = b.Call("aten.t.default", {N(m)}, {});  // f32[6, 4][1, 6]
  EXPECT_EQ(strides_of("aten.unsqueeze.default", {N(t), I(0)}), "f32[1, 6, 4][6, 1, 6]");
  EXPECT_EQ(strides_of("aten.unsqueeze.default", {N(t), I(2)}), "f32[6, 4, 1][1, 6, 1]");
  EXPECT_EQ(strides_of("aten.view.default", {N(t), Ints({6, 2, 2})}), "f32[6, 2, 2][1, 12, 6]");
  // torch: "view size is not compatible with input tensor's size and stride"; reshape copies instead.
  EXPECT_NE(strides_of("aten.view.default", {N(t), Ints({24})}).find("use .reshape(...)"), std::string::npos);
  EXPECT_EQ(strides_of("aten.reshape.default", {N(t), Ints({24})}), "f32[24]");
  // as_strided, _reshape_alias and empty_strided are given their strides: they are the result's.
  EXPECT_EQ(strides_of("aten.as_strided.default", {N(m), Ints({6, 4}), Ints({1, 6})}), "f32[6, 4][1, 6]");
  EXPECT_EQ(strides_of("aten._reshape_alias.default", {N(m), Ints({2, 12}), Ints({12, 1})}), "f32[2, 12]");
  EXPECT_EQ(strides_of("aten.empty_strided.default", {Ints({3, 2}), Ints({1, 3})}), "f32[3, 2][1, 3]");
  EXPECT_NE(strides_of("aten.as_strided.default", {N(m), Ints({6, 4}), Ints({1})})
                .find("mismatch in length of strides and shape (1 strides for size [6, 4])"),
            std::string::npos);
  EXPECT_NE(strides_of("aten._reshape_alias.default", {N(m), Ints({5, 5}), Ints({5, 1})})
                .find("shape '[5, 5]' is invalid for input of size 24"),
            std::string::npos);
  EXPECT_NE(strides_of("aten.as_strided.default", {N(m), Ints({6, -1}), Ints({1, 6})}).find("negative size -1"),
            std::string::npos);
}

// A MobileNetV2 inverted-residual head: conv + batch norm + hardtanh_, then
// a depthwise (groups=32) conv + batch norm + hardtanh_, then a 1x1 projection.
TEST(ShapeInferenceTest, MobilenetDepthwiseBlock) {
  GraphBuilder b;
  Node* x = b.Input("arg0_1", "f32[1, 3, 224, 224]");
  auto conv_bn = [&](Node* in, const std::string& w_ann, int64_t channels, std::vector<int64_t> stride,
                     std::vector<int64_t> padding, int64_t groups, bool relu6) {
    Node* w = b.Attr(b.graph.UniqueName("_param_constant"), w_ann);
    Node* conv = b.Call("aten.convolution.default", {N(in), N(w), None(), Ints(stride), Ints(padding), Ints({1, 1}),
                                                     B(false), Ints({0, 0}), I(groups)});
    std::string c = fmt::format("f32[{}]", channels);
    Node* scale = b.Attr(b.graph.UniqueName("_param_constant"), c);
    Node* shift = b.Attr(b.graph.UniqueName("_param_constant"), c);
    Node* mean = b.Attr(b.graph.UniqueName("_tensor_constant"), c);
    Node* var = b.Attr(b.graph.UniqueName("_tensor_constant"), c);
    Node* bn = b.Call("aten.native_batch_norm.default",
                      {N(conv), N(scale), N(shift), N(mean), N(var), B(false), F(0.1), F(1e-05)});
    Node* out = b.Call("operator.getitem", {N(bn), I(0)});
    if (relu6) out = b.Call("aten.hardtanh_.default", {N(out), F(0.0), F(6.0)});
    return std::pair{conv, out};
  };
  auto [conv0, a0] = conv_bn(x, "f32[32, 3, 3, 3]", 32, {2, 2}, {1, 1}, 1, true);
  auto [conv1, a1] = conv_bn(a0, "f32[32, 1, 3, 3]", 32, {1, 1}, {1, 1}, 32, true);
  auto [conv2, a2] = conv_bn(a1, "f32[16, 32, 1, 1]", 16, {1, 1}, {0, 0}, 1, false);
  b.Output({N(a2)});
  ASSERT_TRUE(b.graph.Lint().ok()) << b.graph.Lint().message();

  InferenceReport report = InferShapes(b.graph, R());
  EXPECT_EQ(report.failed, 0u) << (report.errors.empty() ? "" : report.errors[0]);
  EXPECT_EQ(report.inferred, 11u);  // 3 x (conv, bn, getitem) + 2 hardtanh_
  EXPECT_EQ(conv0->meta()->tensor()->ShapeString(), "f32[1, 32, 112, 112]");
  EXPECT_EQ(a0->meta()->tensor()->ShapeString(), "f32[1, 32, 112, 112]");
  EXPECT_EQ(conv1->meta()->tensor()->ShapeString(), "f32[1, 32, 112, 112]");
  EXPECT_EQ(a1->meta()->tensor()->ShapeString(), "f32[1, 32, 112, 112]");
  EXPECT_EQ(conv2->meta()->tensor()->ShapeString(), "f32[1, 16, 112, 112]");
  EXPECT_EQ(a2->meta()->tensor()->ShapeString(), "f32[1, 16, 112, 112]");
  EXPECT_EQ(R().Find(a1->target())->inplace, true);

  size_t unknown = 99;
  OpCost total = TotalCost(b.graph, R(), &unknown);
  EXPECT_EQ(unknown, 0u);
  double convs = 2.0 * 32 * 112 * 112 * 27 + 2.0 * 32 * 112 * 112 * 9 + 2.0 * 16 * 112 * 112 * 32;
  double norms = 4.0 * (32 + 32 + 16) * 112 * 112;
  double clamps = 2.0 * 32 * 112 * 112;
  EXPECT_EQ(total.flops, convs + norms + clamps);
}

TEST(ShapeInferenceTest, ReportCountsAndMessages) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 3]");
  Node* unannotated = b.Input("y");
  Node* attr = b.Attr("w");
  Node* mm = b.Call("aten.mm.default", {N(x), N(unannotated)});  // fails: y has no shape
  Node* relu = b.Call("aten.relu.default", {N(mm)});             // fails: mm has no shape
  Node* weird = b.Call("aten.some_new_op.default", {N(x)});      // unknown op
  Node* wrong = b.Call("aten.t.default", {N(x)});                // annotated, but wrongly
  wrong->set_meta(Annotated("f32[2, 3]"));
  Node* right = b.Call("aten.neg.default", {N(x)});  // annotated correctly
  right->set_meta(Annotated("f32[2, 3]"));
  Node* good = b.Call("aten.add.Tensor", {N(x), I(1)});
  NodeSpec method;
  method.op = OpKind::kCallMethod;
  method.target = "contiguous";
  method.args = {N(x)};
  Node* contiguous = b.graph.Append(method);  // call_method: no rules
  b.Output({N(relu), N(weird), N(wrong), N(right), N(good), N(attr), N(contiguous)});

  InferenceReport report = InferShapes(b.graph, R());
  EXPECT_EQ(report.annotated, 3u);    // x, wrong, right
  EXPECT_EQ(report.inferred, 1u);     // good
  EXPECT_EQ(report.unknown_ops, 2u);  // some_new_op, contiguous
  EXPECT_EQ(report.failed, 2u);
  ASSERT_EQ(report.errors.size(), 2u);
  EXPECT_EQ(report.errors[0], "node 'mm': mm: input 'y' has no shape");
  EXPECT_EQ(report.errors[1], "node 'relu': relu: input 'mm' has no shape");
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_EQ(report.warnings[0], "node 't': annotation f32[2, 3] but inferred f32[3, 2]");
  EXPECT_EQ(report.disagreements, 1u);
  // The same answer for one node, later (`node t` prints it).
  EXPECT_EQ(AnnotationDisagreement(*wrong, R()), "annotation f32[2, 3] but inferred f32[3, 2]");
  EXPECT_EQ(AnnotationDisagreement(*right, R()), "");
  EXPECT_EQ(AnnotationDisagreement(*good, R()), "");  // inferred, not annotated
  EXPECT_EQ(AnnotationDisagreement(*mm, R()), "");    // no annotation, an input without a shape
  EXPECT_EQ(unannotated->meta(), nullptr);
  EXPECT_EQ(attr->meta(), nullptr);
  EXPECT_EQ(weird->meta(), nullptr);
  EXPECT_EQ(wrong->meta()->tensor()->ShapeString(), "f32[2, 3]");  // never overwritten
  EXPECT_EQ(wrong->meta()->source, MetaSource::kAnnotated);
  EXPECT_EQ(good->meta()->source, MetaSource::kInferred);
  EXPECT_EQ(b.graph.output()->meta(), nullptr);

  size_t unknown = 0;
  TotalCost(b.graph, R(), &unknown);
  EXPECT_EQ(unknown, 4u);  // mm, relu (no shapes), some_new_op, contiguous (no rule)
}

// Every disagreement is counted; the first 20 are messages (load prints the
// rest as a count).
TEST(ShapeInferenceTest, DisagreementsPastTheMessagesAreCounted) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 3]");
  std::vector<Argument> outputs;
  for (int i = 0; i < 25; ++i) {
    Node* neg = b.Call("aten.neg.default", {N(x)});
    neg->set_meta(Annotated("f32[3, 3]"));
    outputs.push_back(N(neg));
  }
  b.Output(outputs);
  InferenceReport report = InferShapes(b.graph, R());
  EXPECT_EQ(report.disagreements, 25u);
  EXPECT_EQ(report.warnings.size(), 20u);
}

// Inputs an op refuses are a contradiction whether or not the node is
// annotated: a refusal (static inputs) is listed, an annotated node's with a
// warning naming it; a failure on an unknown shape is not a refusal.
TEST(ShapeInferenceTest, RefusedInputsAreNamedNeverKeptQuietly) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 7]");
  Node* y = b.Input("y", "f32[3, 4]");
  Node* s = b.Input("s", "f32[s0, 3]");
  Node* annotated = b.Call("aten.mm.default", {N(x), N(y)});
  annotated->set_meta(Annotated("f32[2, 4]"));
  Node* plain = b.Call("aten.mm.default", {N(x), N(y)});
  Node* symbolic = b.Call("aten.view.default", {N(s), Ints({5, 5})});
  b.Output({N(annotated), N(plain), N(symbolic)});
  InferenceReport report = InferShapes(b.graph, R());
  ASSERT_EQ(report.refused.size(), 2u);
  EXPECT_EQ(report.refused[0].node, annotated->name());
  EXPECT_EQ(report.refused[1].node, plain->name());
  EXPECT_EQ(report.refused[1].message, "mm: inner dims 7 and 3 differ");
  ASSERT_EQ(report.warnings.size(), 1u);
  EXPECT_EQ(report.warnings[0],
            "node '" + annotated->name() +
                "': annotation f32[2, 4] but the op refuses its inputs: mm: inner dims 7 and 3 differ");
  EXPECT_EQ(annotated->meta()->tensor()->ShapeString(), "f32[2, 4]");  // still never overwritten
}

TEST(ShapeInferenceTest, WarningsAreCapped) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 3]");
  for (int i = 0; i < 30; ++i) {
    Node* n = b.Call("aten.neg.default", {N(x)});
    n->set_meta(Annotated("f16[2, 3]"));
  }
  InferenceReport report = InferShapes(b.graph, R());
  EXPECT_EQ(report.warnings.size(), 20u);
  EXPECT_EQ(report.annotated, 31u);
}

TEST(ShapeInferenceTest, StreamOpsGetOpaqueMeta) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* enter = b.Call("air.scope_enter.default", {Argument::List({Argument::String("s1")})});
  Node* neg = b.Call("aten.neg.default", {N(x)});
  Node* exit = b.Call("air.scope_exit.default", {});
  b.Output({N(neg)});
  InferenceReport report = InferShapes(b.graph, R());
  EXPECT_EQ(report.failed, 0u);
  EXPECT_EQ(enter->meta()->kind, ValueKind::kOpaque);
  EXPECT_EQ(exit->meta()->kind, ValueKind::kOpaque);
  EXPECT_EQ(neg->meta()->tensor()->ShapeString(), "f32[4]");
}

// Every annotated node of every sample, re-inferred from its placeholders
// and get_attrs alone: strip call_function meta, infer, compare with the
// annotation torch printed.
class SampleTest : public ::testing::TestWithParam<const char*> {};

TEST_P(SampleTest, ReinferredShapesEqualAnnotations) {
  std::string path = std::string(AIRSCOPE_TEST_DATA) + "/" + GetParam() + ".readable.py";
  auto text = ReadFile(path);
  ASSERT_TRUE(text.ok()) << text.status().message();
  auto graph = ParseReadable(*text, path);
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  std::vector<std::pair<std::string, TensorMeta>> annotated;  // name, annotation
  for (Node* node : **graph) {
    if (node->op() != OpKind::kCallFunction) continue;
    if (node->meta() && node->meta()->tensor()) annotated.emplace_back(node->name(), *node->meta()->tensor());
    node->clear_meta();
  }
  ASSERT_FALSE(annotated.empty());
  InferenceReport report = InferShapes(**graph, R());
  EXPECT_EQ(report.unknown_ops, 0u);
  EXPECT_EQ(report.failed, 0u) << (report.errors.empty() ? "" : report.errors[0]);
  for (const auto& [name, annotation] : annotated) {
    const Node* node = (*graph)->Find(name);
    ASSERT_NE(node, nullptr);
    ASSERT_NE(node->meta(), nullptr) << name;
    ASSERT_NE(node->meta()->tensor(), nullptr) << name;
    // These torch versions print no strides; where a file states them, they must agree too.
    const TensorMeta& inferred = *node->meta()->tensor();
    EXPECT_EQ(inferred.ShapeString(), annotation.ShapeString()) << name;
    if (!annotation.strides.empty()) {
      EXPECT_EQ(inferred.EffectiveStrides(), annotation.strides) << name;
    }
  }
  size_t unknown = 99;
  OpCost total = TotalCost(**graph, R(), &unknown);
  EXPECT_EQ(unknown, 0u);
  EXPECT_GT(total.flops, 0);
}

INSTANTIATE_TEST_SUITE_P(Samples, SampleTest,
                         ::testing::Values("mlp", "gpt_block2", "gpt2_train_fw", "mobilenet_v2", "seed_multistream"));

}  // namespace
}  // namespace airscope

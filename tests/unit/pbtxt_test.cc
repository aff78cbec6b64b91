// TorchAir pbtxt: writer format pieces, the TorchAir sample byte for byte,
// round trips on every sample, and reader errors (file:line:col, no crash).
#include "formats/pbtxt_writer.h"

#include <filesystem>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "core/file_util.h"
#include "core/fx/readable.h"
#include "core/ops/shape_inference.h"
#include "core/scanner.h"
#include "formats/ge_const.h"
#include "formats/ge_op_types.h"
#include "formats/pbtxt_reader.h"
#include "formats/proto_text.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

using testing_util::Spec;

using testing_util::F32;

// The graph behind tests/data/torchair_style_add.pbtxt: arg0_1 + arg1_1, both f32[2, 2].
std::unique_ptr<Graph> SampleAdd() {
  auto g = std::make_unique<Graph>();
  Node* a = *g->AppendNamed(Spec(OpKind::kPlaceholder, "arg0_1", {}, "arg0_1"));
  Node* b = *g->AppendNamed(Spec(OpKind::kPlaceholder, "arg1_1", {}, "arg1_1"));
  a->set_meta(F32({2, 2}));
  b->set_meta(F32({2, 2}));
  Node* add = *g->AppendNamed(
      Spec(OpKind::kCallFunction, "torch.ops.aten.add.Tensor", {Argument::NodeRef(a), Argument::NodeRef(b)}, "add"));
  add->set_meta(F32({2, 2}));
  (void)*g->AppendNamed(Spec(OpKind::kOutput, "output", {Argument::Tuple({Argument::NodeRef(add)})}, "output"));
  return g;
}

std::string Data(const std::string& name) {
  auto text = ReadFile(std::string(AIRSCOPE_TEST_DATA) + "/" + name);
  EXPECT_TRUE(text.ok()) << text.status().message();
  return text.ok() ? *text : std::string();
}

std::vector<std::string> Samples() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(AIRSCOPE_TEST_DATA)) {
    std::string name = entry.path().filename().string();
    if (name.ends_with(".readable.py")) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::unique_ptr<Graph> LoadSample(const std::string& name) {
  auto g = ParseReadable(Data(name), name);
  EXPECT_TRUE(g.ok()) << g.status().message();
  if (!g.ok()) return nullptr;
  InferShapes(**g, OpRegistry::Builtin());
  return std::move(*g);
}

TEST(GeOpTypes, TableAndReverse) {
  EXPECT_EQ(GeTypeForTarget("torch.ops.aten.mm.default").type, "MatMul");
  EXPECT_TRUE(GeTypeForTarget("torch.ops.aten.mm.default").canonical);
  EXPECT_EQ(GeTypeForTarget("torch.ops.aten._unsafe_view.default").type, "Reshape");
  EXPECT_FALSE(GeTypeForTarget("torch.ops.aten._unsafe_view.default").canonical);
  EXPECT_FALSE(GeTypeForTarget("torch.ops.aten.add.Scalar").canonical);
  EXPECT_EQ(GeTypeForTarget("torch.ops.aten._softmax.default").type, "SoftmaxV2");
  GeOpType unmapped = GeTypeForTarget("torch.ops.aten.native_dropout.default");
  EXPECT_EQ(unmapped.type, "torch.ops.aten.native_dropout.default");  // no invented GE type
  EXPECT_FALSE(unmapped.mapped);
  EXPECT_NE(unmapped.note.find("no GE type in airscope's table"), std::string::npos);
  EXPECT_EQ(GeTypeForTarget("operator.getitem").type, "operator.getitem");
  // addmm.py returns MatMulV2 (+ Add): several operators, so no single type.
  GeOpType addmm = GeTypeForTarget("torch.ops.aten.addmm.default");
  EXPECT_FALSE(addmm.mapped);
  EXPECT_NE(addmm.note.find("MatMulV2"), std::string::npos);
  EXPECT_EQ(GeTypeForTarget("torch.ops.aten.where.self").type, "SelectV2");  // where.py: ge.SelectV2
  EXPECT_FALSE(GeTypeForTarget("torch.ops.aten.amax.default").mapped);       // amax.py: NotImplementedError
  EXPECT_EQ(TargetForGeType("Reshape"), "torch.ops.aten.view.default");
  EXPECT_EQ(TargetForGeType("Add"), "torch.ops.aten.add.Tensor");
  EXPECT_EQ(TargetForGeType("NoSuchOp"), std::nullopt);
}

TEST(ProtoText, Escapes) {
  EXPECT_EQ(PythonBytesRepr("i: 0\n"), "'i: 0\\n'");
  EXPECT_EQ(PythonBytesRepr("it's"), "\"it's\"");
  EXPECT_EQ(PythonBytesRepr("s: \"it's\""), "'s: \"it\\'s\"'");
  EXPECT_EQ(PythonBytesRepr("a\\b\x01"), "'a\\\\b\\x01'");
  EXPECT_EQ(ProtoCEscape("a\"b'c\\\n\x7f"), "a\\\"b\\'c\\\\\\n\\177");
}

TEST(ProtoText, ParsesNestingListsCommentsAndStrings) {
  auto r = ParseProtoText("# c\na { b: 1 c: \"x\\n\" 'y' d < e: ENUM > } f: [1, 2] g: { }");
  ASSERT_TRUE(r.ok) << r.error;
  ASSERT_EQ(r.fields.size(), 3u);
  EXPECT_EQ(r.fields[0].Find("c")->value, "x\ny");
  EXPECT_EQ(r.fields[0].Find("d")->Find("e")->value, "ENUM");
  EXPECT_EQ(r.fields[1].fields.size(), 2u);
}

TEST(Pbtxt, SampleByteForByte) {
  auto text = GraphToPbtxt(*SampleAdd());
  ASSERT_TRUE(text.ok()) << text.status().message();
  EXPECT_EQ(*text, Data("torchair_style_add.pbtxt"));
}

TEST(Pbtxt, SampleLoads) {
  std::string sample = Data("torchair_style_add.pbtxt");
  auto g = ParsePbtxt(sample, "torchair_style_add.pbtxt");
  ASSERT_TRUE(g.ok()) << g.status().message();
  ASSERT_TRUE((*g)->Lint().ok()) << (*g)->Lint().message();
  ASSERT_EQ((*g)->size(), 4u);
  Node* add = (*g)->Find("Add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->target(), "torch.ops.aten.add.Tensor");
  ASSERT_NE(add->meta(), nullptr);
  EXPECT_EQ(add->meta()->ShapeString(), "f32[2, 2]");
  EXPECT_EQ((*g)->Placeholders().size(), 2u);
  auto again = GraphToPbtxt(**g);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, sample);
}

TEST(Pbtxt, FormatPieces) {
  auto g = SampleAdd();
  Node* add = g->Find("add");
  g->SetStream(add, "stream_1");
  Node* mul = g->InsertAfter(add, Spec(OpKind::kCallFunction, "torch.ops.aten.mul.Tensor",
                                       {Argument::NodeRef(add), Argument::Float(0.5)}, "mul"));
  mul->set_meta(F32({2, Dim::Symbol("s0")}));
  Node* drop = g->InsertAfter(mul, Spec(OpKind::kCallFunction, "torch.ops.aten.native_dropout.default",
                                        {Argument::NodeRef(mul), Argument::Float(0.1), Argument::Bool(true)}, "d"));
  NodeMeta tuple;
  tuple.kind = ValueKind::kTuple;
  tuple.tensors = {F32({2, 2}).tensors[0], TensorMeta{DType::kBool, {2, 2}, {}, ""}};
  drop->set_meta(tuple);
  Node* gi = g->InsertAfter(
      drop, Spec(OpKind::kCallFunction, "operator.getitem", {Argument::NodeRef(drop), Argument::Int(1)}, "getitem"));
  gi->set_meta(NodeMeta{ValueKind::kTensor, MetaSource::kInferred, {TensorMeta{DType::kBool, {2, 2}, {}, ""}}, "", ""});
  g->SetArgs(g->output(), {Argument::Tuple({Argument::NodeRef(add), Argument::NodeRef(gi)})});
  auto text = GraphToPbtxt(*g);
  ASSERT_TRUE(text.ok());
  const std::string& t = *text;
  EXPECT_NE(t.find("    name: \"Mul\"\n    op: \"Mul\"\n    input: \"Add:0\"\n"), std::string::npos) << t;
  EXPECT_NE(t.find("key: \"_fx_args\"\n        value {\n            s: 's: \"(Add, 0.5)\"\\n'"), std::string::npos)
      << t;
  EXPECT_NE(t.find("key: \"_user_stream_label\"\n        value {\n            s: 's: \"stream_1\"\\n'"),
            std::string::npos);
  EXPECT_NE(t.find("s: 's: \"torch.ops.aten.native_dropout.default\"\\n'"), std::string::npos);
  EXPECT_NE(t.find("shape {\\n  dim: 2\\n  dim: -1\\n}"), std::string::npos);  // symbolic dim
  EXPECT_NE(t.find("shape=torch.Size([2, s0])"), std::string::npos);           // symbol kept in _meta
  EXPECT_NE(t.find("    name: \"d\"\n    op: \"torch.ops.aten.native_dropout.default\"\n"), std::string::npos);
  EXPECT_NE(t.find("key: \"_airscope_unconverted\""), std::string::npos);
  EXPECT_NE(t.find("input: \"d:1\""), std::string::npos);  // getitem elided
  EXPECT_EQ(t.find("getitem\""), std::string::npos);
  EXPECT_NE(t.find("key: \"[o]y1\""), std::string::npos);
  // Reads back with the same args, stream, tuple meta and a rebuilt getitem.
  auto back = ParsePbtxt(t, "pieces.pbtxt");
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE((*back)->Lint().ok()) << (*back)->Lint().message();
  Node* m = (*back)->Find("Mul");
  ASSERT_NE(m, nullptr);
  ASSERT_EQ(m->args().size(), 2u);
  EXPECT_EQ(m->args()[1].as_float(), 0.5);
  EXPECT_EQ(m->meta()->ShapeString(), "f32[2, s0]");
  EXPECT_EQ((*back)->Find("Add")->stream(), "stream_1");
  Node* rebuilt = (*back)->Find("d_getitem_1");
  ASSERT_NE(rebuilt, nullptr);
  EXPECT_EQ(rebuilt->target(), "operator.getitem");
  EXPECT_EQ((*back)->Find("d")->target(), "torch.ops.aten.native_dropout.default");
  auto again = GraphToPbtxt(**back);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, t);
}

TEST(Pbtxt, ControlInputsFromStreamMarkers) {
  auto g = SampleAdd();
  Node* add = g->Find("add");
  Node* record = g->InsertAfter(
      add, Spec(OpKind::kCallFunction, "torch.ops.air.record.default", {Argument::NodeRef(add)}, "record"));
  Node* wait = g->InsertAfter(record, Spec(OpKind::kCallFunction, "torch.ops.air.wait.default",
                                           {Argument::List({Argument::NodeRef(record)})}, "wait"));
  Node* neg =
      g->InsertAfter(wait, Spec(OpKind::kCallFunction, "torch.ops.aten.neg.default", {Argument::NodeRef(add)}, "neg"));
  neg->set_meta(F32({2, 2}));
  g->SetKwargs(neg, {Kwarg{"_control_deps", Argument::List({Argument::NodeRef(wait)})}});
  g->SetArgs(g->output(), {Argument::Tuple({Argument::NodeRef(neg)})});
  auto text = GraphToPbtxt(*g);
  ASSERT_TRUE(text.ok());
  // No GE operator for the markers: FX name and target, their users ordered by control inputs,
  // which the raw op builders put before the data inputs.
  EXPECT_NE(text->find("name: \"wait\"\n    op: \"torch.ops.air.wait.default\"\n    input: \"^record\"\n"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("op: \"Neg\"\n    input: \"^wait\"\n    input: \"Add:0\"\n"), std::string::npos);
  auto back = ParsePbtxt(*text, "control.pbtxt");
  ASSERT_TRUE(back.ok()) << back.status().message();
  const Argument* deps = (*back)->Find("Neg")->kwarg("_control_deps");
  ASSERT_NE(deps, nullptr);
  EXPECT_EQ(deps->items()[0].as_node()->name(), "wait");
  auto again = GraphToPbtxt(**back);
  EXPECT_EQ(*again, *text);
}

// mm.py: ge.MatMul(self, mat2, None); the raw op builder appends an empty
// input and an `_is_unfed_optional` desc for the absent bias and sets
// transpose_x1/transpose_x2 (auto_generated_ge_raw_ops.py MatMul).
TEST(Pbtxt, MatMulAsTheConverterBuildsIt) {
  auto g = SampleAdd();
  Node* add = g->Find("add");
  Node* mm = g->InsertAfter(add, Spec(OpKind::kCallFunction, "torch.ops.aten.mm.default",
                                      {Argument::NodeRef(add), Argument::NodeRef(g->Find("arg1_1"))}, "mm"));
  mm->set_meta(F32({2, 2}));
  g->SetArgs(g->output(), {Argument::Tuple({Argument::NodeRef(mm)})});
  auto text = GraphToPbtxt(*g);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("    op: \"MatMul\"\n    input: \"Add:0\"\n    input: \"arg1_1:0\"\n    input: \"\"\n"),
            std::string::npos)
      << *text;
  EXPECT_NE(text->find("key: \"transpose_x1\"\n        value {\n            s: 'b: false\\n'"), std::string::npos);
  EXPECT_NE(text->find("key: \"transpose_x2\""), std::string::npos);
  EXPECT_NE(text->find("key: \"[i]bias\"\n        value {\n            s: 'name: \"bias\"\\nattr {\\n  key: "
                       "\"_is_unfed_optional\"\\n  value {\\n    i: 1\\n  }\\n}\\n'"),
            std::string::npos)
      << *text;
  auto back = ParsePbtxt(*text, "mm.pbtxt");
  ASSERT_TRUE(back.ok()) << back.status().message();
  Node* m = (*back)->Find("MatMul");
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->target(), "torch.ops.aten.mm.default");
  EXPECT_EQ(m->args().size(), 2u);  // the absent bias is no argument
  EXPECT_EQ(*GraphToPbtxt(**back), *text);
}

// add.py: dtype_promote(self, other) turns a Python scalar into
// ge.Const(v, dtype=<output dtype>) made before the Add (ge/_ge_graph.py Const).
TEST(Pbtxt, ScalarOperandBecomesConst) {
  auto g = SampleAdd();
  Node* add = g->Find("add");
  Node* add1 = g->InsertAfter(add, Spec(OpKind::kCallFunction, "torch.ops.aten.add.Tensor",
                                        {Argument::NodeRef(add), Argument::Float(1.0)}, "add_1"));
  add1->set_meta(F32({2, 2}));
  g->SetArgs(g->output(), {Argument::Tuple({Argument::NodeRef(add1)})});
  auto text = GraphToPbtxt(*g);
  ASSERT_TRUE(text.ok());
  const std::string& t = *text;
  size_t konst = t.find("    name: \"Const\"\n    op: \"Const\"\n");
  size_t user = t.find("    name: \"Add_1\"\n    op: \"Add\"\n    input: \"Add:0\"\n    input: \"Const:0\"\n");
  ASSERT_NE(konst, std::string::npos) << t;
  ASSERT_NE(user, std::string::npos) << t;
  EXPECT_LT(konst, user);
  // 1.0f little-endian: 00 00 80 3f, in protobuf text then in repr(bytes).
  EXPECT_NE(t.find("s: 't {\\n  desc {\\n    dtype: DT_FLOAT\\n    layout: \"ND\"\\n  }\\n  data: "
                   "\"\\\\000\\\\000\\\\200?\"\\n}\\n'"),
            std::string::npos)
      << t;
  EXPECT_NE(t.find("key: \"_readable_value\"\n        value {\n            s: 's: \"1.0\"\\n'"), std::string::npos);
  EXPECT_NE(t.find("key: \"[o]\"\n        value {\n            s: 'dtype: DT_FLOAT\\nlayout: \"ND\"\\n'"),
            std::string::npos);
  auto back = ParsePbtxt(t, "const.pbtxt");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ((*back)->Find("Const"), nullptr);  // part of Add_1: its _fx_args hold the 1.0
  Node* b = (*back)->Find("Add_1");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->args()[1].as_float(), 1.0);
  EXPECT_EQ(*GraphToPbtxt(**back), t);
}

TEST(GeConst, ScalarBytes) {
  EXPECT_EQ(*ScalarBytes(Argument::Float(1.0), DType::kFloat16), std::string("\x00\x3c", 2));
  EXPECT_EQ(*ScalarBytes(Argument::Float(-2.0), DType::kBFloat16), std::string("\x00\xc0", 2));
  EXPECT_EQ(*ScalarBytes(Argument::Float(65520.0), DType::kFloat16), std::string("\x00\x7c", 2));  // ties to inf
  EXPECT_EQ(*ScalarBytes(Argument::Float(5.960464477539063e-08), DType::kFloat16), std::string("\x01\x00", 2));
  EXPECT_EQ(*ScalarBytes(Argument::Int(3), DType::kInt64), std::string("\x03\0\0\0\0\0\0\0", 8));
  EXPECT_EQ(*ScalarBytes(Argument::Bool(true), DType::kBool), std::string("\x01", 1));
  EXPECT_FALSE(ScalarBytes(Argument::Float(1.0), DType::kComplex64).has_value());
  EXPECT_FALSE(ScalarBytes(Argument::None(), DType::kFloat32).has_value());
}

TEST(Pbtxt, RoundTripsEverySample) {
  for (const std::string& name : Samples()) {
    SCOPED_TRACE(name);
    auto g = LoadSample(name);
    ASSERT_NE(g, nullptr);
    auto first = GraphToPbtxt(*g);
    ASSERT_TRUE(first.ok()) << first.status().message();
    auto back = ParsePbtxt(*first, name + ".pbtxt");
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_TRUE((*back)->Lint().ok()) << (*back)->Lint().message();
    auto second = GraphToPbtxt(**back);
    ASSERT_TRUE(second.ok());
    EXPECT_EQ(*second, *first);
    // With FX names the round trip holds too.
    auto fx = GraphToPbtxt(*g, GeOpsOptions{.fx_names = true});
    auto fx_back = ParsePbtxt(*fx, name + ".pbtxt");
    ASSERT_TRUE(fx_back.ok()) << fx_back.status().message();
    EXPECT_EQ(*GraphToPbtxt(**fx_back, GeOpsOptions{.fx_names = true}), *fx);
    EXPECT_EQ((*fx_back)->size() + 0, (*fx_back)->size());
  }
}

TEST(Pbtxt, ReaderSortsNodesGivenOutOfOrder) {
  std::string text =
      "node { name: \"out\" op: \"NetOutput\" input: \"n:0\" }\n"
      "node { name: \"n\" op: \"Neg\" input: \"x:0\" }\n"
      "node { name: \"x\" op: \"Data\" attr { key: \"index\" value { s: 'i: 0\\n' } } }\n";
  auto g = ParsePbtxt(text, "order.pbtxt");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_TRUE((*g)->Lint().ok()) << (*g)->Lint().message();
  EXPECT_EQ((*g)->front()->name(), "x");
  EXPECT_EQ((*g)->Find("n")->target(), "torch.ops.aten.neg.default");
}

std::string PbtxtError(std::string_view text) {
  auto g = ParsePbtxt(text, "bad.pbtxt");
  EXPECT_FALSE(g.ok());
  return g.ok() ? std::string() : std::string(ErrorHeadline(g.status().message()));
}

TEST(Pbtxt, ReaderErrorsNameLineAndColumn) {
  EXPECT_EQ(PbtxtError("node {\n  name: \"a\"\n  op: \"Data\"\n"),
            "bad.pbtxt:4:1: unexpected end of input: expected '}'");
  EXPECT_EQ(PbtxtError("node {\n  name: \"a\n}\n"), "bad.pbtxt:2:9: unterminated string");
  // Under the headline: the line, and a caret under the column.
  auto unterminated = ParsePbtxt("node {\n  name: \"a\n}\n", "bad.pbtxt");
  ASSERT_FALSE(unterminated.ok());
  EXPECT_EQ(unterminated.status().message(),
            "bad.pbtxt:2:9: unterminated string\n"
            "      name: \"a\n"
            "            ^");
  EXPECT_EQ(PbtxtError("node { name: \"a\" op: \"Neg\" input: \"zz:0\" }"),
            "bad.pbtxt:1:35: node 'a': input refers to no node named 'zz'");
  EXPECT_EQ(
      PbtxtError("node { name: \"a\" op: \"Neg\" input: \"b:0\" }\nnode { name: \"b\" op: \"Neg\" input: \"a:0\" }\n"),
      "bad.pbtxt:1:1: the graph has a cycle: 'a' <- 'b' <- 'a'");
  EXPECT_EQ(PbtxtError("node { op: \"Neg\" }"), "bad.pbtxt:1:1: node has no `name`");
  EXPECT_EQ(PbtxtError("node { name: \"a\" op: \"Data\" }\nnode { name: \"a\" op: \"Data\" }"),
            "bad.pbtxt:2:1: duplicate node name 'a'");
  EXPECT_EQ(PbtxtError("node { name: \"a\" op: \"Data\" attr { key: \"[o]y\" value { s: 'name: \"y' } } }"),
            "bad.pbtxt:1:59: attr '[o]y': unterminated string (at offset 6 of its text)");
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "a { ";
  EXPECT_NE(PbtxtError("node { " + deep).find("nesting deeper than 64 levels"), std::string::npos);
  EXPECT_NE(PbtxtError("").find("bad.pbtxt"), std::string::npos);
  // Cut at a node boundary before NetOutput: it used to load, lose every op
  // to dead code removal and capture 0 tasks.
  EXPECT_EQ(PbtxtError("node { name: \"x\" op: \"Data\" }\nnode { name: \"n\" op: \"Neg\" input: \"x\" }\n"),
            "bad.pbtxt:3:1: no NetOutput node: the graph has no outputs (is the file cut short?)");
}

// A one-Data graph whose output desc has `shape_and_layout` (the desc's
// shape block and layout line) and the _meta text `meta`.
std::string DataWithDesc(std::string_view shape_and_layout, std::string_view meta) {
  return fmt::format(
      "node {{ name: \"x\" op: \"Data\" attr {{ key: \"[o]y\" value {{ s: 'name: \"y\"\\ndtype: "
      "DT_FLOAT\\n{}attr {{\\n  key: \"_meta\"\\n  value {{\\n    s: \"{}\"\\n  }}\\n}}\\n' }} }} }}\n"
      "node {{ name: \"out\" op: \"NetOutput\" input: \"x\" }}\n",
      shape_and_layout, meta);
}

// TorchAir writes a desc's shape and its _meta from one FakeTensor: in ND
// layout a rank or a static size that differs is said (the reader keeps
// _meta); GE's storage layouts, -1 for a symbol, -2 for an unknown rank and
// a desc without dims are not disagreements.
TEST(Pbtxt, ADescShapeThatContradictsItsMetaIsSaid) {
  const std::string meta = "Tensor(dtype=torch.float32, shape=torch.Size([2, s0])";
  struct Case {
    std::string desc;
    bool warned;
  };
  std::vector<Case> cases = {
      {"shape {\\n  dim: 3\\n  dim: -1\\n}\\nlayout: \"ND\"\\n", true},
      {"shape {\\n  dim: 2\\n}\\n", true},  // no layout stated: taken as ND
      {"shape {\\n  dim: 2\\n  dim: -1\\n}\\nlayout: \"ND\"\\n", false},
      {"shape {\\n  dim: 2\\n  dim: 7\\n}\\nlayout: \"ND\"\\n", false},  // 7 for the symbol s0: a hint
      {"shape {\\n  dim: 1\\n  dim: 1\\n  dim: 2\\n  dim: 16\\n}\\nlayout: \"NC1HWC0\"\\n", false},
      {"shape {\\n  dim: -2\\n}\\n", false},
      {"", false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.desc);
    std::vector<std::string> warnings;
    auto g = ParsePbtxt(DataWithDesc(c.desc, meta), "desc.pbtxt", &warnings);
    ASSERT_TRUE(g.ok()) << g.status().message();
    EXPECT_EQ((*g)->Find("x")->meta()->ShapeString(), "f32[2, s0]");  // _meta, always
    ASSERT_EQ(warnings.size(), c.warned ? 1u : 0u);
    if (c.warned) {
      EXPECT_TRUE(warnings[0].starts_with("desc.pbtxt:1:")) << warnings[0];
      EXPECT_NE(warnings[0].find("node 'x' [o]y: the GE desc's shape ["), std::string::npos) << warnings[0];
      EXPECT_NE(warnings[0].find("disagrees with its _meta f32[2, s0]"), std::string::npos) << warnings[0];
    }
  }
}

// Without _meta the desc is all there is: each dim GE does not know (-1) is
// a symbol of its own, never equal to another's; an unknown rank (-2) gives
// no shape, not a 1-d one.
TEST(Pbtxt, UnknownDescDimsAreDistinctAndAnUnknownRankIsNoShape) {
  std::string text =
      "node { name: \"x\" op: \"Data\" attr { key: \"[o]y\" value { s: 'name: \"y\"\\ndtype: DT_FLOAT\\nshape "
      "{\\n  dim: -1\\n  dim: 4\\n}\\n' } } }\n"
      "node { name: \"z\" op: \"Data\" attr { key: \"[o]y\" value { s: 'name: \"y\"\\ndtype: DT_FLOAT\\nshape "
      "{\\n  dim: -1\\n  dim: 4\\n}\\n' } } }\n"
      "node { name: \"r\" op: \"Data\" attr { key: \"[o]y\" value { s: 'name: \"y\"\\ndtype: DT_FLOAT\\nshape "
      "{\\n  dim: -2\\n}\\n' } } }\n"
      "node { name: \"out\" op: \"NetOutput\" input: \"x\" input: \"z\" input: \"r\" }\n";
  auto g = ParsePbtxt(text, "unknown.pbtxt");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ((*g)->Find("x")->meta()->ShapeString(), "f32[?0, 4]");
  EXPECT_EQ((*g)->Find("z")->meta()->ShapeString(), "f32[?1, 4]");
  EXPECT_EQ((*g)->Find("r")->meta(), nullptr);
}

// A file with many contradictions lists a screenful and counts the rest:
// a hostile one must not hold a message per node.
TEST(Pbtxt, ManyContradictionsAreListedTwentyAndCounted) {
  std::string text;
  for (int i = 0; i < 25; ++i) {
    text += fmt::format(
        "node {{ name: \"x{}\" op: \"Data\" attr {{ key: \"[o]y\" value {{ s: 'name: \"y\"\\ndtype: "
        "DT_FLOAT\\nshape {{\\n  dim: 3\\n}}\\nattr {{\\n  key: \"_meta\"\\n  value {{\\n    s: "
        "\"Tensor(dtype=torch.float32, shape=torch.Size([2])\"\\n  }}\\n}}\\n' }} }} }}\n",
        i);
  }
  text += "node { name: \"out\" op: \"NetOutput\" input: \"x0\" }\n";
  std::vector<std::string> warnings;
  auto g = ParsePbtxt(text, "many.pbtxt", &warnings);
  ASSERT_TRUE(g.ok()) << g.status().message();
  ASSERT_EQ(warnings.size(), 21u);
  EXPECT_NE(warnings[19].find("node 'x19'"), std::string::npos) << warnings[19];
  EXPECT_EQ(warnings[20], "many.pbtxt: ... and 5 more desc(s) whose shape disagrees with their _meta");
}

TEST(Pbtxt, UnknownFieldsAndAttrsAreSkipped) {
  std::string text =
      "versions { producer: 1 }\n"
      "node { name: \"x\" op: \"Data\" device: \"/npu:0\" attr { key: \"_weird\" value { i: 3 } } "
      "attr { key: \"[o]y\" value { s: 'name: \"y\"\\ndtype: DT_FLOAT\\nshape {\\n  dim: 4\\n}\\nsize: 16\\n' } } }\n"
      "node { name: \"s/1\" op: \"Softsign\" input: \"x\" }\n"
      "node { name: \"out\" op: \"NetOutput\" input: \"s/1\" }\n";
  auto g = ParsePbtxt(text, "ge.pbtxt");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ((*g)->Find("x")->meta()->ShapeString(), "f32[4]");
  Node* s = (*g)->Find("s_1");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->target(), "ge.Softsign");
}

TEST(Pbtxt, GarbageNeverCrashes) {
  std::string sample = Data("torchair_style_add.pbtxt");
  std::mt19937 rng(1234);
  for (int round = 0; round < 300; ++round) {
    std::string text = sample;
    int edits = 1 + static_cast<int>(rng() % 8);
    for (int e = 0; e < edits; ++e) {
      size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[at] = static_cast<char>(" {}:\"'\\^x0-#\n"[rng() % 14]); break;
        case 1: text.erase(at, rng() % 40); break;
        case 2: text.resize(at); break;
      }
      // std::string("x"), not = "x": GCC 12 at -O3 reports a false
      // -Wrestrict in the inlined assignment of a literal (GCC bug 105329).
      if (text.empty()) text = std::string("x");
    }
    auto g = ParsePbtxt(text, "fuzz.pbtxt");
    if (g.ok()) {
      EXPECT_TRUE(GraphToPbtxt(**g).ok());
    } else {
      EXPECT_EQ(g.status().message().rfind("fuzz.pbtxt:", 0), 0u) << g.status().message();
    }
  }
}

}  // namespace
}  // namespace airscope

// TorchAir pbtxt: writer format pieces, the TorchAir sample byte for byte,
// round trips on every sample, and reader errors (file:line:col, no crash).
#include "viz/pbtxt_writer.h"

#include <filesystem>
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "core/file_util.h"
#include "core/fx/readable.h"
#include "core/ops/shape_inference.h"
#include "viz/ge_op_types.h"
#include "viz/pbtxt_reader.h"
#include "viz/proto_text.h"

namespace airscope {
namespace {

NodeSpec Spec(OpKind op, std::string target, std::vector<Argument> args, std::string name) {
  NodeSpec spec;
  spec.op = op;
  spec.target = std::move(target);
  spec.args = std::move(args);
  spec.name = std::move(name);
  return spec;
}

NodeMeta F32(std::vector<Dim> sizes) {
  NodeMeta meta;
  meta.tensors.push_back(TensorMeta{DType::kFloat32, std::move(sizes), {}, ""});
  return meta;
}

// The graph behind tests/data/torchair_style_add.pbtxt: arg0_1 + arg1_1, both f32[2, 2].
std::unique_ptr<Graph> SampleAdd() {
  auto g = std::make_unique<Graph>();
  Node* a = *g->AppendNamed(Spec(OpKind::kPlaceholder, "arg0_1", {}, "arg0_1"));
  Node* b = *g->AppendNamed(Spec(OpKind::kPlaceholder, "arg1_1", {}, "arg1_1"));
  a->set_meta(F32({2, 2}));
  b->set_meta(F32({2, 2}));
  Node* add = *g->AppendNamed(Spec(OpKind::kCallFunction, "torch.ops.aten.add.Tensor",
                                   {Argument::NodeRef(a), Argument::NodeRef(b)}, "add"));
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
  EXPECT_EQ(unmapped.type, "NativeDropout");
  EXPECT_FALSE(unmapped.mapped);
  EXPECT_EQ(GeTypeForTarget("operator.getitem").type, "Getitem");
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
  Node* gi = g->InsertAfter(drop, Spec(OpKind::kCallFunction, "operator.getitem",
                                       {Argument::NodeRef(drop), Argument::Int(1)}, "getitem"));
  gi->set_meta(NodeMeta{ValueKind::kTensor, MetaSource::kInferred, {TensorMeta{DType::kBool, {2, 2}, {}, ""}}, "", ""});
  g->SetArgs(g->output(), {Argument::Tuple({Argument::NodeRef(add), Argument::NodeRef(gi)})});
  auto text = GraphToPbtxt(*g);
  ASSERT_TRUE(text.ok());
  const std::string& t = *text;
  EXPECT_NE(t.find("    name: \"Mul\"\n    op: \"Mul\"\n    input: \"Add:0\"\n"), std::string::npos) << t;
  EXPECT_NE(t.find("key: \"_fx_args\"\n        value {\n            s: 's: \"(Add, 0.5)\"\\n'"), std::string::npos) << t;
  EXPECT_NE(t.find("key: \"_user_stream_label\"\n        value {\n            s: 's: \"stream_1\"\\n'"),
            std::string::npos);
  EXPECT_NE(t.find("s: 's: \"torch.ops.aten.native_dropout.default\"\\n'"), std::string::npos);
  EXPECT_NE(t.find("shape {\\n  dim: 2\\n  dim: -1\\n}"), std::string::npos);  // symbolic dim
  EXPECT_NE(t.find("shape=torch.Size([2, s0])"), std::string::npos);          // symbol kept in _meta
  EXPECT_NE(t.find("input: \"NativeDropout:1\""), std::string::npos);          // getitem elided
  EXPECT_EQ(t.find("Getitem"), std::string::npos);
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
  Node* rebuilt = (*back)->Find("NativeDropout_getitem_1");
  ASSERT_NE(rebuilt, nullptr);
  EXPECT_EQ(rebuilt->target(), "operator.getitem");
  EXPECT_EQ((*back)->Find("NativeDropout")->target(), "torch.ops.aten.native_dropout.default");
  auto again = GraphToPbtxt(**back);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(*again, t);
}

TEST(Pbtxt, ControlInputsFromStreamMarkers) {
  auto g = SampleAdd();
  Node* add = g->Find("add");
  Node* record = g->InsertAfter(add, Spec(OpKind::kCallFunction, "torch.ops.air.record.default",
                                          {Argument::NodeRef(add)}, "record"));
  Node* wait = g->InsertAfter(record, Spec(OpKind::kCallFunction, "torch.ops.air.wait.default",
                                           {Argument::List({Argument::NodeRef(record)})}, "wait"));
  Node* neg = g->InsertAfter(wait, Spec(OpKind::kCallFunction, "torch.ops.aten.neg.default",
                                        {Argument::NodeRef(add)}, "neg"));
  neg->set_meta(F32({2, 2}));
  g->SetKwargs(neg, {Kwarg{"_control_deps", Argument::List({Argument::NodeRef(wait)})}});
  g->SetArgs(g->output(), {Argument::Tuple({Argument::NodeRef(neg)})});
  auto text = GraphToPbtxt(*g);
  ASSERT_TRUE(text.ok());
  EXPECT_NE(text->find("name: \"AirWait\"\n    op: \"AirWait\"\n    input: \"^AirRecord\"\n"), std::string::npos)
      << *text;
  EXPECT_NE(text->find("op: \"Neg\"\n    input: \"Add:0\"\n    input: \"^AirWait\"\n"), std::string::npos);
  auto back = ParsePbtxt(*text, "control.pbtxt");
  ASSERT_TRUE(back.ok()) << back.status().message();
  const Argument* deps = (*back)->Find("Neg")->kwarg("_control_deps");
  ASSERT_NE(deps, nullptr);
  EXPECT_EQ(deps->items()[0].as_node()->name(), "AirWait");
  auto again = GraphToPbtxt(**back);
  EXPECT_EQ(*again, *text);
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

std::string ErrorOf(std::string_view text) {
  auto g = ParsePbtxt(text, "bad.pbtxt");
  EXPECT_FALSE(g.ok());
  return g.ok() ? std::string() : g.status().message();
}

TEST(Pbtxt, ReaderErrorsNameLineAndColumn) {
  EXPECT_EQ(ErrorOf("node {\n  name: \"a\"\n  op: \"Data\"\n"),
            "bad.pbtxt:4:1: unexpected end of input: expected '}'");
  EXPECT_EQ(ErrorOf("node {\n  name: \"a\n}\n"), "bad.pbtxt:2:9: unterminated string");
  EXPECT_EQ(ErrorOf("node { name: \"a\" op: \"Neg\" input: \"zz:0\" }"),
            "bad.pbtxt:1:35: node 'a': input refers to no node named 'zz'");
  EXPECT_EQ(ErrorOf("node { name: \"a\" op: \"Neg\" input: \"b:0\" }\nnode { name: \"b\" op: \"Neg\" input: \"a:0\" }\n"),
            "bad.pbtxt:1:1: the graph has a cycle: 'a' <- 'b' <- 'a'");
  EXPECT_EQ(ErrorOf("node { op: \"Neg\" }"), "bad.pbtxt:1:1: node has no `name`");
  EXPECT_EQ(ErrorOf("node { name: \"a\" op: \"Data\" }\nnode { name: \"a\" op: \"Data\" }"),
            "bad.pbtxt:2:1: duplicate node name 'a'");
  EXPECT_EQ(ErrorOf("node { name: \"a\" op: \"Data\" attr { key: \"[o]y\" value { s: 'name: \"y' } } }"),
            "bad.pbtxt:1:59: attr '[o]y': unterminated string (at offset 6 of its text)");
  std::string deep;
  for (int i = 0; i < 100000; ++i) deep += "a { ";
  EXPECT_NE(ErrorOf("node { " + deep).find("nesting deeper than 64 levels"), std::string::npos);
  EXPECT_NE(ErrorOf("").find("bad.pbtxt"), std::string::npos);
}

TEST(Pbtxt, UnknownFieldsAndAttrsAreSkipped) {
  std::string text =
      "versions { producer: 1 }\n"
      "node { name: \"x\" op: \"Data\" device: \"/npu:0\" attr { key: \"_weird\" value { i: 3 } } "
      "attr { key: \"[o]y\" value { s: 'name: \"y\"\\ndtype: DT_FLOAT\\nshape {\\n  dim: 4\\n}\\nsize: 16\\n' } } }\n"
      "node { name: \"s/1\" op: \"Softsign\" input: \"x\" }\n";
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
      if (text.empty()) text = "x";
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

#include "core/fx/graph_json.h"
#include "tests/unit/graph_test_util.h"

#include <cmath>
#include <limits>
#include <string>

#include <gtest/gtest.h>

namespace airscope {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

using testing_util::Spec;

NodeMeta TensorMetaOf(DType dtype, std::vector<Dim> sizes, std::vector<Dim> strides = {}, std::string device = "") {
  NodeMeta meta;
  meta.tensors.push_back(TensorMeta{dtype, std::move(sizes), std::move(strides), std::move(device)});
  return meta;
}

// A graph that uses every Argument kind, every meta field, streams and a non-default style.
std::unique_ptr<Graph> KitchenSink() {
  auto g = std::make_unique<Graph>("kitchen_sink");
  g->mutable_style().legacy_users = true;
  g->mutable_style().module_class = "MyModule";

  Node* x = *g->AppendNamed(Spec(OpKind::kPlaceholder, "x", {}, "x"));
  x->set_meta(TensorMetaOf(DType::kFloat32, {Dim::Symbol("s0"), 4}, {4, 1}, "npu:0"));
  Node* w = *g->AppendNamed(Spec(OpKind::kGetAttr, "layer.weight", {}, "w"));
  w->set_meta(TensorMetaOf(DType::kBFloat16, {4, 4}));

  std::vector<Argument> every = {
      Argument::None(),
      Argument::Bool(true),
      Argument::Bool(false),
      Argument::Int(1),
      Argument::Float(1.0),
      Argument::Int(-7),
      Argument::Int(std::numeric_limits<int64_t>::max()),
      Argument::Int(std::numeric_limits<int64_t>::min()),
      Argument::Float(-0.0),
      Argument::Float(kInf),
      Argument::Float(-kInf),
      Argument::Float(std::nan("")),
      Argument::Float(0.1),
      Argument::Float(1e300),
      Argument::Float(1e16),
      Argument::String("hello \"world\"\n\t\\ é"),
      Argument::String(""),
      Argument::NodeRef(x),
      Argument::List({Argument::Int(1), Argument::List({Argument::NodeRef(w), Argument::Tuple({})}),
                      Argument::Tuple({Argument::Float(2.0), Argument::None()})}),
      Argument::Tuple({Argument::Tuple({Argument::NodeRef(x)}), Argument::List({})}),
      Argument::OfDType(DType::kFloat16),
      Argument::OfDType(DType::kUnknown),
      Argument::OfDevice(Device{"npu", 0}),
      Argument::OfDevice(Device{"cpu", -1}),
      Argument::OfMemoryFormat(MemoryFormat::kChannelsLast),
      Argument::OfLayout(Layout::kSparseCsr),
      Argument::Raw("<function <lambda> at 0x7f>"),
  };
  std::vector<Kwarg> kwargs = {
      {"dtype", Argument::OfDType(DType::kInt64)}, {"alpha", Argument::Float(0.5)}, {"out", Argument::NodeRef(w)}};
  Node* mm = *g->AppendNamed(Spec(OpKind::kCallFunction, "torch.ops.aten.mm.default", every, "mm", kwargs));
  NodeMeta mm_meta = TensorMetaOf(DType::kFloat32, {Dim::Symbol("2*s0"), 4});
  mm_meta.source = MetaSource::kInferred;
  mm_meta.stack_trace = "# File: model.py:12 in forward, code: return x @ w\n# second line";
  mm->set_meta(mm_meta);
  g->SetStream(mm, "s1");

  Node* split = *g->AppendNamed(
      Spec(OpKind::kCallFunction, "torch.ops.aten.split.Tensor", {Argument::NodeRef(mm), Argument::Int(2)}, "split"));
  NodeMeta tuple_meta;
  tuple_meta.kind = ValueKind::kTuple;
  tuple_meta.tensors = {TensorMeta{DType::kFloat32, {2, 4}, {}, ""}, TensorMeta{DType::kUnknown, {}, {}, ""}};
  split->set_meta(tuple_meta);
  g->SetStream(split, "s1");

  Node* size = *g->AppendNamed(
      Spec(OpKind::kCallFunction, "torch.ops.aten.sym_size.int", {Argument::NodeRef(x), Argument::Int(0)}, "sym_size"));
  NodeMeta sym;
  sym.kind = ValueKind::kSymInt;
  sym.annotation = "Sym(s0)";
  size->set_meta(sym);
  Node* method =
      *g->AppendNamed(Spec(OpKind::kCallMethod, "view", {Argument::NodeRef(mm), Argument::NodeRef(size)}, "view"));
  NodeMeta opaque;
  opaque.kind = ValueKind::kOpaque;
  opaque.annotation = "SomethingElse[1]";
  method->set_meta(opaque);
  Node* mod = *g->AppendNamed(Spec(OpKind::kCallModule, "sub.block", {Argument::NodeRef(method)}, "sub_block"));
  (void)*g->AppendNamed(
      Spec(OpKind::kOutput, "output", {Argument::Tuple({Argument::NodeRef(mod), Argument::NodeRef(split)})}, "output"));
  return g;
}

std::unique_ptr<Graph> MustParse(const std::string& text) {
  auto parsed = ParseGraphJson(text, "t.json");
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  return parsed.ok() ? std::move(parsed).value() : nullptr;
}

std::string JsonLoadError(const std::string& text) {
  auto parsed = ParseGraphJson(text, "t.json");
  EXPECT_FALSE(parsed.ok()) << text;
  return parsed.ok() ? "" : parsed.status().message();
}

TEST(GraphJsonTest, RoundTripIsLossless) {
  auto g = KitchenSink();
  ASSERT_TRUE(g->Lint().ok()) << g->Lint().message();
  std::string text = PrintGraphJson(*g);
  auto back = MustParse(text);
  ASSERT_TRUE(back);
  std::string why;
  EXPECT_TRUE(SameGraph(*g, *back, &why)) << why;
  EXPECT_EQ(back->name(), "kitchen_sink");
  EXPECT_EQ(back->style(), g->style());
  // And printing is a fixed point.
  EXPECT_EQ(PrintGraphJson(*back), text);
}

TEST(GraphJsonTest, IntsAndFloatsStayDistinct) {
  auto g = KitchenSink();
  auto back = MustParse(PrintGraphJson(*g));
  ASSERT_TRUE(back);
  const auto& args = back->Find("mm")->args();
  EXPECT_EQ(args[3].kind(), Argument::Kind::kInt);
  EXPECT_EQ(args[4].kind(), Argument::Kind::kFloat);
  EXPECT_EQ(args[4].as_float(), 1.0);
  EXPECT_TRUE(std::signbit(args[8].as_float()));
  EXPECT_EQ(args[8].as_float(), 0.0);
  EXPECT_EQ(args[9].as_float(), kInf);
  EXPECT_EQ(args[10].as_float(), -kInf);
  EXPECT_TRUE(std::isnan(args[11].as_float()));
  EXPECT_EQ(args[14].kind(), Argument::Kind::kFloat);  // 1e16 prints with an exponent
}

TEST(GraphJsonTest, PrintedFormIsStable) {
  Graph g("tiny");
  Node* x = *g.AppendNamed(Spec(OpKind::kPlaceholder, "x", {}, "x"));
  x->set_meta(TensorMetaOf(DType::kFloat32, {2, Dim::Symbol("s0")}));
  Node* add = *g.AppendNamed(Spec(OpKind::kCallFunction, "torch.ops.aten.add.Tensor",
                                  {Argument::NodeRef(x), Argument::Float(1.0)}, "add", {{"alpha", Argument::Int(1)}}));
  g.SetStream(add, "s1");
  (void)*g.AppendNamed(Spec(OpKind::kOutput, "output", {Argument::Tuple({Argument::NodeRef(add)})}, "output"));
  EXPECT_EQ(PrintGraphJson(g), R"({
  "format": "airscope-graph",
  "version": 1,
  "name": "tiny",
  "style": {
    "legacy_users": false,
    "module_class": "GraphModule"
  },
  "nodes": [
    {
      "name": "x",
      "op": "placeholder",
      "target": "x",
      "args": [],
      "kwargs": [],
      "meta": {
        "kind": "tensor",
        "source": "annotated",
        "tensors": [
          {
            "dtype": "f32",
            "sizes": [
              2,
              "s0"
            ]
          }
        ]
      }
    },
    {
      "name": "add",
      "op": "call_function",
      "target": "torch.ops.aten.add.Tensor",
      "args": [
        {
          "node": "x"
        },
        1.0
      ],
      "kwargs": [
        [
          "alpha",
          1
        ]
      ],
      "stream": "s1"
    },
    {
      "name": "output",
      "op": "output",
      "target": "output",
      "args": [
        {
          "tuple": [
            {
              "node": "add"
            }
          ]
        }
      ],
      "kwargs": []
    }
  ]
}
)");
}

TEST(GraphJsonTest, MinimalDocumentUsesDefaults) {
  auto g = MustParse(R"({"format": "airscope-graph", "version": 1, "nodes": [
      {"name": "x", "op": "placeholder", "target": "x"},
      {"name": "output", "op": "output", "target": "output", "args": [{"tuple": [{"node": "x"}]}],
       "stream": ""}]})");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->size(), 2u);
  EXPECT_EQ(g->style(), GraphStyle{});
  EXPECT_EQ(g->output()->stream(), "");
  EXPECT_TRUE(g->Lint().ok()) << g->Lint().message();
}

TEST(GraphJsonTest, VersionAndFormatAreChecked) {
  EXPECT_EQ(JsonLoadError(R"({"format": "airscope-graph", "version": 2, "nodes": []})"),
            "t.json: unsupported airscope-graph version 2 (this airscope reads 1)");
  EXPECT_NE(
      JsonLoadError(R"({"format": "other", "version": 1, "nodes": []})").find("\"format\" must be \"airscope-graph\""),
      std::string::npos);
  EXPECT_NE(JsonLoadError(R"({"version": 1, "nodes": []})").find("not an airscope graph"), std::string::npos);
  EXPECT_NE(JsonLoadError("[1, 2]").find("t.json: expected a JSON object"), std::string::npos);
}

TEST(GraphJsonTest, SyntaxErrorsNameLineAndColumn) {
  auto g = KitchenSink();
  std::string text = PrintGraphJson(*g);
  std::string truncated = text.substr(0, text.size() / 2);
  // Count where the text ends: the error points at end of input.
  size_t lines = 1, last_nl = 0;
  for (size_t i = 0; i < truncated.size(); ++i) {
    if (truncated[i] == '\n') {
      ++lines;
      last_nl = i + 1;
    }
  }
  std::string error = JsonLoadError(truncated);
  EXPECT_TRUE(error.starts_with(fmt::format("t.json:{}:{}: ", lines, truncated.size() - last_nl + 1))) << error;
  EXPECT_NE(error.find("unexpected end of input"), std::string::npos) << error;

  error = JsonLoadError("{\n  \"format\": \"airscope-graph\",\n  \"version\": 1 x\n}");
  EXPECT_TRUE(error.starts_with("t.json:3:16: ")) << error;
  EXPECT_EQ(JsonLoadError("").rfind("t.json:1:1: ", 0), 0u);
}

TEST(GraphJsonTest, SchemaErrorsNameTheNode) {
  const std::string head = R"({"format": "airscope-graph", "version": 1, "nodes": [
      {"name": "x", "op": "placeholder", "target": "x"},)";
  EXPECT_EQ(JsonLoadError(head + R"({"name": "y", "op": "call_function", "target": "f", "args": [[{"node": "z"}]]}]})"),
            "t.json: nodes[1] ('y'): args[0][0]: refers to undefined node 'z'");
  EXPECT_EQ(JsonLoadError(head + R"({"name": "y", "op": "call_function", "target": "f", "args": [{"node": "w"}]},
                              {"name": "w", "op": "call_function", "target": "f"}]})"),
            "t.json: nodes[1] ('y'): args[0]: refers to node 'w' defined later (nodes[2]); "
            "nodes must come after their inputs");
  EXPECT_NE(JsonLoadError(head + R"({"name": "y", "op": "call_fn", "target": "f"}]})")
                .find("nodes[1] ('y'): unknown op kind"),
            std::string::npos);
  EXPECT_NE(
      JsonLoadError(head + R"({"name": "y", "op": "call_function", "target": "f", "args": [{"dtype": "torch.f33"}]}]})")
          .find("nodes[1] ('y'): args[0]: unknown dtype \"torch.f33\""),
      std::string::npos);
  EXPECT_NE(JsonLoadError(head + R"({"name": "y", "op": "call_function", "target": 3}]})")
                .find("\"target\" must be a string"),
            std::string::npos);
  EXPECT_NE(
      JsonLoadError(head + R"({"name": "x", "op": "call_function", "target": "f"}]})").find("duplicate node name 'x'"),
      std::string::npos);
  EXPECT_NE(JsonLoadError(head + R"({"name": "y", "op": "call_function", "target": "f", "args": [{"float": "big"}]}]})")
                .find("\"float\" must be"),
            std::string::npos);
  EXPECT_NE(JsonLoadError(
                head + R"({"name": "y", "op": "call_function", "target": "f", "args": [{"node": "x", "raw": "x"}]}]})")
                .find("exactly one key"),
            std::string::npos);
  EXPECT_NE(JsonLoadError(head + R"({"name": "y", "op": "call_function", "target": "f",
                              "meta": {"kind": "tensor", "source": "annotated", "tensors": [{"dtype": "f32", "sizes": [1.5]}]}}]})")
                .find("nodes[1] ('y'): meta.tensors[0].sizes[0]: a dim must be"),
            std::string::npos);
  // JSON allows a key twice and readers keep one: airscope refuses rather than guess.
  EXPECT_EQ(JsonLoadError(head + R"({"name": "y", "op": "call_function", "target": "f", "target": "g"}]})"),
            "t.json: key \"target\" appears twice in one object (JSON readers keep one of them; airscope does not "
            "guess which was meant)");
  EXPECT_NE(JsonLoadError(head + R"({"name": "y", "op": "call_function", "target": "f", "colour": 1}]})")
                .find("unknown key \"colour\""),
            std::string::npos);
  EXPECT_NE(JsonLoadError(head + R"(7]})").find("t.json: nodes[1]: a node must be an object"), std::string::npos);
  EXPECT_NE(
      JsonLoadError(head + R"({"name": "y", "op": "call_function", "target": "f", "args": [18446744073709551615]}]})")
          .find("does not fit in int64"),
      std::string::npos);
}

TEST(GraphJsonTest, DeepNestingIsRefusedBeforeParsing) {
  std::string deep = R"({"format": "airscope-graph", "version": 1, "nodes": [{"name": "y", "op": "call_function",
 "target": "f", "args": )";
  deep += std::string(1000, '[') + std::string(1000, ']') + "}]}";
  std::string error = JsonLoadError(deep);
  EXPECT_TRUE(error.starts_with("t.json:2:")) << error;
  EXPECT_NE(error.find("nesting deeper than 256"), std::string::npos) << error;
  // Brackets inside strings do not count.
  auto g = MustParse(R"({"format": "airscope-graph", "version": 1, "nodes": [
      {"name": "x", "op": "placeholder", "target": ")" +
                     std::string(1000, '[') + R"("},
      {"name": "output", "op": "output", "target": "output", "args": [{"node": "x"}]}]})");
  ASSERT_TRUE(g);
  EXPECT_EQ(g->front()->target().size(), 1000u);
}

// What the writers could not write back readably is refused here (issue
// 12, item 7): a target that is no Python name, a graph without output.
TEST(GraphJsonTest, TargetsAreNamesAndAGraphHasAnOutput) {
  auto with = [](std::string_view op, std::string_view target) {
    return fmt::format(R"({{"format": "airscope-graph", "version": 1, "nodes": [
      {{"name": "x", "op": "placeholder", "target": "x"}},
      {{"name": "y", "op": "{}", "target": "{}", "args": [{{"node": "x"}}]}},
      {{"name": "output", "op": "output", "target": "output", "args": [{{"node": "y"}}]}}]}})",
                       op, target);
  };
  EXPECT_EQ(JsonLoadError(with("call_function", "my weird op!")),
            "t.json: nodes[1] ('y'): target \"my weird op!\" is not a Python callable (dotted Python names, as in "
            "torch.ops.aten.add.Tensor)");
  EXPECT_NE(JsonLoadError(with("call_method", "a..b")).find("is not a Python callable"), std::string::npos);
  EXPECT_NE(JsonLoadError(with("call_module", "layers.0.(x)")).find("is not an attribute path"), std::string::npos);
  EXPECT_TRUE(MustParse(with("call_module", "layers.0.linear")));
  EXPECT_TRUE(MustParse(with("call_function", "torch.ops.\u56fe.mul.Tensor")));  // Python 3 names may be Unicode
  EXPECT_EQ(JsonLoadError(R"({"format": "airscope-graph", "version": 1, "nodes": [
      {"name": "x", "op": "placeholder", "target": "x"}]})"),
            "t.json: no node with op \"output\": every FX graph ends with one");
}

TEST(GraphJsonTest, GarbageNeverCrashes) {
  std::string garbage;
  uint32_t state = 12345;
  for (int i = 0; i < 4096; ++i) {
    state = state * 1103515245u + 12345u;
    garbage.push_back(static_cast<char>(state >> 16));
  }
  EXPECT_FALSE(JsonLoadError(garbage).empty());
  EXPECT_FALSE(JsonLoadError(std::string("\0\0\0", 3)).empty());
  EXPECT_NE(JsonLoadError("{\"format\": \"airscope-graph\xff\"}").find("t.json:1:"), std::string::npos);
  EXPECT_FALSE(JsonLoadError("{\"format\": 1e999}").empty());

  // Every prefix of a valid document is either an error or (the whole text) a graph.
  std::string text = PrintGraphJson(*KitchenSink());
  for (size_t n = 0; n + 1 < text.size(); n += 7) {
    auto parsed = ParseGraphJson(std::string_view(text).substr(0, n), "t.json");
    EXPECT_FALSE(parsed.ok());
  }
}

}  // namespace
}  // namespace airscope

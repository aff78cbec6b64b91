#include "core/fx/readable.h"

#include "core/scanner.h"

#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace airscope {
namespace {

std::string ReadableError(std::string_view text) {
  auto g = ParseReadable(text, "r.py");
  if (g.ok()) return "<parsed>";
  return std::string(ErrorHeadline(g.status().message()));
}

TEST(Readable, ParsesEveryStatementForm) {
  std::string text =
      "class MyModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[2, 2][2, 1]cpu\",\n"
      "                s0: \"Sym(s0)\",\n"
      "                w,\n"
      "    ):\n"
      "        p: \"f32[2]\" = self.layer.weight\n"
      "\n"
      "        # File: model.py:12 in forward, code: y = x.view(-1)\n"
      "        view: \"f32[4]\" = x.view(-1);  x = None\n"
      "        size = torch.sym_size(view, 0)\n"
      "        enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['stream_1'])\n"
      "        ones: \"f16[2]\" = torch.ops.aten.ones.default([2], dtype = torch.float16, "
      "device = device(type='cuda', index=0), pin_memory = False)\n"
      "        gelu: \"weird thing\" = torch.ops.aten.gelu.default(ones, approximate = 'tanh')\n"
      "        sub = self.submod_0(gelu, p)\n"
      "        return (sub, size)\n";
  auto g = ParseReadable(text, "r.py");
  ASSERT_TRUE(g.ok()) << g.status().message();
  const Graph& graph = **g;
  EXPECT_EQ(graph.style().module_class, "MyModule");
  ASSERT_EQ(graph.Placeholders().size(), 3u);

  const Node* x = graph.Find("x");
  ASSERT_NE(x->meta(), nullptr);
  ASSERT_NE(x->meta()->tensor(), nullptr);
  EXPECT_EQ(x->meta()->tensor()->device, "cpu");
  EXPECT_EQ(x->meta()->source, MetaSource::kAnnotated);
  EXPECT_EQ(graph.Find("s0")->meta()->kind, ValueKind::kSymInt);
  EXPECT_EQ(graph.Find("s0")->meta()->annotation, "Sym(s0)");
  EXPECT_EQ(graph.Find("w")->meta(), nullptr);

  const Node* p = graph.Find("p");
  EXPECT_EQ(p->op(), OpKind::kGetAttr);
  EXPECT_EQ(p->target(), "layer.weight");

  const Node* view = graph.Find("view");
  EXPECT_EQ(view->op(), OpKind::kCallMethod);
  EXPECT_EQ(view->target(), "view");
  ASSERT_EQ(view->args().size(), 2u);
  EXPECT_EQ(view->args()[0].as_node(), x);
  EXPECT_EQ(view->args()[1].as_int(), -1);
  EXPECT_EQ(view->meta()->stack_trace, "# File: model.py:12 in forward, code: y = x.view(-1)");

  const Node* size = graph.Find("size");
  EXPECT_EQ(size->op(), OpKind::kCallFunction);
  EXPECT_EQ(size->target(), "torch.sym_size");
  EXPECT_EQ(size->meta(), nullptr);

  const Node* enter = graph.Find("enter");
  EXPECT_EQ(enter->target(), "torch.ops.air.scope_enter.default");
  EXPECT_EQ(enter->args()[0].items()[0].as_string(), "_user_stream_label");

  const Node* ones = graph.Find("ones");
  EXPECT_EQ(ones->kwarg("dtype")->as_dtype(), DType::kFloat16);
  EXPECT_EQ(ones->kwarg("device")->as_device(), (Device{"cuda", 0}));
  EXPECT_FALSE(ones->kwarg("pin_memory")->as_bool());

  const Node* gelu = graph.Find("gelu");
  EXPECT_EQ(gelu->kwarg("approximate")->as_string(), "tanh");
  EXPECT_EQ(gelu->meta()->kind, ValueKind::kOpaque);
  EXPECT_EQ(gelu->meta()->annotation, "weird thing");

  const Node* sub = graph.Find("sub");
  EXPECT_EQ(sub->op(), OpKind::kCallModule);
  EXPECT_EQ(sub->target(), "submod_0");

  const Node* out = graph.output();
  EXPECT_EQ(out->name(), "output");
  EXPECT_EQ(out->args()[0].kind(), Argument::Kind::kTuple);
  EXPECT_TRUE(graph.Lint().ok()) << graph.Lint().message();

  // Printed in torch 2.x's layout: one-line signature, no deletion statements.
  std::string expected =
      "class MyModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[2, 2][2, 1]cpu\", s0: \"Sym(s0)\", w):\n"
      "        p: \"f32[2]\" = self.layer.weight\n"
      "\n"
      "        # File: model.py:12 in forward, code: y = x.view(-1)\n"
      "        view: \"f32[4]\" = x.view(-1)\n"
      "        size = torch.sym_size(view, 0)\n"
      "        enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['stream_1'])\n"
      "        ones: \"f16[2]\" = torch.ops.aten.ones.default([2], dtype = torch.float16, "
      "device = device(type='cuda', index=0), pin_memory = False)\n"
      "        gelu: \"weird thing\" = torch.ops.aten.gelu.default(ones, approximate = 'tanh')\n"
      "        sub = self.submod_0(gelu, p)\n"
      "        return (sub, size)\n";
  std::string printed = PrintReadable(graph);
  EXPECT_EQ(printed, expected);
  auto again = ParseReadable(printed, "printed.py");
  ASSERT_TRUE(again.ok()) << again.status().message();
  std::string why;
  EXPECT_TRUE(SameGraph(graph, **again, &why)) << why;
}

TEST(Readable, StackTraceWithoutAnnotationIsOpaqueMeta) {
  std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x):\n"
      "        # No stacktrace found for following nodes\n"
      "        relu = torch.ops.aten.relu.default(x)\n"
      "        return relu\n";
  auto g = ParseReadable(text, "r.py");
  ASSERT_TRUE(g.ok()) << g.status().message();
  const NodeMeta* meta = (*g)->Find("relu")->meta();
  ASSERT_NE(meta, nullptr);
  EXPECT_EQ(meta->kind, ValueKind::kOpaque);
  EXPECT_TRUE(meta->annotation.empty());
  EXPECT_EQ(meta->stack_trace, "# No stacktrace found for following nodes");
  EXPECT_EQ(PrintReadable(**g),
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, x):\n"
            "\n"
            "        # No stacktrace found for following nodes\n"
            "        relu = torch.ops.aten.relu.default(x)\n"
            "        return relu\n");
}

// torch 2.0/2.1 print_readable wrote the verbose annotations unquoted
// (torch/fx/graph.py emit_node: f': {dtype_abbrs[dtype]}{stringify_shape(shape)}'
// and f': Sym({expr})'); they mean what the quoted form means.
TEST(Readable, UnquotedAnnotationsOfTorch21MeanTheQuotedOnes) {
  const std::string unquoted =
      "class <lambda>(torch.nn.Module):\n"
      "    def forward(self, arg0_1: f32[s0, 3], arg1_1: Sym(s0), arg2_1: i64[]):\n"
      "        sym_size: Sym(s0) = torch.ops.aten.sym_size(arg0_1, 0)\n"
      "        gt: Sym(s0 > 4) = sym_size > 4;  sym_size = None\n"
      "        add: f32[s0, 3] = torch.ops.aten.add.Tensor(arg0_1, arg0_1);  arg0_1 = None\n"
      "        return (add, gt, arg2_1)\n";
  const std::string quoted =
      "class <lambda>(torch.nn.Module):\n"
      "    def forward(self, arg0_1: \"f32[s0, 3]\", arg1_1: \"Sym(s0)\", arg2_1: \"i64[]\"):\n"
      "        sym_size: \"Sym(s0)\" = torch.ops.aten.sym_size(arg0_1, 0)\n"
      "        gt: \"Sym(s0 > 4)\" = sym_size > 4;  sym_size = None\n"
      "        add: \"f32[s0, 3]\" = torch.ops.aten.add.Tensor(arg0_1, arg0_1);  arg0_1 = None\n"
      "        return (add, gt, arg2_1)\n";
  auto a = ParseReadable(unquoted, "u.py");
  auto b = ParseReadable(quoted, "q.py");
  ASSERT_TRUE(a.ok()) << a.status().message();
  ASSERT_TRUE(b.ok()) << b.status().message() << "\n" << quoted;
  EXPECT_EQ(PrintReadable(**a), PrintReadable(**b));
  const Node* add = (*a)->Find("add");
  ASSERT_NE(add->meta(), nullptr);
  ASSERT_NE(add->meta()->tensor(), nullptr);
  EXPECT_EQ(add->meta()->tensor()->ShapeString(), "f32[s0, 3]");
  EXPECT_EQ((*a)->Find("arg1_1")->meta()->kind, ValueKind::kSymInt);
  EXPECT_EQ((*a)->Find("gt")->meta()->annotation, "Sym(s0 > 4)");
  ASSERT_NE((*a)->Find("arg2_1")->meta()->tensor(), nullptr);

  // A damaged one is refused where it is, as a quoted one is.
  auto bad = ParseReadable("def forward(self, x: f32[2, 2):\n    return (x,)\n", "bad.py");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.py:1:"), std::string::npos) << bad.status().message();
}

// An annotation spelled otherwise than torch prints it (a hand-edited
// "f32[2,3]") is still a shape: it was kept as opaque text before, so the
// node lost its shape and inference never compared it. Written back as torch
// spells it.
TEST(Readable, AnAnnotationSpelledOtherwiseIsStillAShape) {
  auto g = ParseReadable(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[2,3]\"):\n"
      "        y: \"f32[2,3]\" = torch.ops.aten.neg.default(x)\n"
      "        return (y,)\n",
      "spelled.py");
  ASSERT_TRUE(g.ok()) << g.status().message();
  ASSERT_NE((*g)->Find("y")->meta()->tensor(), nullptr);
  EXPECT_EQ((*g)->Find("y")->meta()->tensor()->ShapeString(), "f32[2, 3]");
  EXPECT_NE(PrintReadable(**g).find("y: \"f32[2, 3]\" = torch.ops.aten.neg.default(x)"), std::string::npos)
      << PrintReadable(**g);
  // A device without strides is written with them (torch's form): the node
  // holds what that form reads as, so writing and reading again is the same
  // graph (a fuzz-found case: "f32[4, 4]1e17").
  auto dev = ParseReadable(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[4, 4]npu\"):\n"
      "        y: \"f32[4, 4]npu\" = torch.ops.aten.neg.default(x)\n"
      "        return (y,)\n",
      "device.py");
  ASSERT_TRUE(dev.ok()) << dev.status().message();
  auto again = ParseReadable(PrintReadable(**dev), "again.py");
  ASSERT_TRUE(again.ok()) << again.status().message();
  EXPECT_TRUE(SameGraph(**dev, **again)) << PrintReadable(**dev);
}

TEST(Readable, OperatorCallsAreWrittenAsTorchWritesThemAndReadBack) {
  // torch/fx/graph.py magic_methods: a call of an `operator` function is written as the operator.
  const std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, s0: \"Sym(s0)\", x: \"f32[s0]\"):\n"
      "        mul: \"Sym(2*s0)\" = 2 * s0\n"
      "        neg = -s0\n"
      "        invert = ~s0\n"
      "        floordiv = s0 // 32\n"
      "        lt = s0 < mul\n"
      "        pow_1 = neg ** 2\n"
      "        return (x, mul, neg, invert, floordiv, lt, pow_1)\n";
  auto g = ParseReadable(text, "ops.py");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ((*g)->Find("mul")->target(), "operator.mul");
  EXPECT_EQ((*g)->Find("neg")->target(), "operator.neg");
  ASSERT_EQ((*g)->Find("neg")->args().size(), 1u);
  EXPECT_EQ((*g)->Find("invert")->target(), "operator.invert");
  EXPECT_EQ((*g)->Find("pow_1")->target(), "operator.pow");
  EXPECT_EQ(PrintReadable(**g), text);
  // A name that is no node after a unary operator is an error at the name.
  auto bad = ParseReadable(
      "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        neg = -nosuch\n        return (neg,)\n",
      "bad.py");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.py:3:16: 'nosuch' is not a node defined above"), std::string::npos)
      << bad.status().message();
}

TEST(ReadableErrors, QuoteTheLineWithACaret) {
  auto g = ParseReadable("class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        y = f(z)\n", "r.py");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().message(),
            "r.py:3:15: name 'z' used before definition\n"
            "            y = f(z)\n"
            "                  ^");
}

TEST(ReadableErrors, LocatedMessages) {
  EXPECT_EQ(ReadableError(""), "r.py:1:1: empty file");
  EXPECT_EQ(ReadableError("def forward(self):\n"), "r.py:1:1: expected 'class GraphModule(torch.nn.Module):'");
  EXPECT_EQ(ReadableError("class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        y = f(z)\n"),
            "r.py:3:15: name 'z' used before definition");
  EXPECT_EQ(ReadableError("class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        x = f(x)\n"
                          "        return x\n"),
            "r.py:3:9: duplicate node name 'x'");
  EXPECT_EQ(ReadableError("class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        y = f(x, [1, 2)\n"),
            "r.py:3:23: mismatched ')': expected ']' to close '[' at column 18");
  EXPECT_EQ(ReadableError("class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        y = f(x)\n"),
            "r.py:4:1: expected a 'return' line before the end of the file (truncated?)");
  EXPECT_EQ(ReadableError("class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        y = 3\n"),
            "r.py:3:13: expected a call or 'self.attribute' after '='");
  EXPECT_EQ(ReadableError("class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        y = f('abc)\n"),
            "r.py:3:15: unterminated string (expected a closing ')");
  std::string deep = "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        return " +
                     std::string(10000, '(') + std::string(10000, ')') + "\n";
  EXPECT_EQ(ReadableError(deep), "r.py:3:528: nesting deeper than 512 levels");
  std::string garbage = "class GraphModule(torch.nn.Module):\n\x80\x81";
  EXPECT_EQ(ReadableError(garbage), "r.py:2:1: invalid UTF-8 byte 0x80: this is not a text file");
}

// A tensor annotation that does not describe a tensor is refused where it
// goes wrong (these loaded as "annotated" with no size, or a negative one).
TEST(ReadableErrors, DamagedTensorAnnotations) {
  auto with = [](std::string_view annotation) {
    return fmt::format("class GraphModule(torch.nn.Module):\n    def forward(self, x: \"{}\"):\n        return (x,)\n",
                       annotation);
  };
  EXPECT_EQ(ReadableError(with("f32[-2, 4]")), "r.py:2:31: bad tensor annotation: negative size -2");
  // At the size that takes the element count past int64.
  EXPECT_EQ(ReadableError(with("f32[3037000500, 3037000500]")),
            "r.py:2:43: bad tensor annotation: f32[3037000500, 3037000500] has more elements than int64 counts (at "
            "size 3037000500 of dim 1)");
  EXPECT_EQ(ReadableError(with("f32[256,:=x]")),
            "r.py:2:35: bad tensor annotation: ':=x' is neither a size nor a symbolic expression");
  // Symbolic sizes and annotations that are not tensors still load.
  EXPECT_EQ(ReadableError(with("f32[s0, Mod(s1, 2) + 1]")), "<parsed>");
  EXPECT_EQ(ReadableError(with("Sym(s0)")), "<parsed>");
}

// An argument that is an expression over a node was kept as raw text and
// its edge lost, so dce erased the producer (issue 12, item 4). torch gives
// every value a line of its own; these are refused where they start.
TEST(ReadableErrors, ExpressionsOverNodesAreRefusedNotKeptAsText) {
  auto with = [](std::string_view argument) {
    return fmt::format(
        "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n"
        "        mm = torch.ops.aten.mm.default(x, x)\n"
        "        y = torch.ops.aten.relu.default({})\n        return (y,)\n",
        argument);
  };
  const std::string tail =
      "torch writes every value on a line of its own, so an argument is a name or a literal "
      "(as raw text its edge to 'mm' would be lost)";
  EXPECT_EQ(ReadableError(with("-mm")), "r.py:4:42: '-mm' is an expression over node 'mm': " + tail);
  EXPECT_EQ(ReadableError(with("mm[0]")), "r.py:4:41: 'mm[0]' is an expression over node 'mm': " + tail);
  EXPECT_EQ(ReadableError(with("mm + mm")), "r.py:4:41: 'mm + mm' is an expression over node 'mm': " + tail);
  EXPECT_EQ(ReadableError(with("mm.T")), "r.py:4:41: 'mm.T' is an expression over node 'mm': " + tail);
  EXPECT_EQ(ReadableError(with("f(mm)")), "r.py:4:43: 'f(mm)' is an expression over node 'mm': " + tail);
  // Raw text that uses no node still loads: slice(...) even beside a node named slice.
  EXPECT_EQ(ReadableError("class GraphModule(torch.nn.Module):\n    def forward(self, x):\n"
                          "        slice = torch.ops.aten.slice.Tensor(x, 0, 0, 2)\n"
                          "        y = torch.ops.aten.index.Tensor(slice, [slice(None, None, None), 'mm'])\n"
                          "        return (y,)\n"),
            "<parsed>");
}

// Found by fuzz_readable's round-trip property: `mul: ""` loaded as an
// annotated node with an empty opaque annotation, which the writer printed
// as no annotation, so the graph read back differently.
TEST(Readable, AnEmptyAnnotationIsNoAnnotation) {
  auto graph = ParseReadable(
      "class GraphModule(torch.nn.Module):\n    def forward(self, x: \"f32[4]\"):\n"
      "        mul: \"\" = torch.ops.aten.mul.Tensor(x, 2)\n        return (mul,)\n",
      "r.py");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ((*graph)->Find("mul")->meta(), nullptr);
  auto back = ParseReadable(PrintReadable(**graph), "r.py");
  ASSERT_TRUE(back.ok()) << back.status().message();
  std::string why;
  EXPECT_TRUE(SameGraph(**graph, **back, &why)) << why;
}

// Found by fuzz_readable: `return (text;with;semicolons)` read as raw text,
// which printed as `return text;with;...` and read back cut at the `;`. A
// graph returns nodes, literals and tuples of them; anything else is refused.
TEST(ReadableErrors, AReturnedValueThatIsNotNodesOrLiteralsIsRefused) {
  EXPECT_EQ(ReadableError("class GraphModule(torch.nn.Module):\n    def forward(self, x):\n"
                          "        y = torch.ops.aten.relu.default(x)\n        return (y_:::;:::9)\n"),
            "r.py:4:16: the returned value is not nodes, literals or a tuple of them");
  EXPECT_EQ(ReadableError("class GraphModule(torch.nn.Module):\n    def forward(self, x):\n"
                          "        y = torch.ops.aten.relu.default(x)\n        return (y, None, 2, inf)\n"),
            "<parsed>");
}

// Found by fuzz_readable: a line of spaces and a tab threw std::out_of_range.
TEST(ReadableErrors, ALineOfSpacesAndATabIsBlank) {
  EXPECT_EQ(ReadableError("     \t\n b"), "r.py:2:2: expected 'class GraphModule(torch.nn.Module):'");
}

TEST(Readable, AParenthesizedNameIsTheNameNotATuple) {
  auto graph = ParseReadable(
      "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n"
      "        y = torch.ops.aten.relu.default((x))\n"
      "        z = torch.ops.aten.cat.default((x,))\n        return (y, z)\n",
      "r.py");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  const Node* y = (*graph)->Find("y");
  ASSERT_EQ(y->args().size(), 1u);
  EXPECT_TRUE(y->args()[0].is_node());
  EXPECT_EQ(y->args()[0].as_node()->name(), "x");
  const Node* z = (*graph)->Find("z");
  EXPECT_EQ(z->args()[0].kind(), Argument::Kind::kTuple);
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

// Forms real torch output uses beyond print_readable of AOT graphs: Dynamo's
// placeholder renames, subscript getitem (torch >= 2.4), nested submodule
// classes of higher-order ops, unquoted type annotations and Python operators.
TEST(ReadableDynamoTest, PlaceholderRenameRoundTrips) {
  const std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_x_: \"f32[4, 4][4, 1]cuda:0\"):\n"
      "        l_x_ = L_x_\n"
      "        out: \"f32[4, 4][4, 1]cuda:0\" = torch._C._nn.gelu(l_x_);  l_x_ = None\n"
      "        return (out,)\n";
  auto graph = ParseReadable(text, "dyn.py");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  const Node* x = (*graph)->Find("l_x_");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->op(), OpKind::kPlaceholder);
  EXPECT_EQ(x->target(), "L_x_");
  EXPECT_EQ((*graph)->size(), 3u);
  EXPECT_EQ(PrintReadable(**graph),
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, L_x_: \"f32[4, 4][4, 1]cuda:0\"):\n"
            "        l_x_ = L_x_\n"
            "        out: \"f32[4, 4][4, 1]cuda:0\" = torch._C._nn.gelu(l_x_)\n"
            "        return (out,)\n");
}

TEST(ReadableDynamoTest, SubscriptGetitemAndNestedClassesRoundTrip) {
  const std::string text =
      "class <lambda>(torch.nn.Module):\n"
      "    def forward(self, arg0_1: \"f32[2, 8]\"):\n"
      "        score0 = self.score0\n"
      "        split = torch.ops.aten.split.Tensor(arg0_1, 4, 1)\n"
      "        getitem: \"f32[2, 4]\" = split[0]\n"
      "        getitem_1: \"f32[2, 4]\" = split[1];  split = None\n"
      "        return (getitem, getitem_1)\n"
      "    class score0(torch.nn.Module):\n"
      "        def forward(self, arg0_1: \"f32[][]cuda:0\"):\n"
      "            return arg0_1\n";
  auto graph = ParseReadable(text, "hop.py");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  const Node* item = (*graph)->Find("getitem_1");
  ASSERT_NE(item, nullptr);
  EXPECT_EQ(item->target(), "operator.getitem");
  EXPECT_EQ(item->args()[1].as_int(), 1);
  EXPECT_EQ((*graph)->style().module_class, "<lambda>");
  std::string printed = PrintReadable(**graph);
  EXPECT_NE(printed.find("getitem_1: \"f32[2, 4]\" = split[1]\n"), std::string::npos) << printed;
  EXPECT_NE(printed.find("    class score0(torch.nn.Module):\n"), std::string::npos) << printed;
  auto again = ParseReadable(printed, "hop2.py");
  ASSERT_TRUE(again.ok()) << again.status().message();
  std::string why;
  EXPECT_TRUE(SameGraph(**graph, **again, &why)) << why;
  EXPECT_EQ(PrintReadable(**again), printed);
}

TEST(ReadableDynamoTest, UnquotedTypesMethodsAndOperators) {
  const std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_x_ : torch.Tensor, L_y_ : torch.Tensor):\n"
      "        l_x_ = L_x_\n"
      "        l_y_ = L_y_\n"
      "        cos = l_x_.cos();  l_x_ = None\n"
      "        mul = cos * l_y_;  cos = l_y_ = None\n"
      "        add = mul + 1.5;  mul = None\n"
      "        return (add,)\n";
  auto graph = ParseReadable(text, "ops.py");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  EXPECT_EQ((*graph)->Find("cos")->op(), OpKind::kCallMethod);
  EXPECT_EQ((*graph)->Find("mul")->target(), "operator.mul");
  EXPECT_EQ((*graph)->Find("add")->target(), "operator.add");
  EXPECT_EQ((*graph)->Find("add")->args()[1].as_float(), 1.5);
  EXPECT_EQ(OpHistogramKey(*(*graph)->Find("mul")), "<built-in function mul>");
  auto bad = ParseReadable(
      "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        y = x ~~ 2\n        return (y,)\n",
      "bad.py");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("bad.py:3:15: unsupported operator '~~'"), std::string::npos)
      << bad.status().message();
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

// One annotation text is parsed once: every node without `# File:` comments
// that repeats it shares the first one's meta (a 1M-node graph has a few
// hundred distinct annotations). A node with comments keeps its own.
TEST(ReadableSharedMetaTest, NodesWithTheSameAnnotationShareOneMeta) {
  std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[4, 8]\", y: \"f32[4, 8]\"):\n"
      "        relu: \"f32[4, 8]\" = torch.ops.aten.relu.default(x)\n"
      "        # File: m.py:3 in forward, code: return y.neg()\n"
      "        neg: \"f32[4, 8]\" = torch.ops.aten.neg.default(y)\n"
      "        sym: \"Sym(s0)\" = torch.ops.aten.sym_size.int(x, 0)\n"
      "        sym_1: \"Sym(s0)\" = torch.ops.aten.sym_size.int(y, 0)\n"
      "        esc: \"f32[4, \\x38]\" = torch.ops.aten.abs.default(relu)\n"
      "        return (relu, neg, sym, sym_1, esc)\n";
  auto g = ParseReadable(text, "r.py");
  ASSERT_TRUE(g.ok()) << g.status().message();
  const Graph& graph = **g;
  const NodeMeta* x = graph.Find("x")->meta();
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(graph.Find("y")->meta(), x);
  EXPECT_EQ(graph.Find("relu")->meta(), x);
  EXPECT_EQ(graph.Find("esc")->meta(), x);  // "\x38" is "8": the same text once unescaped
  const NodeMeta* neg = graph.Find("neg")->meta();
  ASSERT_NE(neg, nullptr);
  EXPECT_NE(neg, x);
  EXPECT_EQ(neg->stack_trace, "# File: m.py:3 in forward, code: return y.neg()");
  ASSERT_NE(neg->tensor(), nullptr);
  EXPECT_EQ(neg->tensor()->ShapeString(), "f32[4, 8]");
  EXPECT_EQ(graph.Find("sym")->meta(), graph.Find("sym_1")->meta());
  EXPECT_EQ(graph.Find("sym")->meta()->annotation, "Sym(s0)");
}

// A damaged annotation is refused wherever it is, also after well-formed
// ones were read (only a text read well-formed before skips the check).
TEST(ReadableSharedMetaTest, ABadAnnotationAfterGoodOnesIsStillRefused) {
  std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[4, 8]\"):\n"
      "        relu: \"f32[4, 8]\" = torch.ops.aten.relu.default(x)\n"
      "        neg: \"f32[4, -8]\" = torch.ops.aten.neg.default(relu)\n"
      "        return neg\n";
  EXPECT_EQ(ReadableError(text), "r.py:4:22: bad tensor annotation: negative size -8");
}

std::string ReluChainText(int length, bool with_return) {
  std::string text = "class GraphModule(torch.nn.Module):\n    def forward(self, x: \"f32[4]\"):\n";
  std::string prev = "x";
  for (int i = 0; i < length; ++i) {
    std::string name = fmt::format("relu_{}", i);
    text += fmt::format("        {}: \"f32[4]\" = torch.ops.aten.relu.default({})\n", name, prev);
    prev = name;
  }
  if (with_return) text += fmt::format("        return {}\n", prev);
  return text;
}

// A loader may free the text the parser says it is done with (the pages of
// a big file, FileText::ReleaseBefore); the parser must never read it
// again, errors found at the end included.
TEST(ReadableReleaseTest, NeverReadsReleasedTextAndErrorsStillSayWhere) {
  constexpr int kLength = 200000;
  std::string text;
  size_t released = 0;
  auto scribble = [&](size_t offset) {
    ASSERT_GE(offset, released);
    std::fill(text.begin() + static_cast<long>(released), text.begin() + static_cast<long>(offset), '\0');
    released = offset;
  };
  // No `return` line: the error is found at the end, after much was released.
  text = ReluChainText(kLength, false);
  auto truncated = ParseReadable(text, "big.py", scribble);
  ASSERT_FALSE(truncated.ok());
  EXPECT_GT(released, 0u);
  EXPECT_EQ(ErrorHeadline(truncated.status().message()),
            fmt::format("big.py:{}:1: expected a 'return' line before the end of the file (truncated?)", kLength + 3));

  text = ReluChainText(kLength, true);
  released = 0;
  auto whole = ParseReadable(text, "big.py", scribble);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  EXPECT_GT(released, 0u);
  EXPECT_EQ((*whole)->size(), size_t{kLength} + 2);
  EXPECT_EQ((*whole)->Find("relu_199999")->tensor()->ShapeString(), "f32[4]");
}

}  // namespace
}  // namespace airscope

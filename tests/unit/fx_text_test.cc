#include "core/fx/fx_text.h"

#include "core/scanner.h"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace airscope {
namespace {

constexpr std::string_view kSmall =
    "graph():\n"
    "    %x : [num_users=1] = placeholder[target=x]\n"
    "    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %x), kwargs = {})\n"
    "    return (mm,)";

// The error's headline ("t.txt:LINE:COL: message"); the quoted line and
// caret under it are checked in FxTextErrors.QuotesTheLineWithACaret.
std::string FxTextError(std::string_view text) {
  auto g = ParseFxText(text, "t.txt");
  if (g.ok()) return "<parsed>";
  return std::string(ErrorHeadline(g.status().message()));
}

TEST(FxText, ParsesNodesArgsAndOutput) {
  auto g = ParseFxText(kSmall, "t.txt");
  ASSERT_TRUE(g.ok()) << g.status().message();
  ASSERT_EQ((*g)->size(), 3u);
  Node* mm = (*g)->Find("mm");
  ASSERT_NE(mm, nullptr);
  EXPECT_EQ(mm->op(), OpKind::kCallFunction);
  EXPECT_EQ(mm->target(), "torch.ops.aten.mm.default");
  ASSERT_EQ(mm->args().size(), 2u);
  EXPECT_EQ(mm->args()[0].as_node()->name(), "x");
  Node* out = (*g)->output();
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->name(), "output");
  EXPECT_EQ(out->target(), "output");
  ASSERT_EQ(out->args()[0].kind(), Argument::Kind::kTuple);
  EXPECT_EQ(out->args()[0].items()[0].as_node(), mm);
  EXPECT_FALSE((*g)->style().legacy_users);
  EXPECT_EQ(PrintFxText(**g), kSmall);
}

TEST(FxText, LiteralKinds) {
  std::string text =
      "graph():\n"
      "    %x : [#users=3] = placeholder[target=x](default=1.5)\n"
      "    %a : [#users=0] = call_function[target=f](args = (%x, 1e-05, -inf, inf, nan, None, True, 12, "
      "99999999999999999999999, [1, [2, (3,)]], (), torch.float16, 'q'), kwargs = {approximate: tanh, device: cpu, "
      "dev2: npu:0, memory_format: torch.contiguous_format, layout: torch.strided, d: {1: 2}, g: <fn at 0x1>})\n"
      "    %b : torch.Tensor [#users=0] = call_method[target=view](args = (%x, -1), kwargs = {})\n"
      "    %c : [#users=0] = call_module[target=sub.mod](args = (%x,), kwargs = {})\n"
      "    return None";
  auto g = ParseFxText(text, "t.txt");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_TRUE((*g)->style().legacy_users);
  Node* a = (*g)->Find("a");
  const auto& args = a->args();
  ASSERT_EQ(args.size(), 13u);
  EXPECT_EQ(args[1].as_float(), 1e-05);
  EXPECT_TRUE(std::isinf(args[2].as_float()) && args[2].as_float() < 0);
  EXPECT_TRUE(std::isinf(args[3].as_float()) && args[3].as_float() > 0);
  EXPECT_TRUE(std::isnan(args[4].as_float()));
  EXPECT_TRUE(args[5].is_none());
  EXPECT_TRUE(args[6].as_bool());
  EXPECT_EQ(args[7].as_int(), 12);
  EXPECT_EQ(args[8].kind(), Argument::Kind::kRaw);
  EXPECT_EQ(args[9].kind(), Argument::Kind::kList);
  EXPECT_EQ(args[9].items()[1].items()[1].kind(), Argument::Kind::kTuple);
  EXPECT_EQ(args[10].kind(), Argument::Kind::kTuple);
  EXPECT_EQ(args[11].as_dtype(), DType::kFloat16);
  EXPECT_EQ(args[12].kind(), Argument::Kind::kRaw);  // quotes are not FX text's; kept verbatim
  EXPECT_EQ(a->kwarg("approximate")->as_string(), "tanh");
  EXPECT_EQ(a->kwarg("device")->as_device().type, "cpu");
  EXPECT_EQ(a->kwarg("dev2")->as_device().index, 0);
  EXPECT_EQ(a->kwarg("memory_format")->as_memory_format(), MemoryFormat::kContiguous);
  EXPECT_EQ(a->kwarg("layout")->as_layout(), Layout::kStrided);
  EXPECT_EQ(a->kwarg("d")->kind(), Argument::Kind::kRaw);
  EXPECT_EQ(a->kwarg("g")->as_string(), "<fn at 0x1>");
  EXPECT_EQ((*g)->Find("b")->op(), OpKind::kCallMethod);
  EXPECT_EQ((*g)->Find("c")->target(), "sub.mod");
  EXPECT_TRUE((*g)->output()->args()[0].is_none());
  EXPECT_EQ((*g)->Find("x")->args()[0].as_float(), 1.5);
  // Printing drops only the ignored type annotation.
  std::string expected = text;
  expected.replace(expected.find("%b : torch.Tensor ["), 19, "%b : [");
  EXPECT_EQ(PrintFxText(**g), expected);
}

TEST(FxText, ReturnForms) {
  auto make = [](std::string_view ret) {
    return fmt::format(
        "graph():\n    %x : [num_users=1] = placeholder[target=x]\n    %y : [num_users=1] = "
        "placeholder[target=y]\n    return {}",
        ret);
  };
  for (std::string_view ret : {"(x, y)", "[x, y]"}) {
    auto g = ParseFxText(make(ret), "t.txt");
    ASSERT_TRUE(g.ok()) << g.status().message();
    EXPECT_EQ(PrintFxText(**g), make(ret));
  }
  auto bare = ParseFxText("graph():\n    %x : [num_users=1] = placeholder[target=x]\n    return x", "t.txt");
  ASSERT_TRUE(bare.ok()) << bare.status().message();
  EXPECT_TRUE((*bare)->output()->args()[0].is_node());
}

TEST(FxText, BlankLinesAndCrlfAreTolerated) {
  std::string text = "graph():\r\n\r\n    %x : [num_users=1] = placeholder[target=x]\r\n    \r\n    return (x,)\r\n";
  auto g = ParseFxText(text, "t.txt");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ((*g)->size(), 2u);
}

TEST(FxTextErrors, EmptyAndMissingHeader) {
  EXPECT_EQ(FxTextError(""), "t.txt:1:1: empty file");
  EXPECT_EQ(FxTextError("\n  \n"), "t.txt:1:1: empty file");
  EXPECT_EQ(FxTextError("    %x : [num_users=0] = placeholder[target=x]\n"),
            "t.txt:1:1: expected the 'graph():' header line");
}

TEST(FxTextErrors, Truncated) {
  std::string text(kSmall);
  // Cut in the middle of the mm line.
  std::string cut = text.substr(0, text.find("kwargs"));
  EXPECT_EQ(FxTextError(cut), "t.txt:3:90: expected ', kwargs = {' after the args tuple");
  // Cut at a line boundary: no return line.
  std::string no_return = text.substr(0, text.find("    return"));
  EXPECT_EQ(FxTextError(no_return), "t.txt:4:1: expected a 'return' line before the end of the file (truncated?)");
  // Cut inside the args tuple.
  std::string in_args = text.substr(0, text.find("%x), kwargs") + 2);
  EXPECT_EQ(FxTextError(in_args), "t.txt:3:82: unclosed '(' (expected ')' before the end of the line)");
}

TEST(FxTextErrors, QuotesTheLineWithACaret) {
  auto g = ParseFxText("graph():\n    %x [num_users=0] = placeholder[target=x]\n    return None", "t.txt");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.status().message(),
            "t.txt:2:7: expected ' : ' after the node name\n"
            "        %x [num_users=0] = placeholder[target=x]\n"
            "          ^");
  // The users check runs after the whole text is read and still quotes the node's line.
  auto users = ParseFxText("graph():\n    %x : [num_users=3] = placeholder[target=x]\n    return x", "t.txt");
  ASSERT_FALSE(users.ok());
  EXPECT_EQ(users.status().message(),
            "t.txt:2:21: node 'x' is annotated with 3 users but 1 node(s) use it\n"
            "        %x : [num_users=3] = placeholder[target=x]\n"
            "                        ^");
}

TEST(FxTextErrors, GarbageBytes) {
  std::string nul = "graph():\n    %x : [num_users=0] = place";
  nul.push_back('\0');
  nul += "holder[target=x]\n    return None";
  EXPECT_EQ(FxTextError(nul), "t.txt:2:31: NUL byte: this is not a text file");
  std::string bad_utf8 = "graph():\n    %x\xff\xfe : [num_users=0]";
  EXPECT_EQ(FxTextError(bad_utf8), "t.txt:2:7: invalid UTF-8 byte 0xff: this is not a text file");
  std::string random;
  for (int i = 0; i < 4096; ++i) random.push_back(static_cast<char>((i * 7919 + 13) % 256));
  std::string message = FxTextError(random);
  EXPECT_NE(message, "<parsed>");
  EXPECT_EQ(message.rfind("t.txt:", 0), 0u) << message;
}

TEST(FxTextErrors, UseBeforeDefinition) {
  std::string text =
      "graph():\n"
      "    %y : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    return y";
  EXPECT_EQ(FxTextError(text), "t.txt:2:84: name 'x' used before definition");
  EXPECT_EQ(FxTextError("graph():\n    return nope"), "t.txt:2:12: name 'nope' used before definition");
}

TEST(FxTextErrors, DuplicateName) {
  std::string text =
      "graph():\n"
      "    %x : [num_users=0] = placeholder[target=x]\n"
      "    %x : [num_users=0] = placeholder[target=x]\n"
      "    return None";
  EXPECT_EQ(FxTextError(text), "t.txt:3:6: duplicate node name 'x'");
}

TEST(FxTextErrors, WrongUsersCount) {
  std::string text =
      "graph():\n"
      "    %x : [num_users=3] = placeholder[target=x]\n"
      "    %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %x), kwargs = {})\n"
      "    return (mm,)";
  EXPECT_EQ(FxTextError(text), "t.txt:2:21: node 'x' is annotated with 3 users but 1 node(s) use it");
}

// A count no graph can reach is refused where it is written (the per-node
// record keeps 32 bits of it).
TEST(FxTextErrors, UsersCountBeyondAnyGraph) {
  EXPECT_EQ(FxTextError("graph():\n    %x : [num_users=4294967296] = placeholder[target=x]\n    return None"),
            "t.txt:2:21: 4294967296 users is more than a graph can have");
}

TEST(FxTextErrors, UnknownOpcodeAndSyntax) {
  EXPECT_EQ(FxTextError("graph():\n    %x : [num_users=0] = call_something[target=x]\n    return None"),
            "t.txt:2:26: unknown op kind 'call_something' (expected placeholder, get_attr, call_function, "
            "call_method or call_module)");
  EXPECT_EQ(FxTextError("graph():\n    %x : [num_users=0] placeholder[target=x]\n    return None"),
            "t.txt:2:23: expected '=' after the users annotation");
  EXPECT_EQ(FxTextError("graph():\n    %x [num_users=0] = placeholder[target=x]\n    return None"),
            "t.txt:2:7: expected ' : ' after the node name");
  EXPECT_EQ(FxTextError("graph():\n    x : [num_users=0] = placeholder[target=x]\n    return None"),
            "t.txt:2:5: expected '%name : ...' or 'return ...'");
  EXPECT_EQ(FxTextError("graph():\n    return None\n    %x : [num_users=0] = placeholder[target=x]"),
            "t.txt:3:5: unexpected text after the 'return' line");
}

TEST(FxTextErrors, UnclosedBracket) {
  std::string text =
      "graph():\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    %v : [num_users=1] = call_function[target=torch.ops.aten.view.default](args = (%x, [1, 2), kwargs = {})\n"
      "    return v";
  EXPECT_EQ(FxTextError(text), "t.txt:3:93: mismatched ')': expected ']' to close '[' at column 88");
  std::string open_end =
      "graph():\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    %v : [num_users=1] = call_function[target=f](args = (%x, [1, 2, kwargs = {})\n"
      "    return v";
  EXPECT_EQ(FxTextError(open_end), "t.txt:3:80: mismatched ')': expected ']' to close '[' at column 62");
}

TEST(FxTextErrors, DeepNestingIsAnErrorNotACrash) {
  std::string deep(10000, '[');
  deep += std::string(10000, ']');
  std::string text = "graph():\n    %x : [num_users=0] = call_function[target=f](args = (" + deep +
                     ",), kwargs = {})\n    return None";
  std::string message = FxTextError(text);
  // The list starting at column 58 is depth 1; the 513th opener is too deep.
  EXPECT_EQ(message, "t.txt:2:570: nesting deeper than 512 levels");
  // The same depth in the return value.
  EXPECT_EQ(FxTextError("graph():\n    return " + deep), "t.txt:2:524: nesting deeper than 512 levels");
}

TEST(FxText, LargeChainHasNoStackOverflow) {
  constexpr size_t kNodes = 200000;
  fmt::memory_buffer out;
  fmt::format_to(std::back_inserter(out), "graph():\n    %n0 : [num_users=1] = placeholder[target=n0]");
  for (size_t i = 1; i < kNodes; ++i) {
    fmt::format_to(std::back_inserter(out),
                   "\n    %n{} : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%n{},), "
                   "kwargs = {{}})",
                   i, i - 1);
  }
  fmt::format_to(std::back_inserter(out), "\n    return n{}", kNodes - 1);
  std::string text(out.data(), out.size());
  auto g = ParseFxText(text, "chain.txt");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ((*g)->size(), kNodes + 1);
  EXPECT_TRUE((*g)->Lint().ok());
  EXPECT_EQ(PrintFxText(**g), text);
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

// A loader may free the text the parser says it is done with; the parser
// must then never read it again, errors found at the end included.
TEST(FxTextReleaseTest, NeverReadsReleasedTextAndErrorsStillSayWhere) {
  std::string text = "graph():\n    %x : [num_users=1] = placeholder[target=x]\n";
  std::string prev = "x";
  for (int i = 0; i < 200000; ++i) {
    std::string name = fmt::format("relu_{}", i);
    text += fmt::format(
        "    %{} : [num_users={}] = call_function[target=torch.ops.aten.relu.default]"
        "(args = (%{},), kwargs = {{}})\n",
        name, i == 1000 ? 7 : 1, prev);
    prev = name;
  }
  text += fmt::format("    return ({},)", prev);
  size_t released = 0;
  auto scribble = [&](size_t offset) {
    ASSERT_GE(offset, released);
    std::fill(text.begin() + static_cast<long>(released), text.begin() + static_cast<long>(offset), '\0');
    released = offset;
  };
  auto graph = ParseFxText(text, "big.graph.txt", scribble);
  ASSERT_FALSE(graph.ok());
  EXPECT_GT(released, 0u);
  // relu_1000 is on line 1003 (header, x, then relu_0 on line 3); its count at column 29.
  EXPECT_EQ(graph.status().message(),
            "big.graph.txt:1003:29: node 'relu_1000' is annotated with 7 users but 1 node(s) use it");
}

TEST(FxTextReleaseTest, TruncatedTextSaysWhereItEnds) {
  std::string text = "graph():\n    %x : [num_users=0] = placeholder[target=x]\n";
  auto graph = ParseFxText(text, "t.graph.txt");
  ASSERT_FALSE(graph.ok());
  EXPECT_EQ(graph.status().message(),
            "t.graph.txt:3:1: expected a 'return' line before the end of the file (truncated?)");
  graph = ParseFxText(text.substr(0, text.size() - 1), "t.graph.txt");
  ASSERT_FALSE(graph.ok());
  // Past the last character of a file that stops without a newline: the caret too.
  EXPECT_EQ(graph.status().message(),
            "t.graph.txt:2:47: expected a 'return' line before the end of the file (truncated?)\n"
            "        %x : [num_users=0] = placeholder[target=x]\n"
            "                                                  ^");
}

}  // namespace
}  // namespace airscope

// The rewrite language of `pass define`: syntax errors name line and column,
// and every action does what rewrite_language.h says.
#include <gtest/gtest.h>

#include <cmath>

#include "core/pass/pass_manager.h"
#include "core/scanner.h"
#include "pass_test_util.h"

namespace airscope {
namespace {

using testing_util::Describe;
using testing_util::LoadSeedGraph;

std::string ParseError(std::vector<std::string> lines, size_t first_line = 10) {
  Result<RewriteProgram> program = ParseRewriteProgram(lines, first_line);
  return program.ok() ? "ok" : std::string(ErrorHeadline(program.status().message()));
}

TEST(RewriteLanguageTest, SyntaxErrorsNameLineAndColumn) {
  EXPECT_EQ(ParseError({"# only a comment", ""}), "line 10: the pass has no rules (write 'on PATTERN: ACTION')");
  EXPECT_EQ(ParseError({"", "  when aten.mm.default: erase"}), "line 11, column 3: expected 'on PATTERN: ACTION'");
  EXPECT_EQ(ParseError({"on aten.mm.default erase"}), "line 10, column 20: expected ':' after the pattern");
  EXPECT_EQ(ParseError({"on : erase"}), "line 10, column 4: expected a target pattern (or 'name GLOB') after 'on'");
  EXPECT_EQ(ParseError({"on aten.mm.default: explode"}),
            "line 10, column 21: expected an action: insert before|after, replace with, erase or set stream");
  EXPECT_EQ(ParseError({"on aten.mm.default: insert around air.record.default()"}),
            "line 10, column 28: expected 'before' or 'after' after 'insert'");
  EXPECT_EQ(ParseError({"on aten.mm.default: insert before record()"}),
            "line 10, column 35: expected an op target such as air.record.default");
  EXPECT_EQ(ParseError({"on aten.mm.default: insert before air.record.default"}),
            "line 10, column 53: expected '(' after air.record.default");
  EXPECT_EQ(ParseError({"on aten.mm.default: insert before air.wait.default([x])"}),
            "line 10, column 53: 'x' is not a value (quote strings; refer to nodes as $node, $arg0 or $NAME)");
  EXPECT_EQ(ParseError({"on aten.mm.default: insert before air.wait.default([$node)"}),
            "line 10, column 58: expected ',' or ']'");
  EXPECT_EQ(ParseError({"on aten.mm.default: insert before air.x.y('open)"}),
            "line 10, column 43: unterminated string");
  EXPECT_EQ(ParseError({"on aten.mm.default: insert before air.x.y(a=1, 2)"}),
            "line 10, column 48: a positional argument cannot follow a keyword argument");
  EXPECT_EQ(ParseError({"on aten.mm.default: insert before air.x.y() as node"}),
            "line 10, column 48: 'node' is reserved ($node, $argN)");
  EXPECT_EQ(ParseError({"on aten.mm.default: erase now"}), "line 10, column 27: unexpected text after the action");
  EXPECT_EQ(ParseError({"on aten.mm.default: replace air.x.y()"}),
            "line 10, column 29: expected 'with' after 'replace'");
  EXPECT_EQ(ParseError({"on aten.mm.default: set stream"}), "line 10, column 31: expected a stream name");
  EXPECT_EQ(ParseError({"on aten.mm.default: insert before air.x.y(torch.bogus)"}),
            "line 10, column 43: unknown torch value 'torch.bogus' (dtypes like torch.float32, memory formats like "
            "torch.contiguous_format)");
  EXPECT_EQ(ParseError({"on aten.mm.default: erase  # a trailing comment"}), "ok");
  // Under the headline: the rule's line, and a caret under the column.
  Result<RewriteProgram> bad = ParseRewriteProgram({"on aten.mm.default erase"}, 10);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "line 10, column 20: expected ':' after the pattern\n"
            "    on aten.mm.default erase\n"
            "                       ^");
}

// Literals read as the graph readers and `decomp add` read them (issue 15,
// item 4): inf, nan and torch.contiguous_format were refused in rules.
TEST(RewriteLanguageTest, LiteralsAreReadAsEverywhereElse) {
  Result<RewriteProgram> program = ParseRewriteProgram(
      {"on aten.relu.default: replace with aten.clamp.default($arg0, -inf, inf)",
       "on aten.abs.default: insert after aten.clone.default($node, memory_format=torch.contiguous_format)",
       "on aten.neg.default: insert after aten.full.default([2], nan, dtype=torch.float16)"},
      1);
  ASSERT_TRUE(program.ok()) << program.status().message();
  ASSERT_EQ(program->rules.size(), 3u);
  const std::vector<ValueTemplate>& clamp = program->rules[0].call.args;
  ASSERT_EQ(clamp.size(), 3u);
  EXPECT_EQ(clamp[1].literal.kind(), Argument::Kind::kFloat);
  EXPECT_TRUE(std::isinf(clamp[1].literal.as_float()) && clamp[1].literal.as_float() < 0);
  EXPECT_TRUE(std::isinf(clamp[2].literal.as_float()));
  EXPECT_EQ(program->rules[1].call.kwargs.at(0).second.literal.kind(), Argument::Kind::kMemoryFormat);
  EXPECT_TRUE(std::isnan(program->rules[2].call.args[1].literal.as_float()));
}

TEST(RewriteLanguageTest, GlobMatch) {
  EXPECT_TRUE(GlobMatch("aten.*", "aten.mm.default"));
  EXPECT_TRUE(GlobMatch("*mm*", "aten.mm.default"));
  EXPECT_TRUE(GlobMatch("abs_?", "abs_1"));
  EXPECT_FALSE(GlobMatch("aten.mm", "aten.mm.default"));
  EXPECT_TRUE(GlobMatch("*", ""));
  // fnmatch(3)'s classes and quoting, as a shell has them.
  EXPECT_TRUE(GlobMatch("abs_[0-9]", "abs_7"));
  EXPECT_FALSE(GlobMatch("abs_[!0-9]", "abs_7"));
  EXPECT_TRUE(GlobMatch("a\\*b", "a*b"));
  EXPECT_FALSE(GlobMatch("a\\*b", "axb"));
}

// Runs `lines` as a user pass on the seed graph; returns the graph's description or the error.
struct Outcome {
  std::vector<std::string> graph;
  std::string error;
  bool changed = false;
};
Outcome RunOnSeed(std::vector<std::string> lines) {
  Outcome out;
  Result<PassInfo> pass = DefineRewritePass("p", lines, 1, "test");
  if (!pass.ok()) {
    out.error = pass.status().message();
    return out;
  }
  std::unique_ptr<Graph> graph = LoadSeedGraph();
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  PassManager manager;
  Result<PassOutcome> result = manager.Run(*pass, *graph, context);
  if (!result.ok())
    out.error = result.status().message();
  else
    out.changed = result->changed;
  out.graph = Describe(*graph);
  return out;
}

TEST(RewriteLanguageTest, InsertWithLiteralsKwargsAndArgRefs) {
  Outcome out = RunOnSeed({
      "on torch.ops.aten.add.Tensor: insert after aten.mul.Tensor($node, $arg1) as doubled",
      "on aten.sub.*: insert before my.op.default(-2.5, 1e-05, \"s\", None, True, False, torch.float16, (1,), (2), "
      "[$doubled], k=[1, 'x'])",
  });
  ASSERT_EQ(out.error, "");
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(out.graph[4], "mul = aten.mul.Tensor(add, 1)");
  EXPECT_EQ(out.graph[5],
            "op = my.op.default(-2.5, 1e-05, 's', None, True, False, torch.float16, (1,), 2, [mul], k=[1, 'x'])");
}

TEST(RewriteLanguageTest, NewNodesGetInferredMeta) {
  Result<PassInfo> pass = DefineRewritePass("p", {"on aten.abs.default: insert after aten.neg.default($node)"}, 1, "t");
  ASSERT_TRUE(pass.ok());
  std::unique_ptr<Graph> graph = LoadSeedGraph();
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  ASSERT_TRUE(pass->run(*graph, context).ok());
  ASSERT_NE(graph->Find("neg")->meta(), nullptr);
  EXPECT_EQ(graph->Find("neg")->meta()->ShapeString(), "f32[3, 3]");
}

TEST(RewriteLanguageTest, ReplaceRewiresUsesAndErases) {
  Outcome out =
      RunOnSeed({"on aten.abs.default: replace with aten.neg.default($arg0) as n", "on name add: set stream s2"});
  ASSERT_EQ(out.error, "");
  // set stream wraps the node in its own user-stream block, where TorchAir (and lower) take streams from.
  EXPECT_EQ(out.graph,
            (std::vector<std::string>{"arg0_1 = placeholder()", "mm = aten.mm.default(arg0_1, arg0_1)",
                                      "neg = aten.neg.default(mm)",
                                      "scope_enter = air.scope_enter.default(['_user_stream_label'], ['s2'])",
                                      "add = aten.add.Tensor(neg, 1) @s2", "scope_exit = air.scope_exit.default()",
                                      "sub = aten.sub.Tensor(arg0_1, mm)", "output = output((add, sub))"}));
  EXPECT_EQ(RunOnSeed({"on name add: set stream ''"}).error, "");  // already on the default stream: nothing to do
  EXPECT_EQ(RunOnSeed({"on name add: set stream s2", "on name add: set stream ''"}).error,
            "pass 'p' failed: rule at line 2 (on name add: set stream '') on node 'add': it is on stream 's2' by its "
            "air.scope_enter block; to put it on the default stream, move it out of that block");
  EXPECT_EQ(RunOnSeed({"on aten.abs.default: replace with aten.neg.default($node)"}).error,
            "pass 'p' failed: rule at line 1 (on aten.abs.default: replace with aten.neg.default($node)) on node "
            "'abs_1': the replacement cannot use $node: the node is erased");
}

TEST(RewriteLanguageTest, EraseAndItsErrors) {
  Outcome out = RunOnSeed({"on aten.add.Tensor: insert after aten.neg.default($node)", "on aten.neg.*: erase"});
  ASSERT_EQ(out.error, "");
  EXPECT_EQ(out.graph.size(), 6u);
  EXPECT_EQ(RunOnSeed({"on aten.mm.default: erase"}).error,
            "pass 'p' failed: rule at line 1 (on aten.mm.default: erase) on node 'mm': cannot erase it: it is used "
            "by abs_1, sub");
  // A binding to an erased node is refused, not dangling.
  EXPECT_EQ(RunOnSeed({"on aten.add.Tensor: insert after aten.neg.default($node) as n", "on aten.neg.*: erase",
                       "on aten.sub.Tensor: insert after aten.neg.default($n)"})
                .error,
            "pass 'p' failed: rule at line 3 (on aten.sub.Tensor: insert after aten.neg.default($n)) on node 'sub': "
            "$n names a node that was erased");
}

TEST(RewriteLanguageTest, RuntimeReferenceErrors) {
  EXPECT_EQ(RunOnSeed({"on aten.abs.default: insert after aten.neg.default($arg3)"}).error,
            "pass 'p' failed: rule at line 1 (on aten.abs.default: insert after aten.neg.default($arg3)) on node "
            "'abs_1': $arg3 does not exist: 'abs_1' has 1 argument");
  EXPECT_EQ(RunOnSeed({"on aten.add.Tensor: insert after $arg1 aten.neg.default()"}).error,
            "pass 'p' failed: rule at line 1 (on aten.add.Tensor: insert after $arg1 aten.neg.default()) on node "
            "'add': $arg1 is not a node");
}

TEST(RewriteLanguageTest, CannotLoopEvenWhenInsertingWhatItMatches) {
  // Each abs gets one new abs after it: inserted nodes are never revisited by the rule.
  Outcome out = RunOnSeed({"on aten.abs.default: insert after aten.abs.default($node)",
                           "on aten.abs.default: insert after aten.abs.default($node)"});
  ASSERT_EQ(out.error, "");
  EXPECT_EQ(out.graph.size(), 9u);  // 1 abs -> 2 after rule 1 -> 4 after rule 2
}

TEST(RewriteLanguageTest, NoMatchIsNoChange) {
  Outcome out = RunOnSeed({"on aten.conv*: erase", "on name nothing_here: set stream s"});
  EXPECT_EQ(out.error, "");
  EXPECT_FALSE(out.changed);
}

TEST(RewriteLanguageTest, DefinedPassHasUserKindSummaryAndHelp) {
  PassInfo info = testing_util::SeedRewritePass();
  EXPECT_EQ(info.kind, PassKind::kUser);
  EXPECT_EQ(info.summary, "rewrite pass, 4 rules");
  EXPECT_NE(info.help.find("on aten.abs.default: insert after $rec air.scope_exit.default()"), std::string::npos);
}

}  // namespace
}  // namespace airscope

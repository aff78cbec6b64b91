// Unit tests for the shell's pieces: tokenizer, command table, completion,
// settings, format sniffing and the interpreter (scripts, expect, errors).
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <thread>

#include <fmt/format.h>

#include "core/interrupt.h"
#include "repl/command_table.h"
#include "repl/completion.h"
#include "repl/graph_loader.h"
#include "repl/interpreter.h"
#include "repl/session.h"
#include "repl/tokenizer.h"
#include "shell_test_util.h"
#include "tests/unit/test_data.h"

namespace airscope {
namespace {

using testing_util::kData;

using Shell = testing_shell::TestShell;

using testing_shell::WriteTemp;

TEST(TokenizerTest, QuotesCommentsAndColumns) {
  auto words = Tokenize("expect output \"show --format fx\" contains 'a b'  # trailing");
  ASSERT_TRUE(words.ok());
  ASSERT_EQ(words->size(), 5u);
  EXPECT_EQ((*words)[2].text, "show --format fx");
  EXPECT_TRUE((*words)[2].quoted);
  EXPECT_EQ((*words)[4].text, "a b");
  EXPECT_EQ((*words)[1].column, 8u);
  auto escaped = Tokenize(R"(echo "say \"hi\"")");
  ASSERT_TRUE(escaped.ok());
  EXPECT_EQ((*escaped)[1].text, "say \"hi\"");
  auto bad = Tokenize("echo \"open");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("column 6"), std::string::npos) << bad.status().message();
  EXPECT_TRUE(Tokenize("   # only a comment")->empty());
}

TEST(TokenizerTest, SplitCommandsRespectsQuotes) {
  auto parts = SplitCommands("echo a; echo \"b;c\"; quit");
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[1], " echo \"b;c\"");
  EXPECT_EQ(QuoteWord("a b"), "\"a b\"");
  EXPECT_EQ(QuoteWord("plain"), "plain");
}

TEST(CommandTableTest, UniquePrefixAndAmbiguity) {
  CommandTable table = BuildCommandTable();
  auto load = table.Lookup("lo");
  ASSERT_TRUE(load.ok());
  EXPECT_EQ((*load)->name, "load");
  auto ambiguous = table.Lookup("st");
  ASSERT_FALSE(ambiguous.ok());
  // The candidates grow with the command table; the form is what matters.
  EXPECT_EQ(ambiguous.status().message().rfind("ambiguous command \"st\": stages, stats, step", 0), 0u)
      << ambiguous.status().message();
  EXPECT_FALSE(table.Lookup("zzz").ok());
  for (const CommandSpec& spec : table.commands()) {
    EXPECT_FALSE(spec.summary.empty()) << spec.name;
    EXPECT_FALSE(spec.help.empty()) << spec.name;
    EXPECT_EQ(spec.syntax.rfind(spec.name, 0), 0u) << spec.name << ": syntax must start with the name";
  }
}

TEST(CompletionTest, CommandsArgumentsNodesAndFiles) {
  Shell shell;
  EXPECT_EQ(Complete(shell.table, shell.session, "stat").candidates, (std::vector<std::string>{"stats"}));
  EXPECT_EQ(Complete(shell.table, shell.session, "show --format r").candidates, (std::vector<std::string>{"readable"}));
  EXPECT_TRUE(Complete(shell.table, shell.session, "load ../da").files);
  EXPECT_EQ(Complete(shell.table, shell.session, "set on").candidates, (std::vector<std::string>{"on-error"}));
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " + kData + "/seed_multistream.graph.txt").ok());
  EXPECT_EQ(Complete(shell.table, shell.session, "node a").candidates,
            (std::vector<std::string>{"abs_1", "add", "arg0_1"}));
  EXPECT_EQ(Complete(shell.table, shell.session, "use se").candidates, (std::vector<std::string>{"seed_multistream"}));
  EXPECT_EQ(Complete(shell.table, shell.session, "help exp").candidates, (std::vector<std::string>{"expect"}));
}

TEST(GraphLoaderTest, SniffsByContentNotExtension) {
  EXPECT_EQ(*SniffGraphText("\n\ngraph():\n", "x.py"), FindInputFormat("fx"));
  EXPECT_EQ(*SniffGraphText("# comment\nclass GraphModule(torch.nn.Module):\n", "x.txt"), FindInputFormat("readable"));
  EXPECT_EQ(*SniffGraphText("  {\"format\": \"airscope-graph\"}", "x.txt"), FindInputFormat("json"));
  EXPECT_FALSE(SniffGraphText("", "x").ok());
  EXPECT_FALSE(SniffGraphText(std::string_view("graph\0", 6), "x").ok());
  EXPECT_EQ(DefaultGraphName("a/b/mlp.graph.txt"), "mlp");
  EXPECT_EQ(DefaultGraphName("mlp.readable.py"), "mlp");
  EXPECT_EQ(DefaultGraphName("my model.json"), "my_model");
}

// A UTF-8 byte order mark is skipped, whatever the format; line endings of
// CR alone are refused with where the first one is.
TEST(GraphLoaderTest, ByteOrderMarkIsSkippedAndLoneCrIsRefused) {
  const std::string fx = "graph():\n    %x : [num_users=1] = placeholder[target=x]\n    return (x,)\n";
  Result<LoadedGraph> bom = LoadGraphText("\xEF\xBB\xBF" + fx, "bom.graph.txt", OpRegistry::Builtin());
  ASSERT_TRUE(bom.ok()) << bom.status().message();
  EXPECT_EQ(bom->graph->size(), 2u);
  EXPECT_EQ(bom->graph->name(), "bom");
  std::string cr = fx;
  std::replace(cr.begin(), cr.end(), '\n', '\r');
  Result<LoadedGraph> mac = LoadGraphText(cr, "mac.graph.txt", OpRegistry::Builtin());
  ASSERT_FALSE(mac.ok());
  EXPECT_EQ(mac.status().message(),
            "mac.graph.txt:1:9: a line ends in a lone CR (classic Mac line endings); airscope reads LF or CRLF");
  std::string crlf;
  for (char c : fx) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  EXPECT_TRUE(LoadGraphText(crlf, "dos.graph.txt", OpRegistry::Builtin()).ok());
}

TEST(InterpreterTest, ScriptStopsAtFirstFailingLine) {
  Shell shell;
  std::string script = WriteTemp("stop.airscript", "echo one\nexpect graphs 3\necho never\n");
  Status status = shell.interpreter.RunScript(script);
  EXPECT_FALSE(status.ok());
  ASSERT_EQ(shell.sink.errors.size(), 1u);
  EXPECT_EQ(shell.sink.errors[0], script + ":2: expect failed: graph count: expected 3, actual 0");
  EXPECT_EQ(shell.sink.text, "one\n");
}

TEST(InterpreterTest, OnErrorContinueRunsEverythingButStillFails) {
  Shell shell;
  std::string script =
      WriteTemp("continue.airscript", "set on-error continue\nexpect graphs 3\necho after\nbogus\necho end\n");
  Status status = shell.interpreter.RunScript(script);
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(shell.sink.errors.size(), 2u);
  EXPECT_EQ(shell.sink.text, "after\nend\n");
  EXPECT_EQ(shell.interpreter.reported_failures(), 2u);
}

TEST(InterpreterTest, SourceNestsWithADepthLimit) {
  Shell shell;
  std::string loop = WriteTemp("loop.airscript", "source loop.airscript\n");
  Status status = shell.interpreter.RunScript(loop);
  ASSERT_FALSE(status.ok());
  bool found = false;
  for (const std::string& e : shell.sink.errors) found = found || e.find("nested deeper than 16") != std::string::npos;
  EXPECT_TRUE(found);
}

TEST(InterpreterTest, FailedLoadKeepsTheSession) {
  Shell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " + kData + "/mlp.graph.txt").ok());
  Status bad = shell.interpreter.ExecuteLine("load " + kData + "/bad/truncated.graph.txt as mlp");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.message().find("truncated.graph.txt:3:"), std::string::npos) << bad.message();
  ASSERT_EQ(shell.session.graphs().size(), 1u);
  EXPECT_EQ(shell.session.current()->name, "mlp");
  EXPECT_EQ(shell.session.current()->loaded.graph->size(), 15u);
}

TEST(InterpreterTest, ExpectFormsPassAndFail) {
  Shell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " + kData + "/seed_multistream.readable.py as seed").ok());
  EXPECT_TRUE(shell.interpreter.ExecuteLine("expect nodes 6").ok());
  EXPECT_TRUE(shell.interpreter.ExecuteLine("expect node mm shape f32[3,3]").ok());
  EXPECT_TRUE(shell.interpreter.ExecuteLine("expect node mm stream default").ok());
  EXPECT_TRUE(shell.interpreter.ExecuteLine("expect output \"stats\" contains aten.mm.default").ok());
  EXPECT_TRUE(shell.interpreter.ExecuteLine("expect output \"stats\" lacks aten.bmm").ok());
  EXPECT_TRUE(shell.interpreter.ExecuteLine("expect error \"node nope\" contains nope").ok());
  Status failed = shell.interpreter.ExecuteLine("expect node mm target aten.bmm.default");
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.message(),
            "expect failed: node 'mm' target: expected 'aten.bmm.default', actual 'torch.ops.aten.mm.default'");
  EXPECT_FALSE(shell.interpreter.ExecuteLine("expect error \"stats\"").ok());
  EXPECT_FALSE(shell.interpreter.ExecuteLine("expect frobnicate").ok());
}

TEST(InterpreterTest, ExpectTallyCountsTheUsersLinesOnly) {
  Shell shell;
  // An expect run inside another command (here `expect error "expect ..."`) is not the user's line.
  std::string script = WriteTemp("tally.airscript",
                                 "expect graphs 0\n"
                                 "expect error \"expect graphs 9\"\n"
                                 "expect graphs 2\n"
                                 "echo never\n"
                                 "  expect graphs 0\n"
                                 "# expect graphs 0\n"
                                 "exp nodes 3\n");
  EXPECT_FALSE(shell.interpreter.RunScript(script).ok());
  const ExpectTally& tally = shell.interpreter.expect_tally();
  EXPECT_EQ(tally.passed, 2u);
  EXPECT_EQ(tally.failed, 1u);
  EXPECT_EQ(tally.not_run, 2u);  // the indented line and the prefix `exp`; not the comment
}

TEST(InterpreterTest, ExpectTallyUnderOnErrorContinueRunsEverything) {
  Shell shell;
  std::string script =
      WriteTemp("tally_continue.airscript", "set on-error continue\nexpect graphs 1\nbogus\nexpect graphs 0\n");
  EXPECT_FALSE(shell.interpreter.RunScript(script).ok());
  const ExpectTally& tally = shell.interpreter.expect_tally();
  EXPECT_EQ(tally.passed, 1u);
  EXPECT_EQ(tally.failed, 1u);
  EXPECT_EQ(tally.not_run, 0u);
}

// Scripts read as `load` reads files (issue 29 item 5): a byte order mark is
// skipped, CRLF works, and a lone CR is refused where it is instead of
// running the whole script as one line and exiting 0.
TEST(InterpreterTest, ScriptLineEndsAreLoadsLineEnds) {
  Shell shell;
  std::string bom = WriteTemp("bom.airscript",
                              "\xEF\xBB\xBF"
                              "echo one\r\nexpect graphs 0\r\n");
  EXPECT_TRUE(shell.interpreter.RunScript(bom).ok());
  EXPECT_EQ(shell.sink.text, "one\n");
  EXPECT_EQ(shell.interpreter.expect_tally().passed, 1u);

  Shell mac;
  std::string cr = WriteTemp("cr.airscript", "echo one\rexpect graphs 5\r");
  Status refused = mac.interpreter.RunScript(cr);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.message(),
            cr + ":1:9: a line ends in a lone CR (classic Mac line endings); airscope reads LF or CRLF");
  EXPECT_EQ(mac.sink.text, "");
}

// A failure reported inside a captured command (here the depth limit, deep in
// `expect error "source SELF"`) is the capture's: the line that holds it still
// reports its own failure (issue 29 item 7: it exited 1 without a word).
TEST(InterpreterTest, AFailureInsideACaptureDoesNotSilenceItsLine) {
  Shell shell;
  std::string self = WriteTemp("self.airscript", "expect error \"source self.airscript\"\n");
  ASSERT_FALSE(shell.interpreter.RunScript(self).ok());
  ASSERT_EQ(shell.sink.errors.size(), 1u);
  EXPECT_EQ(shell.sink.errors[0],
            self + ":1: expect failed: command \"source self.airscript\": expected an error, actual it succeeded");
}

// `bisect "source SELF"` (issue 29 item 2) ran its condition at several
// stages at each of the 16 levels source allows: hours. A bisect inside a
// bisect's condition is refused, and the outer one gives no verdict.
TEST(InterpreterTest, ABisectInsideABisectsConditionIsRefused) {
  Shell shell;
  std::string self = testing::TempDir() + "/bisect_self.airscript";
  std::ofstream(self) << "load " << kData << "/mlp.readable.py\nbisect \"source " << self << "\"\n";
  // Only for the old code, which would run for hours: stop it as Ctrl-C would.
  std::atomic<bool> done{false};
  std::thread watchdog([&done] {
    for (int i = 0; i < 6000 && !done; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!done) RequestInterrupt();
  });
  Status status = shell.interpreter.RunScript(self);
  done = true;
  watchdog.join();
  ClearInterrupt();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(
      status.message(),
      fmt::format("{0}:2: bisect: the condition \"source {0}\" runs bisect itself (refused there): no verdict", self));
  // Outside a bisect's condition, bisect runs as ever.
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " + kData + "/mlp.readable.py").ok());
  EXPECT_TRUE(shell.interpreter.ExecuteLine("bisect \"expect graphs 1\"").ok());
}

TEST(InterpreterTest, StructuredExpectFormsReadTheSession) {
  Shell shell;
  auto run = [&](const std::string& line) { return shell.interpreter.ExecuteLine(line); };
  ASSERT_TRUE(run("load " + kData + "/seed_multistream.readable.py as seed").ok());
  EXPECT_TRUE(run("expect graph seed").ok());
  Status missing = run("expect graph nope");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.message(),
            "expect failed: graph 'nope': expected it to be loaded, actual no such graph (1 loaded)");
  // Before any pipeline run a stage form says what to do.
  Status early = run("expect stage optimize_noop_ops unchanged");
  ASSERT_FALSE(early.ok());
  EXPECT_NE(early.message().find("step or run first"), std::string::npos) << early.message();
  ASSERT_TRUE(run("run").ok());
  // The seed is aten already: aot leaves it; reinplace makes the abs in-place.
  EXPECT_TRUE(run("expect stage aot unchanged").ok());
  EXPECT_TRUE(run("expect stage reinplace_inplaceable_ops_pass changed").ok());
  EXPECT_TRUE(run("expect stage lower nodes 6").ok());
  Status wrong = run("expect stage aot changed");
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.message(), "expect failed: stage of aot: expected changed, actual unchanged");
  EXPECT_FALSE(run("expect stage aot sideways").ok());
  EXPECT_FALSE(run("expect stage no_such_pass changed").ok());
  EXPECT_TRUE(run("expect remark lower contains \"device tasks on 1 stream\"").ok());
  EXPECT_TRUE(run("expect remark aot lacks \"no such remark text\"").ok());
  EXPECT_FALSE(run("expect remark aot contains \"no such remark text\"").ok());
  // No calls were made: nothing captured, no recompiles, no guards.
  EXPECT_TRUE(run("expect captures 0").ok());
  EXPECT_TRUE(run("expect recompiles 0").ok());
  EXPECT_FALSE(run("expect guards 1").ok());
  EXPECT_FALSE(run("expect captures 1 key [4]").ok());
  // The device's last run: eager puts the graph's tasks on its streams.
  ASSERT_TRUE(run("eager 1").ok());
  EXPECT_TRUE(run("expect slice mm").ok());
  EXPECT_TRUE(run("expect no slice no_such_kernel*").ok());
  EXPECT_FALSE(run("expect tasks 1 on no_such_stream").ok());
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

TEST(InterpreterTest, CommandTextNamesItsPosition) {
  Shell shell;
  Status status = shell.interpreter.RunCommandText("echo a; echo \"b;c\"; expect graphs 1; echo never");
  EXPECT_FALSE(status.ok());
  EXPECT_EQ(shell.sink.text, "a\nb;c\n");
  ASSERT_EQ(shell.sink.errors.size(), 1u);
  EXPECT_EQ(shell.sink.errors[0], "-c:3: expect failed: graph count: expected 1, actual 0");
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

// A test-only block command: `block NAME` ... `end` echoes the collected lines.
CommandTable TableWithBlockCommand() {
  CommandTable table = BuildCommandTable();
  table.Add({"block", "block NAME", "collect lines until end", "test",
             [](CommandContext& ctx) {
               std::string name = ctx.args.empty() ? "" : ctx.args[0].text;
               Interpreter* interp = &ctx.interpreter;
               ctx.interpreter.BeginBlock("block " + name, "end", [interp, name](const BlockLines& block) {
                 if (name == "bad") return Status::Errorf("line {}: refused", block.first_line);
                 CommandOutput lines;
                 for (const std::string& l : block.lines) lines.Add(l);
                 lines.Add(fmt::format("{} lines from {}:{}", block.lines.size(), block.origin, block.first_line));
                 return interp->ExecuteCaptured("echo collected", &lines);
               });
               return Status::Ok();
             },
             nullptr});
  return table;
}

TEST(InterpreterTest, BlocksCollectLinesUntilTheTerminator) {
  Session session;
  CommandTable table = TableWithBlockCommand();
  testing_shell::RecordingSink sink;
  Interpreter interpreter(session, table, sink);
  std::string script = WriteTemp("block.airscript", "block ok\n  first\n  second\nend\necho after\n");
  EXPECT_TRUE(interpreter.RunScript(script).ok());
  EXPECT_EQ(sink.text, "after\n");  // collected lines are not run as commands
  EXPECT_TRUE(sink.errors.empty());

  std::string bad = WriteTemp("bad_block.airscript", "echo a\nblock bad\n  x\nend\necho never\n");
  EXPECT_FALSE(interpreter.RunScript(bad).ok());
  ASSERT_EQ(sink.errors.size(), 1u);
  EXPECT_EQ(sink.errors[0], bad + ":4: block bad: line 3: refused");

  std::string open = WriteTemp("open_block.airscript", "block ok\n  x\n");
  EXPECT_FALSE(interpreter.RunScript(open).ok());
  ASSERT_EQ(sink.errors.size(), 2u);
  EXPECT_EQ(sink.errors[1], open + ":2: 'block ok' (line 1) is not closed by 'end' before the end");
  EXPECT_FALSE(interpreter.in_block());
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

TEST(TokenizerTest, ABackslashKeepsASpaceInAWord) {
  Result<std::vector<Word>> words = Tokenize(R"(load my\ mlp.readable.py C:\graphs\x.txt)");
  ASSERT_TRUE(words.ok());
  ASSERT_EQ(words->size(), 3u);
  EXPECT_EQ((*words)[1].text, "my mlp.readable.py");
  EXPECT_EQ((*words)[2].text, R"(C:\graphs\x.txt)");  // other backslashes stay
}

TEST(InterpreterHomeTest, TildeIsHome) {
  const char* home = std::getenv("HOME");
  if (!home) GTEST_SKIP() << "no HOME";
  EXPECT_EQ(Interpreter::ExpandHome("~/dumps/a.fx"), std::string(home) + "/dumps/a.fx");
  EXPECT_EQ(Interpreter::ExpandHome("~"), std::string(home));
  EXPECT_EQ(Interpreter::ExpandHome("a/~/b"), "a/~/b");
  EXPECT_EQ(Interpreter::ExpandHome("~user/x"), "~user/x");  // other users' homes are not looked up
}

}  // namespace
}  // namespace airscope

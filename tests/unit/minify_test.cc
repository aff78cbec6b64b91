// minify (repl/minify.h, repl/failure_match.h, commands_minify.cc): what
// counts as the same failure, the shrinking of a generated graph with one
// planted capture-forbidden op, and the refusals of bad predicates.
#include <gtest/gtest.h>

#include <unistd.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "bench/planted_graphs.h"
#include "core/interrupt.h"
#include "repl/command_table.h"
#include "repl/failure_match.h"
#include "repl/session.h"
#include "shell_test_util.h"

namespace airscope {
namespace {

using Shell = testing_shell::TestShell;

bool IsSumOrRelu(std::string_view w) { return w == "sum_1" || w == "relu_7"; }

TEST(FailureMatchTest, NodeNamesAndSmallNumbersAreNormalizedCodesAreNot) {
  EXPECT_EQ(NormalizeFailure("task 123 'sum_1' (aten.sum) in ACL_ERROR_RT_STREAM_CAPTURED (107027, x2)", IsSumOrRelu),
            "task N '<node>' (aten.sum) in ACL_ERROR_RT_STREAM_CAPTURED (107027, x2)");
  EXPECT_EQ(NormalizeFailure("stage 20 of 34: relu_7 f32[8, 8]", IsSumOrRelu), "stage N of N: <node> f32[N, N]");
  // A word that is no node name keeps its digits (relu_8 is not a node here).
  EXPECT_EQ(NormalizeFailure("relu_8", IsSumOrRelu), "relu_8");
}

TEST(FailureMatchTest, SameFailureNeedsTheSameNormalizedMessage) {
  FailureMatcher m = FailureMatcher::SameAs("task 99999 'sum_1': error code:107027", IsSumOrRelu);
  EXPECT_TRUE(m.Matches(Status::Error("task 3 'relu_7': error code:107027"), IsSumOrRelu));
  EXPECT_FALSE(m.Matches(Status::Error("task 3 'relu_7': error code:107030"), IsSumOrRelu));  // another code
  EXPECT_FALSE(m.Matches(Status::Error("task 3 'other': error code:107027"), IsSumOrRelu));   // not a node
  EXPECT_FALSE(m.Matches(Status::Ok(), IsSumOrRelu));                                         // passing never matches
}

TEST(FailureMatchTest, MatchUsesTheRegexAndRefusesABadOne) {
  Result<FailureMatcher> m = FailureMatcher::Matching("STREAM_CAPTURED \\(1070[0-9]+");
  ASSERT_TRUE(m.ok());
  EXPECT_TRUE(m->Matches(Status::Error("ACL_ERROR_RT_STREAM_CAPTURED (107027, ..."), {}));
  EXPECT_FALSE(m->Matches(Status::Error("ACL_ERROR_RT_STREAM_UNJOINED (107025"), {}));
  Result<FailureMatcher> bad = FailureMatcher::Matching("(unclosed");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("--match: '(unclosed' is not a regular expression"), std::string::npos);
}

using testing_shell::WriteTemp;

std::string ReadAll(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The 5k-node form of the bench (bench/minify_bench.cc): a planted .item()
// in the middle of a relu chain shrinks to that one op, its input and the output.
TEST(MinifyTest, PlantedHostSyncShrinksToThreeNodesAndReproduces) {
  Shell shell;
  std::string path = WriteTemp("planted5k.readable.py", PlantedHostSyncReadable(5000));
  ASSERT_TRUE(shell.interpreter.ExecuteLine(fmt::format("load {} as g", path)).ok());
  std::string dir = testing::TempDir() + "/minify_out";
  auto start = std::chrono::steady_clock::now();
  Status status = shell.interpreter.ExecuteLine(fmt::format("minify \"capture\" --out {}", dir));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_LT(seconds, 30.0);
  Result<const Graph*> g = shell.session.CurrentGraph();
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(shell.session.current()->name, "g_min");
  EXPECT_LE((*g)->size(), 3u) << shell.sink.text;
  EXPECT_NE((*g)->Find("_local_scalar_dense"), nullptr);
  EXPECT_NE(shell.sink.text.find("from 5002 to 1 compute node(s)"), std::string::npos) << shell.sink.text;
  // The original is untouched, and min.airscript fails the same way when run.
  EXPECT_EQ(shell.session.Find("g")->loaded.graph->size(), 5004u);
  Shell fresh;
  Status replay = fresh.interpreter.RunScript(dir + "/min.airscript");
  ASSERT_FALSE(replay.ok());
  EXPECT_NE(replay.message().find("ACL_ERROR_RT_STREAM_CAPTURED (107027"), std::string::npos) << replay.message();
  EXPECT_NE(ReadAll(dir + "/repro.py").find("torchair.get_npu_backend(compiler_config=config)"), std::string::npos);
}

TEST(MinifyTest, ALineThatPassesIsRefused) {
  Shell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " AIRSCOPE_TEST_DATA "/host_sync.readable.py").ok());
  Status status = shell.interpreter.ExecuteLine("minify \"stats\"");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("\"stats\" does not fail on 'host_sync' now (it passed)"), std::string::npos)
      << status.message();
}

TEST(MinifyTest, AFlakyLineIsRefused) {
  Shell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " AIRSCOPE_TEST_DATA "/host_sync.readable.py").ok());
  std::string flag = testing::TempDir() + "/minify_flaky_flag";
  ::unlink(flag.c_str());
  // Fails the first time (making the flag), passes the next (removing it).
  std::string line = fmt::format("shell 'if [ -e {0} ]; then rm {0}; else touch {0}; exit 3; fi'", flag);
  Status status = shell.interpreter.ExecuteLine(fmt::format("minify \"{}\"", line));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("is flaky on 'host_sync'"), std::string::npos) << status.message();
  EXPECT_NE(status.message().find("then on a retry passed"), std::string::npos) << status.message();
  ::unlink(flag.c_str());
}

TEST(MinifyTest, ADifferentFailureThanMatchIsRefused) {
  Shell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " AIRSCOPE_TEST_DATA "/host_sync.readable.py").ok());
  Status status = shell.interpreter.ExecuteLine("minify \"capture\" --match UNJOINED");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("but not with a failure matching /UNJOINED/"), std::string::npos) << status.message();
}

TEST(MinifyTest, NothingToRemoveIsRefused) {
  Shell shell;
  std::string path = WriteTemp("one_op.readable.py",
                               "class GraphModule(torch.nn.Module):\n"
                               "    def forward(self, x: \"f32[4]\"):\n"
                               "        sum_1: \"f32[]\" = torch.ops.aten.sum.default(x)\n"
                               "        return (sum_1,)\n");
  ASSERT_TRUE(shell.interpreter.ExecuteLine(fmt::format("load {} as one", path)).ok());
  Status status = shell.interpreter.ExecuteLine("minify \"capture\"");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("nothing to remove: 'one' has 1 node(s)"), std::string::npos) << status.message();
}

TEST(MinifyTest, TheSessionIsAsBeforeAfterEveryTry) {
  Shell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " AIRSCOPE_TEST_DATA "/host_sync.readable.py as s").ok());
  // LINE changes a setting and fails; minify must not leave the setting changed.
  ASSERT_TRUE(shell.interpreter
                  .ExecuteLine("minify \"source " +
                               WriteTemp("set_then_capture.airscript",
                                         "set capture_error_mode relaxed\n"
                                         "capture\n") +
                               "\"")
                  .ok())
      << shell.sink.errors.size();
  EXPECT_EQ(shell.session.settings().Get("capture_error_mode"), "global");
  EXPECT_EQ(shell.session.graphs().size(), 2u);  // s and s_min
}

// minify's tries run a script's changed lines in its place: `source` of that
// path runs them (errors named by the file's path and their line), and no
// other path is affected; without the override the file is read again.
TEST(MinifyTest, AScriptOverrideRunsTheGivenLinesInTheFilesPlace) {
  Shell shell;
  std::string path = WriteTemp("override.airscript", "echo from the file\n");
  shell.interpreter.set_script_override(Interpreter::ScriptOverride{path, {"echo from the override", "nosuch"}});
  Status status = shell.interpreter.ExecuteLine("source " + path);
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find(path + ":2: "), std::string::npos) << status.message();
  EXPECT_NE(shell.sink.text.find("from the override"), std::string::npos) << shell.sink.text;
  EXPECT_EQ(shell.sink.text.find("from the file"), std::string::npos) << shell.sink.text;
  shell.interpreter.set_script_override(std::nullopt);
  ASSERT_TRUE(shell.interpreter.ExecuteLine("source " + path).ok());
  EXPECT_NE(shell.sink.text.find("from the file"), std::string::npos) << shell.sink.text;
}

// Calls the session made are not replayed in the tries: minify says so.
TEST(MinifyTest, CallsTheSessionMadeAreNotedAsNotReplayed) {
  Shell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " AIRSCOPE_TEST_DATA "/host_sync.readable.py as s").ok());
  ASSERT_TRUE(shell.interpreter.ExecuteLine("call arg0_1=f32[4,4] arg1_1=f32[4]:cpu").ok()) << shell.sink.text;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("minify capture").ok());
  EXPECT_NE(shell.sink.text.find("note: the session's 1 call(s) of 's' were not replayed in the tries"),
            std::string::npos)
      << shell.sink.text;
}

// Ctrl-C during a try is no verdict: the search stops, and the smallest
// failing graph found so far is kept and written.
TEST(MinifyTest, CtrlCKeepsAndWritesTheSmallestFailingGraphSoFar) {
  Shell shell;
  int calls = 0;
  shell.table.Add({"always_fails", "always_fails", "test", "test",
                   [&calls](CommandContext&) -> Status {
                     // The 3 checks (twice on the original, once on a copy), then 3 tries, then Ctrl-C.
                     if (++calls == 7) RequestInterrupt();
                     return Status::Error("boom");
                   },
                   nullptr});
  std::string path = WriteTemp("planted200.readable.py", PlantedHostSyncReadable(200));
  ASSERT_TRUE(shell.interpreter.ExecuteLine(fmt::format("load {} as g", path)).ok());
  std::string dir = testing::TempDir() + "/minify_interrupted";
  Status status = shell.interpreter.ExecuteLine(fmt::format("minify always_fails --out {}", dir));
  ClearInterrupt();
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_NE(shell.sink.text.find("in 3 tries"), std::string::npos) << shell.sink.text;
  EXPECT_NE(shell.sink.text.find("stopped early (interrupted (Ctrl-C))"), std::string::npos) << shell.sink.text;
  // Three halvings of 202 compute nodes: 101, 50, 25 left.
  EXPECT_NE(shell.sink.text.find("from 202 to 25 compute node(s)"), std::string::npos) << shell.sink.text;
  EXPECT_NE(ReadAll(dir + "/min.readable.py").find("class GraphModule"), std::string::npos);
}

TEST(MinifyTest, MaxTimeStopsWithTheGraphAsItWas) {
  Shell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " AIRSCOPE_TEST_DATA "/host_sync.readable.py as s").ok());
  Status status = shell.interpreter.ExecuteLine("minify capture --max-time 0.000001");
  ASSERT_TRUE(status.ok()) << status.message();
  EXPECT_NE(shell.sink.text.find("stopped early (the time limit (--max-time 1e-06) was reached)"), std::string::npos)
      << shell.sink.text;
  EXPECT_NE(shell.sink.text.find("from 4 to 4 compute node(s)"), std::string::npos) << shell.sink.text;
}

}  // namespace
}  // namespace airscope

// The pipeline commands end to end through the interpreter, with test passes
// registered in the session (the builtin passes live elsewhere): stepping,
// failures that change nothing, the one "current graph" rule, diff, bisect,
// stage lookup in show/dump, and automatic dumps.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/file_util.h"
#include "pipeline_test_util.h"
#include "repl/command_table.h"
#include "repl/completion.h"
#include "repl/dump_instrumentation.h"
#include "repl/interpreter.h"
#include "repl/session.h"
#include "shell_test_util.h"
#include "tests/unit/test_data.h"

namespace airscope {
namespace {

using testing_passes::Info;

using testing_util::kData;

// Output (add, sub) becomes (add, add) and sub goes.
Result<bool> DropSub(Graph& graph, PassContext&) {
  Node* sub = graph.Find("sub");
  if (!sub) return false;
  graph.ReplaceAllUsesWith(sub, graph.Find("add"));
  AIRSCOPE_RETURN_IF_ERROR(graph.Erase(sub));
  return true;
}

Result<bool> AbsOnStream(Graph& graph, PassContext&) {
  Node* abs = graph.Find("abs_1");
  if (!abs || abs->stream() == "stream_1") return false;
  graph.SetStream(abs, "stream_1");
  return true;
}

// Renames mm, then gives up: the rename must not survive.
Result<bool> RenameThenFail(Graph& graph, PassContext&) {
  if (Node* mm = graph.Find("mm")) AIRSCOPE_RETURN_IF_ERROR(graph.Rename(mm, "renamed_mm"));
  return Status::Error("cannot handle node 'add'");
}

struct PipelineShell : testing_shell::TestShell {
  PipelineShell() {
    EXPECT_TRUE(session.passes().Register(Info("abs_on_stream", AbsOnStream)).ok());
    EXPECT_TRUE(session.passes().Register(Info("drop_sub", DropSub)).ok());
    EXPECT_TRUE(session.passes().Register(Info("nothing", testing_passes::Nothing)).ok());
    EXPECT_TRUE(session.passes().Register(Info("fail_half_way", RenameThenFail)).ok());
    EXPECT_TRUE(session.settings().Set("show-times", "off").ok());
  }
  // Runs a line; returns its output (and error, if any, after "ERROR: ").
  std::string Run(const std::string& line) {
    CommandOutput out;
    Status status = interpreter.ExecuteCaptured(line, &out);
    return out.Text() + (status.ok() ? "" : "ERROR: " + status.message() + "\n");
  }
  void Load() {
    ASSERT_TRUE(interpreter.ExecuteLine("load " + kData + "/seed_multistream.graph.txt as seed").ok());
    ASSERT_EQ(Run("pipeline set abs_on_stream,nothing,drop_sub"), "pipeline: abs_on_stream, nothing, drop_sub\n");
  }
};

TEST(PipelineCommandsTest, UnknownPassesAreRefusedAndFailingPassesChangeNothing) {
  PipelineShell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " + kData + "/seed_multistream.graph.txt as seed").ok());
  EXPECT_EQ(shell.Run("pipeline insert nosuch before decompose"), "ERROR: pass 'nosuch' is not registered\n");
  // A user pass that cannot do its job fails custom_pre; the stage is not taken.
  ASSERT_TRUE(shell.interpreter.ExecuteLine("pass define bad").ok());
  ASSERT_TRUE(shell.interpreter.ExecuteLine("  on aten.mm.default: erase").ok());
  ASSERT_TRUE(shell.interpreter.ExecuteLine("end").ok());
  ASSERT_TRUE(shell.interpreter.ExecuteLine("pass add pre bad").ok());
  ASSERT_TRUE(shell.interpreter.ExecuteLine("run until aot").ok());
  std::string failed = shell.Run("step");
  EXPECT_NE(failed.find("ERROR: pass 'post_grad_custom_pre_pass' failed"), std::string::npos) << failed;
  EXPECT_NE(failed.find("still at stage 2"), std::string::npos) << failed;
  EXPECT_EQ(shell.Run("expect nodes 6"), "");
  EXPECT_EQ(shell.Run("expect node mm"), "");
}

TEST(PipelineCommandsTest, StepShowDiffBackAndTheCurrentGraphRule) {
  PipelineShell shell;
  shell.Load();
  EXPECT_EQ(shell.Run("step 2"),
            "stage  1  abs_on_stream            changed    6 -> 6 nodes\n"
            "stage  2  nothing                  unchanged  6 -> 6 nodes\n"
            "at stage 2; next pass: 'drop_sub'\n");
  // Every graph command now sees stage 2.
  EXPECT_EQ(shell.Run("expect node abs_1 stream stream_1"), "");
  EXPECT_EQ(shell.Run("next"),
            "stage  3  drop_sub                 changed    6 -> 5 nodes\nend of the pipeline: stage 3, 5 nodes\n");
  EXPECT_EQ(shell.Run("expect nodes 5"), "");
  EXPECT_EQ(shell.Run("expect no node sub"), "");
  EXPECT_NE(shell.Run("node sub").find("no node named 'sub'"), std::string::npos);
  EXPECT_EQ(shell.Run("find sub"), "0 node(s) match 'sub'\n");
  EXPECT_NE(shell.Run("show").find("return (add, add)"), std::string::npos);
  EXPECT_NE(shell.Run("show --stage input").find("return (add, sub)"), std::string::npos);
  EXPECT_NE(shell.Run("show --stage 1 --format readable").find("abs_1"), std::string::npos);
  EXPECT_NE(shell.Run("show --stage nosuch").find("no stage 'nosuch'"), std::string::npos);
  // Completion of node names follows the current stage too.
  EXPECT_EQ(Complete(shell.table, shell.session, "node s").candidates, std::vector<std::string>{});
  EXPECT_EQ(Complete(shell.table, shell.session, "diff dr").candidates, std::vector<std::string>{"drop_sub"});
  EXPECT_EQ(Complete(shell.table, shell.session, "break dr").candidates, std::vector<std::string>{"drop_sub"});
  std::string diff = shell.Run("diff");
  EXPECT_EQ(diff.substr(0, diff.find("---")),
            "stage 2 (nothing) -> stage 3 (drop_sub): 0 added, 1 removed, 1 changed\n"
            "  removed: sub\n"
            "  changed: output (args)\n");
  EXPECT_NE(diff.find("--- stage 2 (nothing)\n+++ stage 3 (drop_sub)\n@@ "), std::string::npos) << diff;
  EXPECT_NE(diff.find("\n-    %sub : "), std::string::npos) << diff;
  EXPECT_NE(diff.find("\n+    return (add, add)\n"), std::string::npos) << diff;
  EXPECT_EQ(shell.Run("diff nothing abs_on_stream"), "stage 2 (nothing) -> stage 1 (abs_on_stream): no differences\n");
  EXPECT_NE(shell.Run("diff input 1").find("changed: abs_1 (stream)"), std::string::npos);
  EXPECT_EQ(shell.Run("back"), "undid 'drop_sub': at stage 2 (nothing), 6 nodes\n");
  EXPECT_EQ(shell.Run("expect node sub"), "");
  EXPECT_EQ(shell.Run("reset"), "back at the input (stage 0), 6 nodes\n");
  EXPECT_EQ(shell.Run("expect node abs_1 stream default"), "");
  EXPECT_NE(shell.Run("diff").find("no pass has run yet"), std::string::npos);
  // Loading the graph again starts a new pipeline.
  shell.Run("step");
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " + kData + "/seed_multistream.graph.txt as seed").ok());
  EXPECT_NE(shell.Run("pipeline").find("at stage 0"), std::string::npos);
  EXPECT_EQ(shell.Run("expect node abs_1 stream default"), "");
}

TEST(PipelineCommandsTest, FailingStepLeavesEverything) {
  PipelineShell shell;
  shell.Load();
  shell.Run("pipeline insert fail_half_way after nothing");
  shell.Run("step 2");
  std::string before = shell.Run("show");
  EXPECT_EQ(shell.Run("step 2"),
            "ERROR: pass 'fail_half_way' failed: cannot handle node 'add' (still at stage 2, graph unchanged; "
            "`skip fail_half_way` steps over it)\n");
  EXPECT_EQ(shell.Run("show"), before);
  EXPECT_EQ(shell.Run("expect node mm"), "");  // the rename was rolled back
  EXPECT_NE(shell.Run("pipeline").find("  ->   3  fail_half_way     failed"), std::string::npos);
}

TEST(PipelineCommandsTest, RunUntilBreakAndStages) {
  PipelineShell shell;
  shell.Load();
  EXPECT_EQ(shell.Run("break drop_sub"), "breakpoint before 'drop_sub'\n");
  EXPECT_EQ(shell.Run("run"),
            "stage  1  abs_on_stream            changed    6 -> 6 nodes\n"
            "stage  2  nothing                  unchanged  6 -> 6 nodes\n"
            "breakpoint: stopped before 'drop_sub' (at stage 2)\n");
  std::string listing = shell.Run("pipeline");
  EXPECT_NE(listing.find("  ->   3  drop_sub      b   pending"), std::string::npos) << listing;
  EXPECT_NE(listing.find("       1  abs_on_stream     changed           -       6"), std::string::npos) << listing;
  std::string stages = shell.Run("stages");
  EXPECT_NE(stages.find("      2  nothing                  ran       no             6  = stage 1, kept"),
            std::string::npos)
      << stages;
  EXPECT_EQ(shell.Run("reset"), "back at the input (stage 0), 6 nodes\n");
  EXPECT_EQ(shell.Run("run until nothing"),
            "stage  1  abs_on_stream            changed    6 -> 6 nodes\n"
            "stage  2  nothing                  unchanged  6 -> 6 nodes\n"
            "stopped after 'nothing' (at stage 2)\n");
  EXPECT_NE(shell.Run("run until abs_on_stream").find("already ran"), std::string::npos);
  EXPECT_EQ(shell.Run("break"), "breakpoints: drop_sub\n");
  EXPECT_EQ(shell.Run("break drop_sub off"), "breakpoint before 'drop_sub' removed\n");
  EXPECT_NE(shell.Run("break bogus").find("no pass 'bogus' in the pipeline"), std::string::npos);
  EXPECT_NE(shell.Run("step 0").find("expected a number of passes"), std::string::npos);
}

TEST(PipelineCommandsTest, BisectFindsTheFirstBadPassAndKeepsTheCursor) {
  PipelineShell shell;
  shell.Load();
  shell.Run("step");
  std::string out = shell.Run("bisect \"expect node sub\"");
  EXPECT_NE(out.find("first bad pass: drop_sub (stage 3); last good: nothing (stage 2)"), std::string::npos) << out;
  EXPECT_NE(out.find("at stage 3: expect failed: node 'sub': expected it to exist, actual no such node"),
            std::string::npos)
      << out;
  EXPECT_NE(shell.Run("pipeline").find("at stage 1"), std::string::npos);
  EXPECT_EQ(shell.Run("expect node sub"), "");  // the current graph is stage 1 again
  EXPECT_NE(shell.Run("bisect \"expect node add\"").find("holds at every stage (0..3)"), std::string::npos);
  EXPECT_NE(shell.Run("bisect \"expect node abs_1 stream stream_1\"").find("already fails on the input"),
            std::string::npos);
}

TEST(PipelineCommandsTest, DumpStageAndAutomaticDumps) {
  PipelineShell shell;
  shell.Load();
  std::string dir = testing::TempDir() + "/airscope_dumps_" + std::to_string(::getpid());
  std::filesystem::remove_all(dir);
  shell.Run("step 2");
  EXPECT_NE(shell.Run("dump fx " + dir + "_input.fx --stage input").find("wrote"), std::string::npos);
  EXPECT_EQ(*ReadFile(dir + "_input.fx"), shell.Run("show --stage input"));
  EXPECT_NE(shell.Run("dump fx x.fx --stage 9").find("stage 9 has not run yet"), std::string::npos);
  shell.Run("reset");
  EXPECT_EQ(shell.Run("set dump.dir " + dir), "");
  EXPECT_EQ(shell.Run("set dump.formats fx,json"), "");
  EXPECT_NE(shell.Run("set dump.formats fx,pdf").find("not 'pdf'"), std::string::npos);
  EXPECT_EQ(shell.Run("set dump.when change"), "");
  EXPECT_NE(shell.Run("run").find("dumped 6 file(s) to " + dir), std::string::npos);
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path().filename());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"00_input.fx", "00_input.json", "01_abs_on_stream.fx",
                                             "01_abs_on_stream.json", "03_drop_sub.fx", "03_drop_sub.json"}));
  EXPECT_EQ(*ReadFile(dir + "/03_drop_sub.fx"), shell.Run("show"));
  std::filesystem::remove_all(dir);
  shell.Run("set dump.when all");
  shell.Run("reset");
  shell.Run("run");
  EXPECT_TRUE(std::filesystem::exists(dir + "/02_nothing.fx"));
  std::filesystem::remove_all(dir);
  std::filesystem::remove(dir + "_input.fx");
}

TEST(DumpInstrumentationTest, FileNamesAndAnUnwritableDirectory) {
  StageRecord stage;
  stage.number = 3;
  stage.pass = "remove_noop";
  EXPECT_EQ(DumpInstrumentation::FileName(stage, "fx"), "03_remove_noop.fx");
  stage.number = 123;
  EXPECT_EQ(DumpInstrumentation::FileName(stage, "dot"), "123_remove_noop.dot");
  DumpInstrumentation dumps({"/proc/airscope_cannot_be_here", {"fx"}, DumpInstrumentation::When::kAll});
  auto graph = testing_passes::SmallGraph();
  dumps.OnStage(stage, *graph);
  dumps.OnStage(stage, *graph);
  ASSERT_EQ(dumps.errors().size(), 1u);  // said once, not per stage
  EXPECT_NE(dumps.errors()[0].find("cannot create dump directory"), std::string::npos);
}

}  // namespace
}  // namespace airscope

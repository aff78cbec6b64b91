// Ctrl-C inside airscope (core/interrupt.h): every place that polls the flag
// stops there and leaves things as the command found them: the FX parser, the
// pipeline (between passes, keeping what ran), the simulator (the allocator
// as before the run), a child process (killed), a script (stops at the line).
// The keystrokes themselves are tested through a pty in tests/pty/.
#include "core/interrupt.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "core/child_process.h"
#include "core/device/simulator.h"
#include "core/fx/fx_text.h"
#include "core/pass/pipeline_run.h"
#include "pipeline_test_util.h"
#include "repl/command_table.h"
#include "repl/interpreter.h"
#include "repl/session.h"
#include "core/suggest.h"
#include "shell_test_util.h"

namespace airscope {
namespace {

using namespace testing_passes;

class InterruptTest : public ::testing::Test {
 protected:
  void SetUp() override { ClearInterrupt(); }
  void TearDown() override { ClearInterrupt(); }
};

TEST_F(InterruptTest, CountsRequestsUntilCleared) {
  EXPECT_FALSE(InterruptRequested());
  EXPECT_EQ(RequestInterrupt(), 1);
  EXPECT_EQ(RequestInterrupt(), 2);
  EXPECT_TRUE(InterruptRequested());
  ClearInterrupt();
  EXPECT_FALSE(InterruptRequested());
}

TEST_F(InterruptTest, TheFxParserStops) {
  std::string text = "graph():\n    %x : [num_users=1] = placeholder[target=x]\n";
  std::string previous = "x";
  for (int i = 0; i < 3000; ++i) {
    std::string name = fmt::format("r{}", i);
    text += fmt::format(
        "    %{} : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%{},), "
        "kwargs = {{}})\n",
        name, previous);
    previous = name;
  }
  text += fmt::format("    return ({},)\n", previous);
  ASSERT_TRUE(ParseFxText(text, "chain.graph.txt").ok());
  RequestInterrupt();
  auto parsed = ParseFxText(text, "chain.graph.txt");
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.status().message(), InterruptedStatus().message());
}

// A pass during which the user presses Ctrl-C.
Result<bool> PressCtrlC(Graph&, PassContext&) {
  RequestInterrupt();
  return false;
}

TEST_F(InterruptTest, ThePipelineStopsBetweenPassesKeepingTheStagesThatRan) {
  PassRegistry registry = TestRegistry();
  ASSERT_TRUE(registry.Register(Info("press_ctrl_c", PressCtrlC)).ok());
  PassContext context;
  PipelineEnv env;
  env.passes = &registry;
  env.context = &context;
  PipelineRun run(SmallGraph(), {"insert_neg", "press_ctrl_c", "remove_clone"});
  Result<RunReport> report = run.RunUntil(std::nullopt, env);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->stop, RunReport::Stop::kInterrupted);
  EXPECT_TRUE(report->stopped_early());
  EXPECT_EQ(report->error.message(), InterruptedStatus().message());
  EXPECT_EQ(run.cursor(), 2u);  // insert_neg and press_ctrl_c ran; remove_clone did not
  EXPECT_NE(run.Current().Find("neg"), nullptr);
  ClearInterrupt();
  report = run.RunUntil(std::nullopt, env);  // `run` goes on from there
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->stop, RunReport::Stop::kEnd);
  EXPECT_EQ(run.Current().Find("clone"), nullptr);
  // step stops the same way.
  run.Reset();
  RequestInterrupt();
  RunReport step = run.Step(3, env);
  EXPECT_EQ(step.stop, RunReport::Stop::kInterrupted);
  EXPECT_EQ(run.cursor(), 0u);
}

// `run` interrupted is undone like any interrupted command: the stages it
// ran are dropped and the cursor is back where `run` found it.
TEST_F(InterruptTest, AnInterruptedRunCommandIsUndone) {
  Session session;
  CommandTable table = BuildCommandTable();
  testing_shell::RecordingSink sink;
  Interpreter interpreter(session, table, sink);
  ASSERT_TRUE(session.passes().Register(Info("press_ctrl_c", PressCtrlC)).ok());
  ASSERT_TRUE(interpreter.ExecuteLine("load " AIRSCOPE_TEST_DATA "/mlp.readable.py").ok());
  ASSERT_TRUE(interpreter.ExecuteLine("pipeline insert press_ctrl_c after aot").ok());
  ASSERT_TRUE(interpreter.ExecuteLine("next").ok());  // stage 1: the command before
  Status run = interpreter.ExecuteLine("run");
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.message(),
            "interrupted (Ctrl-C) before 'post_grad_custom_pre_pass': the stages this command ran are "
            "dropped; back at stage 1, as before it");
  Result<PipelineRun*> pipeline = session.CurrentPipeline();
  ASSERT_TRUE(pipeline.ok());
  EXPECT_EQ((*pipeline)->cursor(), 1u);
  ClearInterrupt();
  EXPECT_TRUE(interpreter.ExecuteLine("run until aot").ok());  // and it goes on from there
  EXPECT_EQ((*pipeline)->cursor(), 2u);
}

TaskGraph Kernels(int n) {
  TaskGraph g;
  g.streams = {""};
  for (int i = 0; i < n; ++i) {
    DeviceTask t;
    t.id = static_cast<uint32_t>(i);
    t.kind = TaskKind::kKernel;
    t.node = fmt::format("k{}", i);
    t.op = "aten.x.default";
    if (i > 0) t.deps.push_back(static_cast<uint32_t>(i - 1));
    t.cost = {1e6, 1 << 20, 1 << 20};
    t.cost_known = true;
    g.tasks.push_back(t);
  }
  return g;
}

void ExpectSameStats(const PoolStats& a, const PoolStats& b) {
  EXPECT_EQ(a.reserved, b.reserved);
  EXPECT_EQ(a.allocated, b.allocated);
  EXPECT_EQ(a.peak_allocated, b.peak_allocated);
  EXPECT_EQ(a.segments, b.segments);
  EXPECT_EQ(a.live_blocks, b.live_blocks);
  EXPECT_EQ(a.allocations, b.allocations);
  EXPECT_EQ(a.reused, b.reused);
}

TEST_F(InterruptTest, AnInterruptedEagerRunLeavesTheDeviceAsItWas) {
  SimDevice device(*DevicePreset("ascend-910b"));
  RunOptions options;
  options.iterations = 3;
  ASSERT_TRUE(device.Eager(Kernels(8), "g", options).ok());
  PoolStats before = device.allocator().Stats(kDefaultPool);
  std::string title = device.last_trace().title;
  RequestInterrupt();
  options.iterations = 1000000;
  Result<RunResult> run = device.Eager(Kernels(8), "g", options);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().message(), InterruptedStatus().message());
  ExpectSameStats(device.allocator().Stats(kDefaultPool), before);
  EXPECT_EQ(device.last_trace().title, title);  // the last finished run's trace
}

TEST_F(InterruptTest, AnInterruptedReplayKeepsTheLastTrace) {
  SimDevice device(*DevicePreset("ascend-910b"));
  Result<uint32_t> id = device.Capture(Kernels(4), "g", {}, CaptureOptions{});
  ASSERT_TRUE(id.ok()) << id.status().message();
  std::string title = device.last_trace().title;
  RequestInterrupt();
  RunOptions options;
  options.iterations = 1000;
  Result<RunResult> run = device.Replay(*id, options);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().message(), InterruptedStatus().message());
  EXPECT_EQ(device.last_trace().title, title);
}

TEST_F(InterruptTest, AChildProcessHandsBackItsBytesOrItsError) {
  Result<std::string> bytes = RunInChildProcess("test", [] { return Result<std::string>(std::string(300000, 'b')); });
  ASSERT_TRUE(bytes.ok()) << bytes.status().message();
  EXPECT_EQ(*bytes, std::string(300000, 'b'));
  Result<std::string> failed =
      RunInChildProcess("test", [] { return Result<std::string>(Status::Error("no layout")); });
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().message(), "no layout");
}

TEST_F(InterruptTest, AChildThatDiesIsAnErrorNotTheEnd) {
  Result<std::string> died = RunInChildProcess("graphviz sfdp layout", []() -> Result<std::string> {
    // SIGKILL: no sanitizer or handler can turn it into an exit.
    ::kill(::getpid(), SIGKILL);
    return std::string("unreachable");
  });
  ASSERT_FALSE(died.ok());
  EXPECT_NE(died.status().message().find("graphviz sfdp layout: its process died of signal 9"), std::string::npos)
      << died.status().message();
}

TEST_F(InterruptTest, CtrlCKillsTheChildPromptly) {
  // The fork waits until the presser thread runs: a thread still starting up
  // holds the sanitizers' allocator lock now and then, and a child forked then
  // would inherit it held (core/child_process.h).
  std::atomic<bool> started{false};
  std::thread presser([&started] {
    started = true;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    RequestInterrupt();
  });
  while (!started) std::this_thread::yield();
  auto start = std::chrono::steady_clock::now();
  Result<std::string> stopped = RunInChildProcess("slow", []() -> Result<std::string> {
    ::sleep(30);
    return std::string("too late");
  });
  presser.join();
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.status().message(), InterruptedStatus().message());
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST_F(InterruptTest, AScriptStopsAtTheLineEvenWithOnErrorContinue) {
  Session session;
  CommandTable table = BuildCommandTable();
  testing_shell::RecordingSink sink;
  Interpreter interpreter(session, table, sink);
  RequestInterrupt();
  Status status = interpreter.RunCommandText("set on-error continue; echo one; echo two");
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.message().find("-c:1: interrupted (Ctrl-C)"), std::string::npos) << status.message();
  EXPECT_EQ(sink.text.find("one"), std::string::npos) << sink.text;
}

TEST(SuggestTest, TypoDistanceCountsSwapsAsOneEdit) {
  EXPECT_EQ(TypoDistance("load", "load"), 0u);
  EXPECT_EQ(TypoDistance("lod", "load"), 1u);
  EXPECT_EQ(TypoDistance("laod", "load"), 1u);  // a swap
  EXPECT_EQ(TypoDistance("", "abc"), 3u);
  EXPECT_EQ(TypoDistance("kitten", "sitting"), 3u);
}

TEST(SuggestTest, SuggestsOnlyNamesCloseEnoughToBeTypos) {
  std::vector<std::string> names = {"load", "graphs", "timeline", "replay"};
  EXPECT_EQ(ClosestName("lod", names), "load");
  EXPECT_EQ(ClosestName("timelnie", names), "timeline");
  EXPECT_EQ(ClosestName("zzz", names), std::nullopt);
  EXPECT_EQ(ClosestName("ab", names), std::nullopt);
  EXPECT_EQ(DidYouMean("grpahs", names), " (did you mean graphs?)");
}

TEST(CommandAliasTest, OneLetterAliasesWinOverPrefixes) {
  CommandTable table = BuildCommandTable();
  auto name = [&](std::string_view word) {
    Result<const CommandSpec*> spec = table.Lookup(word);
    return spec.ok() ? (*spec)->name : spec.status().message();
  };
  EXPECT_EQ(name("n"), "next");  // not "ambiguous: next, node"
  EXPECT_EQ(name("s"), "step");
  EXPECT_EQ(name("c"), "run");
  EXPECT_EQ(name("r"), "run");
  EXPECT_EQ(name("b"), "break");
  EXPECT_EQ(name("q"), "quit");
  EXPECT_EQ(name("exit"), "quit");
  EXPECT_EQ(name("no"), "node");  // prefixes still work
  EXPECT_EQ(name("laod"), "unknown command \"laod\" (did you mean load?) (try help)");
}

}  // namespace
}  // namespace airscope

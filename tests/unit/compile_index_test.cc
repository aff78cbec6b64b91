// The one index (repl/compile_index.h): compile times from TORCH_TRACE's
// chromium_event pairs and TORCH_LOGS' Step lines, model__K tied to a compile
// by its Dynamo graph (or said to be tied by order only), fx graphs tied through
// TorchAir's debug.log, and the report's compiles for TORCH_LOGS text.
#include "repl/compile_index.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/unit/trace_record_test_util.h"

#include "repl/cache_state.h"
#include "repl/report_collector.h"
#include "shell_test_util.h"
#include "formats/md5.h"
#include "formats/torch_trace.h"

namespace airscope {
namespace {

using testing_shell::TestShell;
namespace fs = std::filesystem;

using testing_trace::Record;

// A chromium_event as dynamo_timed logs it (torch/_dynamo/utils.py).
std::string Event(std::string_view name, std::string_view ph, double ts, std::string_view id) {
  return Record(R"("chromium_event": {})",
                fmt::format(R"({{"name": "{}", "ts": {}, "args": {{"compile_id": "{}"}}, "ph": "{}", "cat": )"
                            R"("dynamo_timed", "tid": 0, "pid": 0}})",
                            name, ts, id, ph));
}

TEST(CompileTimesTest, ChromiumEventPairsArePhasesOfTheirCompileNestedByDepth) {
  std::string log =
      Event("compile_file", "B", 1, "None") + Event("compile_file", "E", 9, "None") +
      Event("entire_frame_compile", "B", 1000000, "0/0") + Event("backend_compile", "B", 1200000, "0/0") +
      Event("backend_compile", "E", 1700000, "0/0") + Event("entire_frame_compile", "E", 2000000, "0/0") +
      Event("gc", "E", 2100000, "0/0") +
      Record(R"("chromium_event": {})",
             R"({"name": "kernel", "ts": 2500000, "dur": 250000, "args": {"compile_id": "0/0"}, "ph": "X"})") +
      Record(R"("compilation_metrics": {"entire_frame_compile_time_s": 1.5, "backend_compile_time_s": null, )"
             R"("dynamo_cumulative_compile_time_us": 250000}, "frame_id": 0, "frame_compile_id": 0)");
  // A graph break as symbolic_convert.py logs it (artifact dynamo_graph_break_reason).
  log += Record(R"("artifact": {"name": "dynamo_graph_break_reason", "encoding": "string"}, "frame_id": 0, )"
                R"("frame_compile_id": 0)",
                "Graph break in user code at /x.py:7\nReason: Unsupported: Tensor.item\nUser code traceback:");
  TraceLog parsed = ParseTraceLog(log, "t.log");
  ASSERT_EQ(parsed.graph_breaks.size(), 1u);
  EXPECT_EQ(parsed.graph_breaks[0].compile_id, "0/0");
  EXPECT_EQ(parsed.graph_breaks[0].summary, "Graph break in user code at /x.py:7 Reason: Unsupported: Tensor.item");
  ASSERT_EQ(parsed.phases.size(), 3u);
  EXPECT_EQ(parsed.phases[0].name, "entire_frame_compile");
  EXPECT_DOUBLE_EQ(parsed.phases[0].seconds, 1.0);
  EXPECT_EQ(parsed.phases[0].depth, 0);
  EXPECT_EQ(parsed.phases[1].name, "backend_compile");
  EXPECT_DOUBLE_EQ(parsed.phases[1].seconds, 0.5);
  EXPECT_EQ(parsed.phases[1].depth, 1);
  EXPECT_EQ(parsed.phases[2].name, "kernel");
  EXPECT_DOUBLE_EQ(parsed.phases[2].seconds, 0.25);
  EXPECT_EQ(parsed.unmatched_phase_events, 1u) << "the E of gc had no B";
  ASSERT_EQ(parsed.compiles.size(), 1u);
  // null fields are not times; *_us are converted to seconds.
  EXPECT_EQ(parsed.compiles[0].metric_times,
            (std::vector<std::pair<std::string, double>>{{"dynamo_cumulative_compile_time_us", 0.25},
                                                         {"entire_frame_compile_time_s", 1.5}}));
}

class CompileIndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) / ("airscope_index_" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& rel, std::string_view text) {
    fs::path p = dir_ / rel;
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
    return p.string();
  }
  const LogBundle& Bundle(TestShell& shell) {
    const CacheState* state = FindCacheState(shell.session);
    EXPECT_TRUE(state && state->bundle);
    return *state->bundle;
  }
  fs::path dir_;
};

// A Dynamo graph as TORCH_LOGS=graph_code prints it, glog prefix on every line.
std::string GraphCode(std::string_view id, std::string_view op, std::string_view stamp) {
  std::string out;
  for (std::string_view line : {std::string_view("TRACED GRAPH"), std::string_view(" ===== __compiled_fn_1 ====="),
                                std::string_view(" /x.py class GraphModule(torch.nn.Module):"),
                                std::string_view("    def forward(self, L_x_: \"f32[3]\"):"),
                                std::string_view("        l_x_ = L_x_"), std::string_view("")}) {
    out += fmt::format("V0101 {} 9 output_graph.py:1] [{}] [__graph_code] {}\n", stamp, id, line);
  }
  out += fmt::format("V0101 {} 9 output_graph.py:1] [{}] [__graph_code]         y = torch.{}(l_x_);  l_x_ = None\n",
                     stamp, id, op);
  out += fmt::format("V0101 {} 9 output_graph.py:1] [{}] [__graph_code]         return (y,)\n", stamp, id);
  return out;
}

TEST_F(CompileIndexTest, StepLinesTimeTheirCompileAndModelKIsTiedByItsDynamoGraph) {
  // torchdynamo/debug.log: compiles 0/0 (sin) and 1/0 (cos) with Dynamo's Step lines.
  std::string log = "I0101 00:00:01.000000 9 logging.py:1] [0/0] Step 1: torchdynamo start tracing f /x.py:1\n" +
                    GraphCode("0/0", "sin", "00:00:01.400000") +
                    "I0101 00:00:01.500000 9 logging.py:1] [0/0] Step 1: torchdynamo done tracing f (RETURN_VALUE)\n"
                    "I0101 00:00:01.600000 9 logging.py:1] [0/0] Step 2: calling compiler function npu_backend\n"
                    "I0101 00:00:02.850000 9 logging.py:1] [0/0] Step 2: done compiler function npu_backend\n" +
                    GraphCode("1/0", "cos", "00:00:03.000000");
  std::string run = "tcd/run_1-pid_9/";
  Write(run + "torchdynamo/debug.log", log);
  // model__0 holds 0/0's graph; model__1 a graph that is not 1/0's (tied by order only).
  TestShell shell;
  std::string dynamo0 =
      "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_: \"f32[3]\"):\n"
      "        l_x_ = L_x_\n        y = torch.sin(l_x_);  l_x_ = None\n        return (y,)\n";
  Write(run + "torchair/model__0/dynamo_out_graph.txt", dynamo0);
  std::string other = dynamo0;
  other.replace(other.find("torch.sin"), 9, "torch.tan");
  Write(run + "torchair/model__1/dynamo_out_graph.txt", other);
  ASSERT_TRUE(shell.interpreter.RunCommandText("load " + (dir_ / "tcd").string()).ok()) << shell.sink.text;
  CompileIndex index = BuildCompileIndex(Bundle(shell), shell.session);
  ASSERT_EQ(index.compiles.size(), 2u);
  const IndexCompile& c0 = index.compiles[0];
  EXPECT_EQ(c0.id, "0/0");
  ASSERT_EQ(c0.phases.size(), 2u);
  EXPECT_EQ(c0.phases[0].name, "Dynamo tracing (Step 1)");
  EXPECT_NEAR(c0.phases[0].seconds, 0.5, 1e-9);
  EXPECT_NEAR(c0.phases[1].seconds, 1.25, 1e-9);
  ASSERT_FALSE(c0.torchair.empty());
  EXPECT_NE(c0.torchair[0].find("its dynamo_out_graph.txt matches 0/0:dynamo"), std::string::npos) << c0.torchair[0];
  const IndexCompile& c1 = index.compiles[1];
  ASSERT_FALSE(c1.torchair.empty());
  EXPECT_NE(c1.torchair[0].find("by order; its dynamo_out_graph.txt differs from 1/0:dynamo"), std::string::npos)
      << c1.torchair[0];
  EXPECT_EQ(PhaseSummary(c1), "-");
  // The index is what `compiles` and `compiles ID` print.
  ASSERT_TRUE(shell.interpreter.RunCommandText("compiles 0/0").ok());
  EXPECT_NE(shell.sink.text.find("backend compile (Step 2: calling -> done compiler function) 1.250 s"),
            std::string::npos)
      << shell.sink.text;
  EXPECT_FALSE(shell.interpreter.RunCommandText("compiles 7/7").ok());
}

TEST_F(CompileIndexTest, TheReportListsTheCompilesOfTorchLogsTextWithLinksToTheirGraphs) {
  std::string path = Write("t.log", GraphCode("0/0", "sin", "00:00:01.000000") +
                                        "V0101 00:00:02.000000 9 guards.py:1] [0/0] [__guards] GUARDS:\n"
                                        "V0101 00:00:02.000000 9 guards.py:2] [0/0] [__guards] L['x'] == 1\n");
  TestShell shell;
  ASSERT_TRUE(shell.interpreter.RunCommandText("load " + path).ok()) << shell.sink.text;
  Result<ReportData> data = CollectReport(shell.interpreter, "test");
  ASSERT_TRUE(data.ok()) << data.status().message();
  ASSERT_EQ(data->logs.size(), 1u);
  EXPECT_EQ(data->logs[0].kind, "TORCH_LOGS text");
  ASSERT_EQ(data->logs[0].compiles.size(), 1u);
  const ReportCompile& c = data->logs[0].compiles[0];
  EXPECT_EQ(c.id, "0/0");
  EXPECT_EQ(c.guards, "1");
  EXPECT_EQ(c.graphs, std::vector<std::string>{"0/0:dynamo"});
  EXPECT_EQ(data->logs[0].guards.size(), 1u);
}

}  // namespace
}  // namespace airscope

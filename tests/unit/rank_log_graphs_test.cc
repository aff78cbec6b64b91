#include "repl/rank_log_graphs.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "repl/command_output.h"
#include "bench/trace_records.h"
#include "repl/log_commands.h"
#include "tests/unit/shell_test_util.h"
#include "tests/unit/test_data.h"

namespace airscope {
namespace {

std::string ReadableGraph(std::string_view size) {
  return fmt::format(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_x_: \"f32[{0}]\"):\n"
      "        sin: \"f32[{0}]\" = torch.ops.aten.sin.default(L_x_)\n"
      "        return (sin,)\n",
      size);
}

TraceLog RankLog(int rank, std::string_view size) {
  TraceLog log;
  log.path = fmt::format("rank_{}.log", rank);
  log.rank = rank;
  log.graphs.push_back({"0/0", "dynamo_output_graph", ReadableGraph("4"), 2});
  log.graphs.push_back({"0/0", "aot_forward_graph", ReadableGraph(size), 9});
  log.graphs.push_back({"0/0", "aot_forward_graph", ReadableGraph(size), 16});  // the same stage twice: #2
  return log;
}

TEST(RankLogGraphsTest, ATextSeveralRanksLoggedIsParsedOnceAndNamedAfterThem) {
  std::vector<TraceLog> logs = {RankLog(0, "4"), RankLog(1, "8"), RankLog(2, "4"), RankLog(3, "4")};
  std::vector<std::pair<int, const TraceLog*>> ranks;
  for (const TraceLog& log : logs) ranks.emplace_back(log.rank, &log);
  std::vector<std::string> shown = {"r0.log", "r1.log", "r2.log", "r3.log"};
  RankGraphs loaded = LoadRankGraphs(ranks, shown, "job:", OpRegistry::Builtin());
  ASSERT_TRUE(loaded.warnings.empty());
  ASSERT_EQ(loaded.graphs.size(), 12u);
  // dynamo_output_graph alike on all four; aot_forward_graph (and its #2) alike on 0, 2, 3, apart on 1.
  EXPECT_EQ(loaded.parsed, 5u);
  EXPECT_EQ(loaded.graphs[0].first, "job:rank0:0/0:dynamo_output_graph");
  EXPECT_EQ(loaded.graphs[0].second.graph->name(), "job:rank0-3:0/0:dynamo_output_graph");
  EXPECT_EQ(loaded.graphs[2].first, "job:rank0:0/0:aot_forward_graph#2");
  EXPECT_EQ(loaded.graphs[2].second.graph->name(), "job:rank0,2-3:0/0:aot_forward_graph#2");
  EXPECT_EQ(loaded.graphs[4].second.graph->name(), "job:rank1:0/0:aot_forward_graph");
  // One Graph shared, each entry with its own rank's log.
  EXPECT_EQ(loaded.graphs[0].second.graph.get(), loaded.graphs[9].second.graph.get());
  EXPECT_EQ(loaded.graphs[9].second.path, "rank_3.log");
  EXPECT_NE(loaded.graphs[1].second.graph.get(), loaded.graphs[4].second.graph.get());
}

TEST(RankLogGraphsTest, AGraphThatDoesNotParseIsAWarningNamingItsRanks) {
  TraceLog a = RankLog(0, "4");
  TraceLog b = RankLog(1, "4");
  a.graphs[0].text = b.graphs[0].text =
      "class GraphModule(torch.nn.Module):\n    def forward(self, x):\n        y = x\n";
  RankGraphs loaded = LoadRankGraphs({{0, &a}, {1, &b}}, {"a.log", "b.log"}, "", OpRegistry::Builtin());
  ASSERT_EQ(loaded.warnings.size(), 1u);
  EXPECT_TRUE(loaded.warnings[0].starts_with("rank0-1:0/0:dynamo_output_graph not loaded: a.log:2:"))
      << loaded.warnings[0];
  EXPECT_EQ(loaded.graphs.size(), 4u);
}

TEST(RankLogGraphsTest, RankRangesAndNames) {
  EXPECT_EQ(RankRanges({0, 1, 2, 3, 5, 7, 8}), "0-3,5,7-8");
  EXPECT_EQ(RankRanges({4}), "4");
  TraceLog log = RankLog(0, "4");
  log.graphs.push_back({"", "dynamo_output_graph", "", 30});
  EXPECT_EQ(TraceGraphNames(log, "p:"),
            (std::vector<std::string>{"p:0/0:dynamo_output_graph", "p:0/0:aot_forward_graph",
                                      "p:0/0:aot_forward_graph#2", "p:-:dynamo_output_graph"}));
}

TEST(RankLogGraphsTest, ReadTraceLogsKeepsTheFilesOrderAndTheirErrors) {
  std::vector<Result<TraceLog>> read = ReadTraceLogs(
      {testing_util::kData + "/torch_trace/multi_rank/dedicated_log_torch_trace_rank_3.log", "/nonexistent/rank.log",
       testing_util::kData + "/torch_trace/multi_rank/dedicated_log_torch_trace_rank_0.log"},
      uint64_t{1} << 30);
  ASSERT_EQ(read.size(), 3u);
  ASSERT_TRUE(read[0].ok());
  EXPECT_EQ(read[0]->compiles.size(), 7u);
  EXPECT_FALSE(read[1].ok());
  ASSERT_TRUE(read[2].ok());
  EXPECT_EQ(read[2]->compiles.size(), 1u);
}

TEST(RankLogGraphsTest, ALongGuardLineIsShownWhereItDiffers) {
  // The difference past column 160 must be on screen in both lines.
  std::string head =
      "| +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(PrivateUse1, BackendSelect, "
      "ADInplaceOrView, AutogradPrivateUse1), torch.bfloat16, device=0, requires_grad=False, ";
  TraceLog a, b;
  TraceCompile compile;
  compile.id = "0/0";
  a.compiles = b.compiles = {compile};
  a.cpp_guards["0/0"] = "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n" + head + "size=[None, 4096])\n";
  b.cpp_guards["0/0"] = "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n" + head + "size=[None, 8192])\n";
  CommandOutput out;
  PrintRankDivergence(out, {{0, &a}, {1, &b}});
  std::string text = out.Text();
  EXPECT_NE(text.find("rank 0: ..."), std::string::npos) << text;
  EXPECT_NE(text.find("size=[None, 4096])"), std::string::npos) << text;
  EXPECT_NE(text.find("size=[None, 8192])"), std::string::npos) << text;
}

TEST(RankLogGraphsTest, ALoadOfManyGraphsListsFortyAndCountsTheRest) {
  std::string log;
  for (int compile = 0; compile < 50; ++compile) {
    bench::Record(log,
                  fmt::format("{{\"dynamo_output_graph\": {{}}, \"frame_id\": {}, \"frame_compile_id\": 0, "
                              "\"attempt\": 0",
                              compile),
                  ReadableGraph("4"));
  }
  testing_shell::TestShell shell;
  std::string path = testing_shell::WriteTemp("fifty_graphs.log", log);
  ASSERT_TRUE(shell.interpreter.ExecuteLine("load " + path).ok()) << shell.sink.text;
  EXPECT_NE(shell.sink.text.find("  39/0:dynamo_output_graph"), std::string::npos) << shell.sink.text;
  EXPECT_EQ(shell.sink.text.find("  40/0:dynamo_output_graph"), std::string::npos) << shell.sink.text;
  EXPECT_NE(shell.sink.text.find("... and 10 more graph(s) (50 in all; graphs lists them)"), std::string::npos)
      << shell.sink.text;
  EXPECT_EQ(shell.session.graphs().size(), 50u);
}

}  // namespace
}  // namespace airscope

#include "formats/rank_divergence.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

namespace airscope {
namespace {

// A dynamo_cpp_guards_str payload as torch/_dynamo/guards.py logs it:
// GuardManagerWrapper.__str__ (an empty line, the header, the tree), then
// "\nGuard latency = X us" from CheckFunctionManager.__init__'s payload_fn.
std::string CppGuards(std::string_view size, std::string_view latency, std::string_view type_id = "8812224") {
  return fmt::format(
      "\n"
      "TREE_GUARD_MANAGER:\n"
      "+- RootGuardManager\n"
      "| +- GLOBAL_STATE: ___check_global_state()\n"
      "| +- GuardManager: source=L['x'], accessed_by=FrameLocalsGuardAccessor(key='x', framelocals_idx=0)\n"
      "| | +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(CPU), torch.float32, device=None, "
      "requires_grad=False, size=[{}, 2], stride=[2, 1])\n"
      "| | +- TYPE_MATCH: ___check_type_id(L['x'], {})\n"
      "\n"
      "Guard latency = {} us",
      size, type_id, latency);
}

TraceLog LogWith(std::string id, std::string guards) {
  TraceLog log;
  TraceCompile c;
  c.id = id;
  log.compiles.push_back(c);
  log.cpp_guards[id] = std::move(guards);
  return log;
}

TEST(RankDivergenceTest, SplitGuardDumpKeepsGuardsAndTakesTheLatencyApart) {
  GuardDump dump = SplitGuardDump(CppGuards("2", "15.88"));
  ASSERT_EQ(dump.guards.size(), 5u);
  EXPECT_EQ(dump.guards.front().first, 3u);  // payload line 3: after the empty line and the header
  EXPECT_EQ(dump.guards.front().second, "+- RootGuardManager");
  EXPECT_EQ(dump.guards.back().second, "| | +- TYPE_MATCH: ___check_type_id(L['x'], 8812224)");
  ASSERT_TRUE(dump.latency_us.has_value());
  EXPECT_DOUBLE_EQ(*dump.latency_us, 15.88);
  for (const auto& [line, text] : dump.guards) EXPECT_EQ(text.find("latency"), std::string::npos) << text;
}

TEST(RankDivergenceTest, ALineThatOnlyLooksLikeTheLatencyIsAGuard) {
  GuardDump dump = SplitGuardDump("+- LAMBDA_GUARD: Guard latency = x us\nGuard latency = 3.04 us");
  ASSERT_EQ(dump.guards.size(), 1u);
  EXPECT_DOUBLE_EQ(*dump.latency_us, 3.04);
}

TEST(RankDivergenceTest, LatencyAndObjectIdsAreNotADivergence) {
  TraceLog a = LogWith("0/0", CppGuards("2", "15.88", "8812224"));
  TraceLog b = LogWith("0/0", CppGuards("2", "17.38", "9912345"));
  RankDivergence d = CompareRanks({{1, &a}, {3, &b}});
  EXPECT_TRUE(d.guards.empty());
  EXPECT_EQ(d.guards_compared, 1u);
  EXPECT_EQ(d.latencies_compared, 1u);
  EXPECT_TRUE(d.latencies.empty());  // 17.38 / 15.88 is well under 2x
  ASSERT_EQ(d.compile_ids.size(), 1u);
  EXPECT_EQ(d.compile_ids[0].first, (std::vector<int>{1, 3}));
}

TEST(RankDivergenceTest, AGuardThatDiffersIsNamedWithItsPayloadLine) {
  TraceLog a = LogWith("0/0", CppGuards("2", "3.00"));
  TraceLog b = LogWith("0/0", CppGuards("4", "3.10"));
  RankDivergence d = CompareRanks({{1, &a}, {3, &b}});
  ASSERT_EQ(d.guards.size(), 1u);
  EXPECT_EQ(d.guards[0].id, "0/0");
  EXPECT_EQ(d.guards[0].rank_a, 1);
  EXPECT_EQ(d.guards[0].rank_b, 3);
  EXPECT_EQ(d.guards[0].line, 6u);
  EXPECT_NE(d.guards[0].a.find("size=[2, 2]"), std::string::npos);
  EXPECT_NE(d.guards[0].b.find("size=[4, 2]"), std::string::npos);
}

TEST(RankDivergenceTest, ALatencyPastTheThresholdIsATimingNotAGuardDifference) {
  TraceLog a = LogWith("0/0", CppGuards("2", "3.00"));
  TraceLog b = LogWith("0/0", CppGuards("2", "22.10"));
  TraceLog c = LogWith("0/0", CppGuards("2", "9.00"));  // 3x but only 6 us more than rank 1's: not alone
  RankDivergence d = CompareRanks({{1, &a}, {3, &b}, {5, &c}});
  EXPECT_TRUE(d.guards.empty());
  ASSERT_EQ(d.latencies.size(), 1u);
  EXPECT_EQ(d.latencies[0].id, "0/0");
  EXPECT_EQ(d.latencies[0].per_rank.size(), 3u);

  RankDivergence small = CompareRanks({{1, &a}, {5, &c}});
  EXPECT_TRUE(small.latencies.empty());
  EXPECT_DOUBLE_EQ(small.largest_ratio, 3.0);
}

TEST(RankDivergenceTest, GraphsAndRecompileReasonsAreCompared) {
  TraceLog a = LogWith("0/1", CppGuards("2", "3.00"));
  TraceLog b = LogWith("0/1", CppGuards("2", "3.00"));
  a.graphs.push_back({"0/1", "dynamo_output_graph", "def forward(self, L_x_: \"f32[3]\"):\n    return (L_x_,)", 1});
  b.graphs.push_back({"0/1", "dynamo_output_graph", "def forward(self, L_x_: \"f32[4]\"):\n    return (L_x_,)", 1});
  a.recompiles.push_back({"0/1", 1, {"0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3"}});
  b.recompiles.push_back({"0/1", 1, {"0/0: tensor 'x' size mismatch at index 0. expected 2, actual 3"}});
  RankDivergence d = CompareRanks({{0, &a}, {1, &b}});
  ASSERT_EQ(d.graphs.size(), 1u);
  EXPECT_EQ(d.graphs[0].id, "0/1:dynamo_output_graph");
  EXPECT_EQ(d.graphs[0].line, 1u);
  EXPECT_EQ(d.graphs_compared, 1u);
  EXPECT_TRUE(d.recompiles.empty());
  EXPECT_EQ(d.recompiles_compared, 1u);
}

TEST(RankDivergenceTest, CompileIdsAreGroupedByTheRanksThatLoggedThem) {
  TraceLog a = LogWith("0/0", CppGuards("2", "3.00"));
  TraceLog b = LogWith("0/0", CppGuards("2", "3.00"));
  TraceCompile extra;
  extra.id = "0/1";
  b.compiles.push_back(extra);
  RankDivergence d = CompareRanks({{0, &a}, {3, &b}});
  ASSERT_EQ(d.compile_ids.size(), 2u);
  EXPECT_EQ(d.compile_ids[0].first, (std::vector<int>{0, 3}));
  EXPECT_EQ(d.compile_ids[1].first, (std::vector<int>{3}));
  EXPECT_EQ(d.compile_ids[1].second, (std::vector<std::string>{"0/1"}));
}

}  // namespace
}  // namespace airscope

// advise (repl/advise.h) and the coverage ledger (repl/coverage.h): every
// count advise predicts is what replaying the history under that setting
// produces, the session is left as it was, and the ledger agrees with the
// AclGraph counters.
#include "repl/advise.h"

#include <gtest/gtest.h>

#include "repl/cache_state.h"
#include "repl/coverage.h"
#include "shell_test_util.h"

namespace airscope {
namespace {

using testing_shell::TestShell;

void RunLines(TestShell& shell, const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    Status status = shell.interpreter.ExecuteLine(line);
    ASSERT_TRUE(status.ok()) << line << ": " << status.message();
  }
}

const std::vector<std::string> kMlpCalls = {
    "call arg0_1=f32[8,64]", "call arg0_1=f32[16,64]", "call arg0_1=f32[32,64]",
    "call arg0_1=f32[8,64]", "call arg0_1=f32[64,64]", "call arg0_1=f32[16,64]",
};

TEST(Advise, PredictionsAreReplaysAndTheSessionIsPutBack) {
  TestShell shell;
  RunLines(shell, {"set mode reduce-overhead", "load " AIRSCOPE_TEST_DATA "/mlp.readable.py as mlp"});
  RunLines(shell, kMlpCalls);
  const CacheState* state = FindCacheState(shell.session);
  ASSERT_NE(state, nullptr);
  int64_t bytes_before = shell.session.device().sim.allocator().total_reserved();
  size_t entries_before = state->frame->entries().size();

  Result<CallHistory> history = HistoryFromSession(*state, "mlp");
  ASSERT_TRUE(history.ok()) << history.status().message();
  EXPECT_EQ(history->calls.size(), 6u);
  Result<AdviseResult> r = Advise(shell.interpreter, *history, AdviseScope::kAll);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->baseline_matches);
  EXPECT_EQ(r->baseline_counts.compiles, 2u);
  EXPECT_EQ(r->baseline_counts.captures, 5u);
  ASSERT_FALSE(r->rows.empty());
  const AdviseRow& top = r->rows.front();
  EXPECT_TRUE(top.better);
  EXPECT_EQ(top.candidate.name, "mark_dynamic arg0_1 0");

  // The session: same graph current, same cache, same device memory.
  EXPECT_EQ(shell.session.current()->name, "mlp");
  EXPECT_EQ(FindCacheState(shell.session)->frame->entries().size(), entries_before);
  EXPECT_EQ(shell.session.device().sim.allocator().total_reserved(), bytes_before);

  // The top suggestion replayed by hand in a session of its own gives advise's numbers.
  TestShell fresh;
  RunLines(fresh, {"set mode reduce-overhead", "load " AIRSCOPE_TEST_DATA "/mlp.readable.py as mlp"});
  RunLines(fresh, top.candidate.setup);
  RunLines(fresh, kMlpCalls);
  const CacheState* replayed = FindCacheState(fresh.session);
  EXPECT_EQ(replayed->frame->entries().size(), top.counts.compiles);
  uint64_t captures = 0;
  for (const auto& rt : replayed->runtimes) captures += rt.graph ? rt.graph->stats().captures : 0;
  EXPECT_EQ(captures, top.counts.captures);
}

TEST(Advise, OtherGraphsCachesAreSetAsideAndPutBack) {
  // Another graph's AclGraphs hold the session's device: the replay, on a
  // fresh device, must not see them (their buffers are not on it), and they
  // come back untouched.
  TestShell shell;
  RunLines(shell, {"set mode reduce-overhead", "load " AIRSCOPE_TEST_DATA "/mlp.readable.py as first"});
  RunLines(shell, kMlpCalls);
  RunLines(shell, {"load " AIRSCOPE_TEST_DATA "/mlp.readable.py as second"});
  RunLines(shell, kMlpCalls);
  const Session::Entry* first = shell.session.Find("first");
  ASSERT_TRUE(first && first->cache && first->cache->frame);
  const CacheState* before = first->cache.get();
  Result<CallHistory> history = HistoryFromSession(*FindCacheState(shell.session), "second");
  ASSERT_TRUE(history.ok());
  Result<AdviseResult> r = Advise(shell.interpreter, *history, AdviseScope::kAll);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->baseline_matches);
  EXPECT_EQ(shell.session.Find("first")->cache.get(), before);
  EXPECT_EQ(shell.session.current()->name, "second");
}

TEST(Coverage, AgreesWithTheAclGraphCounters) {
  TestShell shell;
  RunLines(shell, {"set mode reduce-overhead", "set config.debug.aclgraph.static_capture_size_limit 2",
                   "load " AIRSCOPE_TEST_DATA "/mlp.readable.py as mlp", "mark_dynamic arg0_1 0"});
  RunLines(shell, kMlpCalls);
  const CacheState* state = FindCacheState(shell.session);
  Coverage c = BuildCoverage(*state);
  EXPECT_TRUE(c.mismatches.empty()) << c.mismatches.front();
  EXPECT_EQ(c.calls, 6u);
  const AclGraphStats& s = state->runtimes.at(0).graph->stats();
  size_t captured = 0, replayed = 0, eager = 0;
  for (const CoverageRow& row : c.rows) {
    captured += row.captured + row.recaptured;
    replayed += row.replayed;
    eager += row.eager_fallback;
  }
  EXPECT_EQ(captured, s.captures);
  EXPECT_EQ(replayed, s.hits);
  EXPECT_EQ(eager, s.eager_runs);
  EXPECT_EQ(c.graphed, captured + replayed);
  EXPECT_GT(eager, 0u);  // the third key met the limit
  // The setup line is remembered for the replay.
  ASSERT_EQ(state->setup.size(), 1u);
  EXPECT_EQ(state->setup[0], "mark_dynamic arg0_1 0");
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

TEST(Coverage, FromARealRunsTorchAirLines) {
  Result<TorchLogs> logs = LoadTorchLogsFile(AIRSCOPE_TEST_DATA "/torch_compile_debug/torchair_debug.log", 1 << 30);
  ASSERT_TRUE(logs.ok()) << logs.status().message();
  Coverage c = LogCoverage(*logs);
  ASSERT_EQ(c.rows.size(), 1u);
  EXPECT_EQ(c.rows[0].compile_id, "graph_1");
  EXPECT_EQ(c.rows[0].key, "no_updated_input");
  EXPECT_EQ(c.rows[0].captured, 1u);
  EXPECT_EQ(c.rows[0].replayed, 2u);
  EXPECT_EQ(c.graphed, 3u);
  Result<TorchLogs> none = LoadTorchLogsFile(AIRSCOPE_TEST_DATA "/torch_logs/troubleshooting_recompile.log", 1 << 30);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(LogCoverage(*none).rows.empty());
}

}  // namespace
}  // namespace airscope

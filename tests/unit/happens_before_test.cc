// The vector-clock analysis of core/check/happens_before.h.
#include "core/check/happens_before.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "tests/unit/task_graph_test_util.h"

namespace airscope {
namespace {

using testing_tasks::Tasks;

TEST(HappensBefore, OneStreamRunsInIssueOrder) {
  Tasks t;
  uint32_t a = t.Kernel(""), b = t.Kernel(""), c = t.Kernel("");
  HappensBefore hb = HappensBefore::Compute(t.g);
  EXPECT_TRUE(hb.Before(a, b));
  EXPECT_TRUE(hb.Before(a, c));
  EXPECT_FALSE(hb.Before(c, a));
  EXPECT_FALSE(hb.Before(a, a));
  EXPECT_FALSE(hb.Concurrent(a, c));
  EXPECT_EQ(hb.position(c), 2u);
}

TEST(HappensBefore, StreamsAreUnorderedWithoutEventsEvenWithDataEdges) {
  Tasks t;
  uint32_t a = t.Kernel("");
  uint32_t b = t.Kernel("s1");
  t.g.tasks[b].deps = {a};  // a data edge: orders nothing on a device
  HappensBefore hb = HappensBefore::Compute(t.g);
  EXPECT_TRUE(hb.Concurrent(a, b));
}

// The three-stream chain of deadlock_check.py's docstring: stream1 records
// e1 and later waits e3; stream2 waits e1, runs T2, records e2; stream3 waits
// e2, runs T3, records e3. T1 (stream1, after RECORD_e1) is concurrent with
// T2 and T3; T2 happens before T3 through stream2's record.
TEST(HappensBefore, DeadlockCheckDocstringChain) {
  Tasks t;
  t.Record("stream1", "e1");
  uint32_t t1 = t.Kernel("stream1");
  t.Wait("stream2", "e1");
  uint32_t t2 = t.Kernel("stream2");
  t.Record("stream2", "e2");
  t.Wait("stream3", "e2");
  uint32_t t3 = t.Kernel("stream3");
  t.Record("stream3", "e3");
  uint32_t w3 = t.Wait("stream1", "e3");
  uint32_t after = t.Kernel("stream1");
  HappensBefore hb = HappensBefore::Compute(t.g);
  EXPECT_TRUE(hb.Concurrent(t1, t2));
  EXPECT_TRUE(hb.Concurrent(t1, t3));
  EXPECT_TRUE(hb.Before(t2, t3));
  EXPECT_FALSE(hb.Concurrent(t2, t3));
  // Transitively: stream1 after WAIT_e3 follows T2 and T3.
  EXPECT_TRUE(hb.Before(t2, after));
  EXPECT_TRUE(hb.Before(t3, w3));
  // The clock of T3: stream1 up to its RECORD_e1 (position 0), stream2 up to RECORD_e2 (2).
  std::span<const int32_t> clock = hb.Clock(t3);
  ASSERT_EQ(hb.streams(), (std::vector<std::string>{"stream1", "stream2", "stream3"}));
  EXPECT_EQ(clock[0], 0);
  EXPECT_EQ(clock[1], 2);
  EXPECT_EQ(clock[2], 1);
}

TEST(HappensBefore, AWaitBindsToTheLatestRecordIssuedBeforeIt) {
  Tasks t;
  uint32_t early = t.Kernel("a");
  uint32_t r1 = t.Record("a", "e");
  uint32_t late = t.Kernel("b");
  uint32_t r2 = t.Record("b", "e");  // re-recorded on b
  uint32_t w = t.Wait("c", "e");
  uint32_t k = t.Kernel("c");
  HappensBefore hb = HappensBefore::Compute(t.g);
  EXPECT_EQ(hb.RecordOf(w), r2);
  EXPECT_TRUE(hb.Before(late, k));
  EXPECT_TRUE(hb.Concurrent(early, k));  // the first record orders nothing for c
  (void)r1;
}

TEST(HappensBefore, AWaitWithoutARecordOrdersNothing) {
  Tasks t;
  uint32_t a = t.Kernel("a");
  uint32_t w = t.Wait("b", "never");
  uint32_t b = t.Kernel("b");
  t.Record("a", "never");  // later: a wait does not bind to a record issued after it
  HappensBefore hb = HappensBefore::Compute(t.g);
  EXPECT_EQ(hb.RecordOf(w), -1);
  EXPECT_TRUE(hb.Concurrent(a, b));
}

TEST(HappensBefore, AHostSyncOrdersEverythingIssuedAfterIt) {
  Tasks t;
  uint32_t a = t.Kernel("a");
  uint32_t sync = t.Add(TaskKind::kHostSync, "a");
  uint32_t b = t.Kernel("b");
  uint32_t c = t.Kernel("c");
  HappensBefore hb = HappensBefore::Compute(t.g);
  EXPECT_TRUE(hb.Before(a, b));
  EXPECT_TRUE(hb.Before(sync, c));
  // A non-blocking copy does not hold the host.
  Tasks u;
  uint32_t x = u.Kernel("a");
  u.Add(TaskKind::kMemcpy, "a");
  uint32_t y = u.Kernel("b");
  EXPECT_TRUE(HappensBefore::Compute(u.g).Concurrent(x, y));
  u.g.tasks[1].blocking = true;
  EXPECT_TRUE(HappensBefore::Compute(u.g).Before(x, y));
}

}  // namespace
}  // namespace airscope

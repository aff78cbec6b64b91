#include "viz/timeline.h"

#include <gtest/gtest.h>

#include "viz/run_stats.h"

namespace airscope {
namespace {

// Host launches mm and add; stream_1 runs mm then records; the default stream
// waits for the record, then runs add.
Trace SmallTrace() {
  Trace t;
  t.title = "fixed";
  t.device = "test";
  t.tracks = {"host", "default", "stream_1"};
  t.slices = {
      {0, SliceCategory::kLaunch, "launch mm", 0, 2000, 0, 0},
      {0, SliceCategory::kLaunch, "launch add", 2000, 2000, 0, 2},
      {2, SliceCategory::kKernel, "mm", 3000, 10000, 0, 0},
      {2, SliceCategory::kEvent, "record e", 13000, 0, 0, 1},
      {1, SliceCategory::kWait, "wait e", 5000, 8000, 0, 3},
      {1, SliceCategory::kKernel, "add", 13000, 4000, 0, 2},
      {0, SliceCategory::kSync, "synchronize", 4000, 16000, 0, -1},
  };
  t.flows = {{FlowKind::kLaunch, 0, 2}, {FlowKind::kLaunch, 1, 5}, {FlowKind::kEvent, 3, 4}};
  t.end_ns = 20000;
  return t;
}

TEST(Timeline, RendersTheFixedTraceExactly) {
  std::string expected =
      "timeline: fixed (test), 0 .. 20.00 us, 1 column = 0.5us\n"
      "         0us       5us       10us      15us      20us\n"
      "         +---------+---------+---------+---------+\n"
      "host     |........SSSSSSSSSSSSSSSSSSSSSSSSSSSSSSSS\n"
      "default  |          ~~~~~~~~~~~~~~~~add#####\n"
      "stream_1 |      mm##################r\n"
      "legend: # kernel (name where it fits)  = memcpy  ~ wait  r record  . launch  d dispatch  G graph launch  S "
      "sync  C capture  ! error\n"
      "stream          busy    util  longest idle gap\n"
      "default      4.00 us   20.0%  13.00 us at 0 ns: waiting on event (wait e)\n"
      "stream_1    10.00 us   50.0%  7.00 us at 13.00 us: nothing to do\n";
  EXPECT_EQ(RenderTimeline(SmallTrace(), 40), expected);
}

// Whatever times reach the renderer (issue 29 item 1: a capture dump's
// "ts": -5 threw std::out_of_range from basic_string::replace, a huge ts
// overran the row), every slice lands inside its row: before 0 at the left
// edge, past the trace's end at the right one.
TEST(Timeline, TimesOutsideTheTraceStayInsideTheRow) {
  Trace t;
  t.title = "hostile";
  t.device = "test";
  t.tracks = {"host", "stream0", "stream1"};
  t.slices = {
      {1, SliceCategory::kKernel, "neg", -5000, 9500, 0, 0},
      {1, SliceCategory::kKernel, "far", int64_t{1} << 62, 9500, 0, 1},
      {1, SliceCategory::kEvent, "point", -(int64_t{1} << 62), 0, 0, 2},
      {1, SliceCategory::kWait, "backwards", 3000, -7000, 0, 3},
      {2, SliceCategory::kKernel, "huge", 0, int64_t{1} << 61, 0, 4},
  };
  t.end_ns = 20000;  // short of where "far" and "huge" end
  std::string out = RenderTimeline(t, 20);
  EXPECT_NE(out.find("\nstream0 |neg#               #\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\nstream1 |huge################\n"), std::string::npos) << out;
}

TEST(RunStats, BusyOverlapAndGaps) {
  RunStats s = ComputeRunStats(SmallTrace());
  ASSERT_EQ(s.streams.size(), 2u);
  EXPECT_EQ(s.streams[0].busy_ns, 4000);
  EXPECT_EQ(s.streams[1].busy_ns, 10000);
  EXPECT_EQ(s.overlap_ns, 0);  // add starts when mm ends
  EXPECT_EQ(s.host_busy_ns, 4000);
  EXPECT_EQ(s.streams[1].gap_cause, "nothing to do");
}

TEST(RunStats, LateLaunchIsHostLaunchBound) {
  Trace t;
  t.tracks = {"host", "default"};
  t.slices = {{0, SliceCategory::kLaunch, "launch a", 0, 5000, 0, 0},
              {1, SliceCategory::kKernel, "a", 6000, 1000, 0, 0},
              {0, SliceCategory::kLaunch, "launch b", 5000, 5000, 0, 1},
              {1, SliceCategory::kKernel, "b", 11000, 1000, 0, 1}};
  t.flows = {{FlowKind::kLaunch, 0, 1}, {FlowKind::kLaunch, 2, 3}};
  t.end_ns = 12000;
  RunStats s = ComputeRunStats(t);
  EXPECT_EQ(s.streams[0].longest_gap_ns, 6000);
  EXPECT_EQ(s.streams[0].gap_cause, "host launch bound");
}

}  // namespace
}  // namespace airscope

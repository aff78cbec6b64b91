// The simulator's traces are built on demand by rerunning the run with
// recording on (core/device/simulator.h): they must show exactly what the run
// did, stay the same whatever happens to the device afterwards, keep the
// first iterations of a long run and say so, and end at a failure. And the
// eager loop's allocator shortcut (skipping the allocator once iterations
// repeat) must leave the allocator exactly as running every iteration does.
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "core/device/simulator.h"
#include "tests/unit/status_test_util.h"

namespace airscope {
namespace {

DeviceTask Task(uint32_t id, TaskKind kind, std::string node, std::string stream, std::vector<uint32_t> deps = {},
                std::string event = "") {
  DeviceTask t;
  t.id = id;
  t.kind = kind;
  t.node = std::move(node);
  t.op = "aten.x.default";
  t.stream = std::move(stream);
  t.event = std::move(event);
  t.deps = std::move(deps);
  return t;
}

// n kernels in a chain on the default stream, each writing `bytes`.
TaskGraph Chain(uint32_t n, double flops = 1e6, double bytes = 4096) {
  TaskGraph g;
  g.streams = {""};
  for (uint32_t i = 0; i < n; ++i) {
    std::vector<uint32_t> deps;
    if (i > 0) deps.push_back(i - 1);
    DeviceTask t = Task(i, TaskKind::kKernel, "k" + std::to_string(i), "", deps);
    t.cost = {flops, bytes, bytes};
    t.cost_known = true;
    g.tasks.push_back(t);
  }
  return g;
}

// Two streams joined by events, outputs of mixed sizes (small and large
// requests, some kept until the end): the allocator splits and merges.
TaskGraph Forked() {
  TaskGraph g;
  g.streams = {"", "s1"};
  g.tasks.push_back(Task(0, TaskKind::kEventRecord, "fork", "", {}, "fork"));
  g.tasks.push_back(Task(1, TaskKind::kEventWait, "fork_wait", "s1", {0}, "fork"));
  g.tasks.push_back(Task(2, TaskKind::kKernel, "mm", "s1", {}));
  g.tasks.push_back(Task(3, TaskKind::kKernel, "abs", "s1", {2}));
  g.tasks.push_back(Task(4, TaskKind::kEventRecord, "join", "s1", {}, "join"));
  g.tasks.push_back(Task(5, TaskKind::kKernel, "sub", "", {2}));
  g.tasks.push_back(Task(6, TaskKind::kEventWait, "join_wait", "", {4}, "join"));
  g.tasks.push_back(Task(7, TaskKind::kMemcpy, "copy", "", {6}));
  g.tasks.push_back(Task(8, TaskKind::kKernel, "add", "", {7, 3}));
  double bytes[] = {0, 0, 3e6, 700, 0, 5e5, 0, 9e6, 1e5};
  for (DeviceTask& t : g.tasks) {
    if (t.kind == TaskKind::kKernel || t.kind == TaskKind::kMemcpy) {
      t.cost = {1e9, 1e6, bytes[t.id]};
      t.cost_known = true;
    }
  }
  return g;
}

SimDevice Device() { return SimDevice(*DevicePreset("ascend-910b")); }

RunOptions Iterations(int64_t n, bool sync_each = true) {
  RunOptions o;
  o.iterations = n;
  o.sync_each_iteration = sync_each;
  return o;
}

// Everything but the title.
void ExpectSameRun(const Trace& a, const Trace& b) {
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.tracks, b.tracks);
  EXPECT_EQ(a.end_ns, b.end_ns);
  ASSERT_EQ(a.slices.size(), b.slices.size());
  for (size_t i = 0; i < a.slices.size(); ++i) {
    const Slice& x = a.slices[i];
    const Slice& y = b.slices[i];
    EXPECT_EQ(std::tie(x.track, x.category, x.name, x.start_ns, x.dur_ns, x.iteration, x.task),
              std::tie(y.track, y.category, y.name, y.start_ns, y.dur_ns, y.iteration, y.task))
        << "slice " << i;
  }
  ASSERT_EQ(a.flows.size(), b.flows.size());
  for (size_t i = 0; i < a.flows.size(); ++i) {
    EXPECT_EQ(std::tie(a.flows[i].kind, a.flows[i].from, a.flows[i].to),
              std::tie(b.flows[i].kind, b.flows[i].from, b.flows[i].to));
  }
  ASSERT_EQ(a.counters.size(), b.counters.size());
  for (size_t i = 0; i < a.counters.size(); ++i) {
    EXPECT_EQ(std::tie(a.counters[i].name, a.counters[i].ts_ns, a.counters[i].value),
              std::tie(b.counters[i].name, b.counters[i].ts_ns, b.counters[i].value));
  }
}

int32_t LastIteration(const Trace& t) {
  int32_t last = -1;
  for (const Slice& s : t.slices) last = std::max(last, s.iteration);
  return last;
}

int64_t KernelTime(const Trace& t) {
  int64_t sum = 0;
  for (const Slice& s : t.slices) {
    if (s.track > 0 && (s.category == SliceCategory::kKernel || s.category == SliceCategory::kMemcpy)) sum += s.dur_ns;
  }
  return sum;
}

TEST(SimTrace, AShortRunsTraceHasEveryIterationAndItsTotals) {
  SimDevice d = Device();
  ASSERT_OK_AND_ASSIGN(RunResult eager, d.Eager(Forked(), "g", Iterations(3, false)));
  const Trace& et = d.last_trace();
  EXPECT_EQ(et.title, "eager g x3");
  EXPECT_EQ(LastIteration(et), 2);
  EXPECT_EQ(et.end_ns, eager.wall_ns);
  EXPECT_EQ(KernelTime(et), eager.device_busy_ns);
  EXPECT_FALSE(et.counters.empty());

  ASSERT_OK_AND_ASSIGN(uint32_t id, d.Capture(Forked(), "g", {{"x", 4096}}, CaptureOptions{}));
  ASSERT_OK_AND_ASSIGN(RunResult replay, d.Replay(id, Iterations(4)));
  const Trace& rt = d.last_trace();
  EXPECT_EQ(rt.title, "replay g x4");
  EXPECT_EQ(LastIteration(rt), 3);
  EXPECT_EQ(rt.end_ns, replay.wall_ns);
  EXPECT_EQ(KernelTime(rt), replay.device_busy_ns);
}

TEST(SimTrace, ItDoesNotChangeWithWhatTheDeviceDoesAfterTheRun) {
  ASSERT_OK_AND_ASSIGN(DeviceSpec slower, DevicePreset("ascend-910b"));
  slower.host_launch_ns *= 3;
  slower.kernel_gap_ns += 700;
  // a: the trace asked for at once; b: after the spec changed and the graph was released.
  SimDevice a = Device(), b = Device();
  ASSERT_OK_AND_ASSIGN(uint32_t ia, a.Capture(Forked(), "g", {{"x", 4096}}, CaptureOptions{}));
  ASSERT_OK_AND_ASSIGN(uint32_t ib, b.Capture(Forked(), "g", {{"x", 4096}}, CaptureOptions{}));
  ASSERT_TRUE(a.Replay(ia, Iterations(3, false)).ok());
  ASSERT_TRUE(b.Replay(ib, Iterations(3, false)).ok());
  Trace asked_at_once = a.last_trace();
  b.set_spec(slower);
  ASSERT_TRUE(b.Release(ib).ok());
  ExpectSameRun(asked_at_once, b.last_trace());
  EXPECT_EQ(asked_at_once.title, b.last_trace().title);

  // Eager: the same spec for the run (b's allocator differs: its graph's pool
  // is gone), then b's spec changes again after it.
  b.set_spec(a.spec());
  ASSERT_TRUE(a.Eager(Forked(), "g", Iterations(2)).ok());
  ASSERT_TRUE(b.Eager(Forked(), "g", Iterations(2)).ok());
  b.set_spec(*DevicePreset("a100"));
  ExpectSameRun(a.last_trace(), b.last_trace());
}

TEST(SimTrace, ALongRunKeepsItsFirstIterationsAndSaysSo) {
  // Four tasks over a quarter of the budget: three iterations fit.
  const uint32_t n = static_cast<uint32_t>(kTraceTaskBudget / 4 + 1);
  SimDevice longer = Device(), shorter = Device();
  ASSERT_OK_AND_ASSIGN(uint32_t il, longer.Capture(Chain(n), "c", {}, CaptureOptions{}));
  ASSERT_OK_AND_ASSIGN(uint32_t is, shorter.Capture(Chain(n), "c", {}, CaptureOptions{}));
  ASSERT_OK_AND_ASSIGN(RunResult r, longer.Replay(il, Iterations(10)));
  ASSERT_TRUE(shorter.Replay(is, Iterations(3)).ok());
  const Trace& t = longer.last_trace();
  EXPECT_EQ(t.title, "replay c x10 (trace: iterations 1-3 of 10)");
  EXPECT_EQ(LastIteration(t), 2);
  EXPECT_LT(t.end_ns, r.wall_ns);
  // With a sync per iteration the first three are those of a run of three.
  ExpectSameRun(t, shorter.last_trace());

  ASSERT_OK_AND_ASSIGN(RunResult e, longer.Eager(Chain(n), "c", Iterations(10)));
  ASSERT_TRUE(shorter.Eager(Chain(n), "c", Iterations(3)).ok());
  EXPECT_EQ(longer.last_trace().title, "eager c x10 (trace: iterations 1-3 of 10)");
  EXPECT_LT(longer.last_trace().end_ns, e.wall_ns);
  ExpectSameRun(longer.last_trace(), shorter.last_trace());
}

TEST(SimTrace, OneIterationIsKeptHoweverLarge) {
  const uint32_t n = static_cast<uint32_t>(kTraceTaskBudget + 5);
  SimDevice d = Device();
  ASSERT_OK_AND_ASSIGN(RunResult r, d.Eager(Chain(n), "big", Iterations(2)));
  const Trace& t = d.last_trace();
  EXPECT_EQ(t.title, "eager big x2 (trace: iterations 1-1 of 2)");
  EXPECT_EQ(LastIteration(t), 0);
  EXPECT_EQ(KernelTime(t), r.device_busy_ns / 2);
}

TEST(SimTrace, IterationsAreNotCopiesOfTheFirst) {
  // Why the trace is a rerun and not the first iteration repeated: without
  // a sync per iteration the host runs ahead of a device-bound chain, so each
  // iteration's kernels wait longer after their launch than the last one's.
  SimDevice d = Device();
  ASSERT_TRUE(d.Eager(Chain(4, 1e11), "slow", Iterations(3, false)).ok());
  std::vector<int64_t> first_kernel_start(3, -1), first_launch_end(3, -1);
  for (const Slice& s : d.last_trace().slices) {
    if (s.task != 0 || s.iteration < 0) continue;
    if (s.category == SliceCategory::kKernel) first_kernel_start[s.iteration] = s.start_ns;
    if (s.category == SliceCategory::kLaunch) first_launch_end[s.iteration] = s.end_ns();
  }
  int64_t wait0 = first_kernel_start[0] - first_launch_end[0];
  int64_t wait2 = first_kernel_start[2] - first_launch_end[2];
  EXPECT_GT(wait2, wait0);
}

TEST(SimTrace, AFailedEagerRunsTraceEndsAtTheError) {
  ASSERT_OK_AND_ASSIGN(DeviceSpec small, DevicePreset("ascend-910b"));
  small.memory_capacity = 5 << 20;  // mm's 3 MB output fits, the 9 MB copy does not
  SimDevice d(small);
  Result<RunResult> r = d.Eager(Forked(), "g", Iterations(3));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("eager: task 7 'copy'"), std::string::npos) << r.status().message();
  const Trace& t = d.last_trace();
  EXPECT_EQ(t.title, "eager g x3");
  ASSERT_GE(t.slices.size(), 2u);
  const Slice& error = t.slices.back();
  EXPECT_EQ(error.category, SliceCategory::kError);
  EXPECT_EQ(error.name, r.status().message());
  EXPECT_EQ(t.end_ns, error.start_ns);
  // The failed iteration never reached its own sync: one sync, the recovery's, just before the error.
  int syncs = 0;
  for (const Slice& s : t.slices) syncs += s.category == SliceCategory::kSync;
  EXPECT_EQ(syncs, 1);
  EXPECT_EQ(t.slices[t.slices.size() - 2].category, SliceCategory::kSync);
  EXPECT_EQ(t.slices[t.slices.size() - 2].iteration, -1);
  EXPECT_EQ(LastIteration(t), 0);
  // Nothing is left allocated.
  EXPECT_EQ(d.allocator().Stats(kDefaultPool).allocated, 0);
}

TEST(SimTrace, TraceLevelNoneKeepsNothingToRerun) {
  SimDevice d = Device();
  RunOptions o = Iterations(4);
  o.trace = TraceLevel::kNone;
  ASSERT_OK_AND_ASSIGN(RunResult r, d.Eager(Forked(), "g", o));
  EXPECT_EQ(d.last_trace().title, "eager g x4 (no trace kept)");
  EXPECT_TRUE(d.last_trace().slices.empty());
  EXPECT_EQ(d.last_trace().end_ns, r.wall_ns);
}

void ExpectSameStats(const PoolStats& a, const PoolStats& b) {
  EXPECT_EQ(std::tie(a.reserved, a.allocated, a.peak_allocated, a.peak_reserved, a.segments, a.live_blocks,
                     a.allocations, a.reused),
            std::tie(b.reserved, b.allocated, b.peak_allocated, b.peak_reserved, b.segments, b.live_blocks,
                     b.allocations, b.reused));
}

TEST(SimSteadyMemory, OneLongEagerRunLeavesTheAllocatorAsRunningEveryIteration) {
  // once: one run of 20 iterations (the allocator is skipped once they
  // repeat); each: 20 runs of one iteration (every request served).
  for (const TaskGraph& g : {Forked(), Chain(50, 1e6, 3e6)}) {
    SimDevice once = Device(), each = Device();
    ASSERT_TRUE(once.Eager(g, "g", Iterations(20)).ok());
    for (int i = 0; i < 20; ++i) ASSERT_TRUE(each.Eager(g, "g", Iterations(1)).ok());
    ExpectSameStats(once.allocator().Stats(kDefaultPool), each.allocator().Stats(kDefaultPool));
    EXPECT_TRUE(once.allocator().PoolLayout(kDefaultPool) == each.allocator().PoolLayout(kDefaultPool));
    EXPECT_EQ(once.allocator().Stats(kDefaultPool).allocations,
              20 * static_cast<int64_t>(std::count_if(g.tasks.begin(), g.tasks.end(), [](const DeviceTask& t) {
                return t.cost.bytes_written > 0 && (t.kind == TaskKind::kKernel || t.kind == TaskKind::kMemcpy);
              })));
  }
}

}  // namespace
}  // namespace airscope

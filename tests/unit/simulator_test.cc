#include "core/device/simulator.h"

#include <gtest/gtest.h>

#include "formats/chrome_trace.h"
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

// n small kernels in a chain on the default stream.
TaskGraph Chain(int n, double flops = 0) {
  TaskGraph g;
  g.streams = {""};
  for (int i = 0; i < n; ++i) {
    std::vector<uint32_t> deps;
    if (i > 0) deps.push_back(static_cast<uint32_t>(i - 1));
    DeviceTask t = Task(static_cast<uint32_t>(i), TaskKind::kKernel, "k" + std::to_string(i), "", deps);
    t.cost = {flops, 4096, 4096};
    t.cost_known = true;
    g.tasks.push_back(t);
  }
  return g;
}

// The seed shape: fork to s1, mm/abs there, record, join back.
TaskGraph Forked(bool join) {
  TaskGraph g;
  g.streams = {"", "s1"};
  g.tasks.push_back(Task(0, TaskKind::kEventRecord, "fork", "", {}, "fork"));
  g.tasks.push_back(Task(1, TaskKind::kEventWait, "fork_wait", "s1", {0}, "fork"));
  g.tasks.push_back(Task(2, TaskKind::kKernel, "mm", "s1", {}));
  g.tasks.push_back(Task(3, TaskKind::kKernel, "abs", "s1", {2}));
  g.tasks.push_back(Task(4, TaskKind::kEventRecord, "join", "s1", {}, "join"));
  g.tasks.push_back(Task(5, TaskKind::kKernel, "sub", "", {2}));
  if (join) g.tasks.push_back(Task(6, TaskKind::kEventWait, "join_wait", "", {4}, "join"));
  for (DeviceTask& t : g.tasks) {
    if (t.kind == TaskKind::kKernel) {
      t.cost = {1e6, 1e6, 1e6};
      t.cost_known = true;
    }
  }
  return g;
}

SimDevice Device() { return SimDevice(*DevicePreset("ascend-910b")); }

TEST(Simulator, SameInputsGiveTheSameTraceByteForByte) {
  SimDevice a = Device(), b = Device();
  RunOptions o;
  o.iterations = 3;
  ASSERT_TRUE(a.Eager(Forked(true), "g", o).ok());
  ASSERT_TRUE(b.Eager(Forked(true), "g", o).ok());
  EXPECT_EQ(ChromeTraceJson(a.last_trace()), ChromeTraceJson(b.last_trace()));
}

TEST(Simulator, EagerPaysDispatchAndLaunchPerOp) {
  SimDevice d = Device();
  RunOptions o;
  ASSERT_OK_AND_ASSIGN(RunResult r, d.Eager(Chain(4), "chain", o));
  const DeviceSpec& s = d.spec();
  EXPECT_EQ(r.host_busy_ns, 4 * (s.host_dispatch_ns + s.host_launch_ns));
  // Launch bound: the last kernel starts launch_latency after its launch ends.
  int64_t last_start = 4 * (s.host_dispatch_ns + s.host_launch_ns) + s.launch_latency_ns;
  EXPECT_EQ(r.wall_ns, last_start + s.min_kernel_ns + s.sync_return_ns);
}

TEST(Simulator, AWaitHoldsItsStreamUntilTheRecord) {
  SimDevice d = Device();
  ASSERT_TRUE(d.Eager(Forked(true), "g", RunOptions{}).ok());
  const Trace& t = d.last_trace();
  int64_t join_record = -1, join_wait_end = -1, abs_end = -1;
  for (const Slice& s : t.slices) {
    if (s.track == 0) continue;
    if (s.name == "record join") join_record = s.start_ns;
    if (s.name == "wait join") join_wait_end = s.end_ns();
    if (s.name == "abs") abs_end = s.end_ns();
  }
  EXPECT_EQ(join_record, abs_end);
  EXPECT_GE(join_wait_end, join_record);
  bool event_flow = false;
  for (const Flow& f : t.flows) event_flow = event_flow || f.kind == FlowKind::kEvent;
  EXPECT_TRUE(event_flow);
}

TEST(Simulator, CaptureAndReplayTheForkedGraph) {
  SimDevice d = Device();
  Result<uint32_t> id = d.Capture(Forked(true), "g", {{"x", 4096}}, CaptureOptions{});
  ASSERT_TRUE(id.ok()) << id.status().message();
  const CapturedGraph* c = d.FindCaptured("g");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->tasks.streams, (std::vector<std::string>{"capture", "s1"}));
  EXPECT_GT(d.allocator().Stats(c->pool).reserved, 0);
  RunOptions o;
  o.iterations = 2;
  Result<RunResult> r = d.Replay(*id, o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->host_busy_ns,
            2 * (d.spec().host_launch_ns + d.spec().graph_launch_ns + 7 * d.spec().graph_launch_per_node_ns));
  // A new capture of the same graph replaces the old one and its pool.
  PoolId old_pool = c->pool;
  ASSERT_TRUE(d.Capture(Forked(true), "g", {{"x", 4096}}, CaptureOptions{}).ok());
  EXPECT_FALSE(d.allocator().HasPool(old_pool));
  EXPECT_EQ(d.captured().size(), 1u);
}

void ExpectRecovered(SimDevice& d, size_t pools_before) {
  EXPECT_EQ(d.allocator().Pools().size(), pools_before);
  EXPECT_EQ(d.allocator().current_pool(), kDefaultPool);
  ASSERT_TRUE(d.has_trace());
  EXPECT_EQ(d.last_trace().slices.back().category, SliceCategory::kError);
  // Usable again: a good capture and a replay work.
  Result<uint32_t> id = d.Capture(Forked(true), "ok", {}, CaptureOptions{});
  ASSERT_TRUE(id.ok());
  EXPECT_TRUE(d.Replay(*id, RunOptions{}).ok());
}

TEST(Simulator, CaptureOnTheDefaultStreamIsRefused) {
  SimDevice d = Device();
  CaptureOptions o;
  o.capture_stream = "";
  Result<uint32_t> r = d.Capture(Chain(2), "g", {}, o);
  ASSERT_FALSE(r.ok());
  // torch_npu's RuntimeError, verbatim (NPUGraph.cpp:270-274).
  EXPECT_NE(r.status().message().find("RuntimeError: NPU graphs must be captured on a non-default stream. (However, "
                                      "after capture, it's ok to replay them on the default stream.)"),
            std::string::npos);
  EXPECT_NE(r.status().message().find("capture --stream NAME"), std::string::npos);
  ExpectRecovered(d, 1);
}

TEST(Simulator, UnjoinedSideStreamNamesTheStreamAndItsLastTask) {
  SimDevice d = Device();
  Result<uint32_t> r = d.Capture(Forked(false), "g", {}, CaptureOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("ACL_ERROR_RT_STREAM_UNJOINED (107025, \"capture model contains a stream that "
                                      "was not joined to the origin stream\"): stream 's1'"),
            std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("task 4 'join'"), std::string::npos);
  ExpectRecovered(d, 1);
}

TEST(Simulator, HostSyncIsRefusedInEveryMode) {
  SimDevice d = Device();
  TaskGraph g = Chain(2);
  g.tasks.push_back(Task(2, TaskKind::kHostSync, "_local_scalar_dense", "", {1}));
  for (CaptureMode mode : {CaptureMode::kGlobal, CaptureMode::kThreadLocal, CaptureMode::kRelaxed}) {
    CaptureOptions o;
    o.mode = mode;
    Result<uint32_t> r = d.Capture(g, "g", {}, o);
    ASSERT_FALSE(r.ok());
    EXPECT_NE(r.status().message().find("ACL_ERROR_RT_STREAM_CAPTURED (107027"), std::string::npos);
    ExpectRecovered(d, 1 + (mode == CaptureMode::kGlobal ? 0 : 1));
  }
  // Eagerly the same graph runs, the host waiting for the value.
  EXPECT_TRUE(d.Eager(g, "g", RunOptions{}).ok());
}

TEST(Simulator, BlockingMemcpyIsRefusedButNonBlockingIsNot) {
  SimDevice d = Device();
  TaskGraph g = Chain(2);
  g.tasks.push_back(Task(2, TaskKind::kMemcpy, "_to_copy", "", {1}));
  g.tasks.back().blocking = true;
  Result<uint32_t> r = d.Capture(g, "g", {}, CaptureOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT (107030"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("blocking host<->device copy"), std::string::npos);
  ExpectRecovered(d, 1);
  // Relaxed lets aclrtMemcpy run, but torch_npu's synchronize before it fails.
  CaptureOptions relaxed;
  relaxed.mode = CaptureMode::kRelaxed;
  r = d.Capture(g, "g", {}, relaxed);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("ACL stream synchronize failed, error code:107027"), std::string::npos);
  g.tasks.back().blocking = false;  // non_blocking=True: an async copy captures fine
  EXPECT_TRUE(d.Capture(g, "g2", {}, CaptureOptions{}).ok());
}

TEST(Simulator, TaskQueueEnable2IsRefusedBeforeTheStream) {
  SimDevice d = Device();
  CaptureOptions o;
  o.task_queue_enable = 2;
  o.capture_stream = "";  // NPUGraph::capture_begin checks the task queue first
  Result<uint32_t> r = d.Capture(Chain(2), "g", {}, o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message().rfind("RuntimeError: Do not support TASK_QUEUE_ENABLE = 2 during NPU graph capture, "
                                       "please export TASK_QUEUE_ENABLE=1/0.",
                                       0),
            0u);
  ExpectRecovered(d, 1);
}

TEST(Simulator, WaitingOnAnEventRecordedOutsideTheCaptureFails) {
  SimDevice d = Device();
  TaskGraph g = Chain(1);
  g.streams.push_back("s2");
  g.tasks.push_back(Task(1, TaskKind::kEventRecord, "rec", "s2", {}));
  g.tasks.back().event = "e";
  g.tasks.push_back(Task(2, TaskKind::kEventWait, "wait", "", {1}));
  g.tasks.back().event = "e";
  Result<uint32_t> r = d.Capture(g, "g", {}, CaptureOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("ACL_ERROR_RT_CAPTURE_DEPENDENCY (107024"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("task 1 'rec' (aten.x.default) on stream 's2', ran outside the capture"),
            std::string::npos)
      << r.status().message();
  ExpectRecovered(d, 1);
}

TEST(Simulator, EndingOnAnotherStreamFails) {
  SimDevice d = Device();
  CaptureOptions o;
  o.end_stream = "other";
  Result<uint32_t> r = d.Capture(Chain(2), "g", {}, o);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("Capture must end on the same stream it began on"), std::string::npos);
  ExpectRecovered(d, 1);
}

TEST(Simulator, WorkOnAStreamThatNeverJoinedIsRefusedAtTheEnd) {
  SimDevice d = Device();
  TaskGraph g = Chain(1);
  g.streams.push_back("s2");
  g.tasks.push_back(Task(1, TaskKind::kKernel, "lonely", "s2", {0}));
  Result<uint32_t> r = d.Capture(g, "g", {}, CaptureOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("airscope refuses: 1 task(s) on stream(s) s2 ran outside the capture, the first "
                                      "task 1 'lonely'"),
            std::string::npos)
      << r.status().message();
  ExpectRecovered(d, 1);
}

double Speedup(const TaskGraph& g) {
  SimDevice d = Device();
  RunOptions o;
  o.iterations = 10;
  RunResult eager = *d.Eager(g, "g", o);
  uint32_t id = *d.Capture(g, "g", {{"x", 4096}}, CaptureOptions{});
  RunResult replay = *d.Replay(id, o);
  return static_cast<double>(eager.e2e_per_iter()) / static_cast<double>(replay.e2e_per_iter());
}

TEST(Simulator, ReplayBeatsEagerWhenLaunchBound) { EXPECT_GT(Speedup(Chain(20)), 3.0); }

TEST(Simulator, ReplayIsNoFasterWhenComputeBound) {
  double s = Speedup(Chain(5, 1e13));  // ~110 ms per kernel in f32
  EXPECT_GT(s, 0.99);
  EXPECT_LT(s, 1.01);
}

TEST(Simulator, TraceLevelNoneKeepsNoSlicesButTheSameTotals) {
  SimDevice a = Device(), b = Device();
  RunOptions o;
  o.iterations = 5;
  ASSERT_OK_AND_ASSIGN(RunResult full, a.Eager(Forked(true), "g", o));
  o.trace = TraceLevel::kNone;
  ASSERT_OK_AND_ASSIGN(RunResult none, b.Eager(Forked(true), "g", o));
  EXPECT_EQ(full.wall_ns, none.wall_ns);
  EXPECT_EQ(full.device_busy_ns, none.device_busy_ns);
  EXPECT_TRUE(b.last_trace().slices.empty());
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

// DeviceSpec::streams: each captured graph holds one stream per stream its
// tasks run on, plus CaptureOptions::extra_streams; a capture past the
// budget fails with the runtime's 207008 error and changes nothing.
TEST(Simulator, CapturesHoldStreamsAndOnePastTheBudgetFailsAsTheRuntimeDoes) {
  SimDevice d = Device();
  DeviceSpec spec = d.spec();
  spec.streams = 5;
  d.set_spec(spec);
  ASSERT_TRUE(d.Capture(Forked(true), "a", {}, CaptureOptions{}).ok());  // capture + s1
  EXPECT_EQ(d.captured().back().task_streams, 2);
  EXPECT_EQ(d.streams_held(), 2);
  CaptureOptions comm;
  comm.extra_streams = 2;
  ASSERT_TRUE(d.Capture(Chain(3), "b", {}, comm).ok());
  EXPECT_EQ(d.streams_held(), 5);
  size_t pools = d.allocator().Pools().size();
  Result<uint32_t> over = d.Capture(Chain(3), "c", {}, CaptureOptions{});
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.status().message().find("AclmdlRICaptureBegin(capture_stream_, capture_mode), error code is 207008"),
            std::string::npos);
  EXPECT_NE(over.status().message().find("5 held by captured graphs, 1 of 5 needed"), std::string::npos);
  EXPECT_EQ(d.captured().size(), 2u);
  EXPECT_EQ(d.allocator().Pools().size(), pools);
  // Recapturing a graph gives its old streams back first; releasing frees them.
  EXPECT_TRUE(d.Capture(Chain(3), "b", {}, comm).ok());
  ASSERT_TRUE(d.Release(d.FindCaptured("a")->id).ok());
  EXPECT_EQ(d.streams_held(), 3);
  EXPECT_TRUE(d.HoldStreams("hccl", 2).ok());
  EXPECT_FALSE(d.HoldStreams("more", 1).ok());
  d.ReleaseStreams("hccl");
  EXPECT_EQ(d.streams_held(), 3);
}

// An in-place op (relu_) writes into its input's memory: a capture allocates
// nothing for it, so the pool holds the first kernel's output only.
TEST(Simulator, AnInPlaceOpAllocatesNothing) {
  SimDevice d = Device();
  TaskGraph g = Chain(2);
  g.tasks[0].op = "aten.mm.default";
  g.tasks[1].op = "aten.relu_.default";
  CaptureOptions o;
  o.outputs = {0};
  ASSERT_TRUE(d.Capture(g, "inplace", {}, o).ok());
  const CapturedGraph* c = d.FindCaptured("inplace");
  ASSERT_EQ(c->blocks.size(), 1u);
  EXPECT_EQ(c->blocks[0].task, 0);
  g.tasks[1].op = "aten.relu.default";
  ASSERT_TRUE(d.Capture(g, "outofplace", {}, o).ok());
  EXPECT_EQ(d.FindCaptured("outofplace")->blocks.size(), 2u);
}

}  // namespace
}  // namespace airscope

// SimDevice: the simulated NPU. Streams, events, a host thread, a caching
// allocator with graph-private pools, and three ways to run a TaskGraph:
//   Eager   every task pays host dispatch + launch, then runs on its stream
//           after the launch latency, after the previous work on its stream
//           (plus a gap) and after its deps; waits block a stream until the
//           event's record has been reached.
//   Capture records the tasks into a CapturedGraph on a capture stream (the
//           default stream "" of the task graph is the capture stream, as in
//           torch.npu.graph's stream context), refusing what
//           core/device/capture_rules.h lists, with the graph's tensors in a
//           graph-private pool.
//   Replay  per iteration: input copies into the static buffers, one graph
//           launch, then the tasks with their stream/event deps and in-graph
//           gaps.
//
// Contract: a deterministic discrete-event simulation in integer ns: the
// same inputs give the same Trace byte for byte. No I/O. Every time comes from
// the DeviceSpec. After any error the device is usable again (streams are
// idle; a failed capture leaves the allocator exactly as it was: no pool, no
// cached segment released for it) and last_trace() holds the run up to the
// error with an error slice naming it.
//
// A run's cost per task does not depend on its trace: Eager and Replay
// simulate totals only and keep what it takes to run again; last_trace()
// reruns the first iterations with recording on, the first time it is asked
// for. Iterations are not copies of each other (the first finds the streams
// and the allocator cold; without a sync per iteration the host runs ahead),
// so the rerun is the same simulation, not the first iteration repeated. It
// keeps whole iterations while they fit kTraceTaskBudget tasks (at least
// one), and a trace that stops early says so in its title.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/device/allocator.h"
#include "core/device/capture_rules.h"
#include "core/device/device_spec.h"
#include "core/device/trace.h"
#include "core/ir/dtype.h"
#include "core/lower/task_graph.h"
#include "core/status.h"

namespace airscope {

enum class TraceLevel : uint8_t {
  // Totals only, nothing kept to rerun: last_trace() is the run's title
  // ("... (no trace kept)") and end without slices, or after an error the
  // error's slice alone.
  kNone,
  kFull,  // last_trace() has every slice, flow and counter (of the first iterations, see above)
};

// Tasks a run's trace keeps: enough for any timeline (100 columns) and for
// Perfetto, small enough that building it on demand takes well under a second.
inline constexpr int64_t kTraceTaskBudget = 100000;

struct RunOptions {
  int64_t iterations = 1;
  bool sync_each_iteration = true;  // host synchronizes after every iteration (else once at the end)
  bool framework_dispatch = true;   // eager: pay host_dispatch_ns per op (false: raw launches)
  TraceLevel trace = TraceLevel::kFull;
  DType compute_dtype = DType::kFloat32;  // the peak for a task whose dtype is unknown (DeviceTask::dtype)
};

struct StreamUsage {
  std::string name;  // "default" for ""
  int64_t busy_ns = 0;
};

struct RunResult {
  std::string mode;  // "eager", "replay"
  std::string graph;
  int64_t iterations = 0;
  int64_t tasks = 0;           // tasks simulated (all iterations)
  int64_t host_busy_ns = 0;    // host time spent dispatching/launching (not blocked in sync)
  int64_t device_busy_ns = 0;  // kernel + memcpy time summed over streams
  int64_t wall_ns = 0;         // end of the run
  // Kernels per iteration whose cost is unknown (no shapes): each is timed at
  // min_kernel_ns, so device and end-to-end times are lower bounds.
  int64_t unknown_cost_kernels = 0;
  int64_t kernels = 0;  // kernels per iteration
  std::vector<StreamUsage> streams;
  int64_t host_per_iter() const { return host_busy_ns / iterations; }
  int64_t device_per_iter() const { return device_busy_ns / iterations; }
  int64_t e2e_per_iter() const { return wall_ns / iterations; }
};

struct GraphInput {
  std::string name;
  int64_t bytes = 0;
};

struct CaptureOptions {
  std::string capture_stream = "capture";
  std::string end_stream;  // "" = end on the capture stream
  DType compute_dtype = DType::kFloat32;
  // The private pool to capture into: 0 makes one for the graph, released
  // with it; another (made with allocator().CreatePool) stays the caller's,
  // shared by every graph captured into it, as TorchAir captures all graph
  // keys of an FX graph into one mempool (acl_graph.py:946-962, 1193).
  PoolId pool = 0;
  // Tasks whose output the graph returns: kept allocated to the end, not
  // freed after their last reader inside the graph.
  std::vector<uint32_t> outputs;
  CaptureMode mode = CaptureMode::kGlobal;  // torch_npu's capture_error_mode (capture_rules.h)
  int task_queue_enable = 1;                // torch_npu's TASK_QUEUE_ENABLE
  // Streams the captured graph holds besides those its tasks run on: the
  // ones its communication adds (the caller's model, e.g. HCCL's expansion
  // streams). They count against DeviceSpec::streams like the others.
  int64_t extra_streams = 0;
};

struct Prepared;  // sim_engine.h: a task graph flattened for the hot loop

struct CapturedGraph {
  uint32_t id = 0;
  std::string name;
  std::string capture_stream;
  TaskGraph tasks;  // streams remapped: "" -> capture_stream
  std::vector<GraphInput> inputs;
  PoolId pool = 0;
  bool owns_pool = true;  // false: CaptureOptions::pool, kept when the graph is released
  // Every block the capture allocated in its pool, in order: one per static
  // input (task -1), then the task outputs (task id). `live`: still
  // allocated when the capture ended (static inputs, and outputs no later
  // task read). What the graph's replays write, for the caller's checks.
  struct Block {
    int64_t task = -1;
    BlockId id = 0;
    BlockPlace place;
    bool live = false;
  };
  std::vector<Block> blocks;
  DType compute_dtype = DType::kFloat32;
  // The tasks' names in traces, made once here and shared with the traces of
  // replays still to be built (the graph may be replaced before they are).
  std::shared_ptr<const std::vector<std::string>> labels;
  // What Replay runs, prepared at its first replay under the current spec
  // (set_spec drops it), and the kernel counts that go with it.
  std::shared_ptr<const Prepared> prepared;
  KernelCount kernels;
  // What the graph holds while it lives: one stream per stream its tasks run
  // on (the capture stream and each multi-stream scope's), plus
  // CaptureOptions::extra_streams; its event records; and the host time
  // recording its tasks took (the launch costs of DeviceSpec).
  int64_t task_streams = 0;
  int64_t extra_streams = 0;
  int64_t events = 0;
  int64_t capture_ns = 0;
  int64_t streams() const { return task_streams + extra_streams; }
};

// The error a capture gets when the streams captured graphs hold would pass
// DeviceSpec::streams: the words torch_npu and the CANN runtime print, as
// vllm-ascend's FAQ quotes them (vfaq:211-213; the call is
// AclmdlRICaptureBegin in NPUGraph::capture_begin). airscope counts the
// graph's streams at its capture begin; the runtime takes them as it goes.
std::string StreamResourceError();

struct PendingTrace;  // simulator.cc: what last_trace() reruns

class SimDevice {
 public:
  explicit SimDevice(DeviceSpec spec);

  const DeviceSpec& spec() const { return spec_; }
  // Replaces the spec (the allocator's capacity follows); captured graphs stay.
  void set_spec(DeviceSpec spec);
  const CachingAllocator& allocator() const { return allocator_; }
  // For callers that hold memory on the device between runs (core/runtime:
  // the tensors a caller passes, TorchAir's mempools).
  CachingAllocator& allocator() { return allocator_; }

  Result<RunResult> Eager(const TaskGraph& graph, const std::string& name, const RunOptions& options);
  Result<uint32_t> Capture(const TaskGraph& graph, const std::string& name, const std::vector<GraphInput>& inputs,
                           const CaptureOptions& options);
  // `copies`: the input copies each iteration makes, instead of one per
  // static input (TorchAir copies only what changed without clone_input).
  Result<RunResult> Replay(uint32_t id, const RunOptions& options, const std::vector<GraphInput>* copies = nullptr);
  Status Release(uint32_t id);  // the graph's own pool goes with it

  const std::vector<CapturedGraph>& captured() const { return captured_; }
  int64_t streams_held() const { return streams_held_; }  // by captured graphs and HoldStreams
  // Streams held apart from any graph (a communication domain's), by owner;
  // the same budget and error as a capture. Holding again replaces.
  Status HoldStreams(const std::string& owner, int64_t streams);
  void ReleaseStreams(const std::string& owner);
  const std::map<std::string, int64_t>& stream_holders() const { return stream_holders_; }
  const CapturedGraph* FindCaptured(const std::string& name) const;  // the latest of that name

  bool has_trace() const { return has_trace_; }
  // The last run's trace, built the first time it is asked for (hence not
  // const); later changes to the spec or the captured graphs do not alter it.
  const Trace& last_trace();
  // Shows `trace` as the last run's, for timeline and runstats: a trace no
  // run made (a capture dump `load` read).
  void ShowTrace(Trace trace) { SetTrace(std::move(trace)); }

 private:
  Trace NewTrace(std::string title, const std::vector<std::string>& streams) const;
  // Shows `trace`, ended at `at` by a slice naming `error`, as the last
  // run's; returns `error`.
  Status FailWithTrace(Trace trace, int64_t at, Status error);
  // The end of a run that went through all its iterations: `pending` becomes
  // what last_trace() builds, or without it (a run that keeps no trace) the
  // trace is its title and end alone.
  void KeepTrace(std::shared_ptr<const PendingTrace> pending, const std::string& title,
                 const std::vector<std::string>& streams, int64_t wall_ns);
  void SetTrace(Trace trace);
  void SetPending(std::shared_ptr<const PendingTrace> pending);

  DeviceSpec spec_;
  CachingAllocator allocator_;
  std::vector<CapturedGraph> captured_;
  uint32_t next_graph_id_ = 1;
  int64_t streams_held_ = 0;  // the sum of captured_'s streams() and stream_holders_
  std::map<std::string, int64_t> stream_holders_;
  Trace trace_;
  std::shared_ptr<const PendingTrace> pending_;  // when set, trace_ is still to be built from it
  bool has_trace_ = false;
};

std::string StreamDisplayName(const std::string& stream);  // "" -> "default"

}  // namespace airscope

// SimDevice: the simulated NPU. Streams, events, a host thread, a caching
// allocator with graph-private pools, and three ways to run a TaskGraph:
//   Eager   every task pays host dispatch + launch, then runs on its stream
//           after the launch latency, after the previous work on its stream
//           (plus a gap) and after its deps; waits block a stream until the
//           event's record has been reached.
//   Capture records the tasks into a CapturedGraph on a capture stream (the
//           default stream "" of the task graph is the capture stream, as in
//           torch.npu.graph's stream context), following aclgraph's capture
//           rules, with the graph's tensors in a graph-private pool.
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
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/device/allocator.h"
#include "core/device/device_spec.h"
#include "core/device/trace.h"
#include "core/ir/dtype.h"
#include "core/lower/task_graph.h"
#include "core/status.h"

namespace airscope {

enum class TraceLevel : uint8_t {
  kNone,  // totals only: the fast path (benchmarks, long runs)
  kFull,  // every slice, flow and counter
};

struct RunOptions {
  int64_t iterations = 1;
  bool sync_each_iteration = true;  // host synchronizes after every iteration (else once at the end)
  bool framework_dispatch = true;   // eager: pay host_dispatch_ns per op (false: raw launches)
  TraceLevel trace = TraceLevel::kFull;
  DType compute_dtype = DType::kFloat32;  // kernels use this dtype's peak (tasks carry no dtype)
};

struct StreamUsage {
  std::string name;  // "default" for ""
  int64_t busy_ns = 0;
};

struct RunResult {
  std::string mode;  // "eager", "replay"
  std::string graph;
  int64_t iterations = 0;
  int64_t tasks = 0;         // tasks simulated (all iterations)
  int64_t host_busy_ns = 0;  // host time spent dispatching/launching (not blocked in sync)
  int64_t device_busy_ns = 0;  // kernel + memcpy time summed over streams
  int64_t wall_ns = 0;       // end of the run
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
};

struct CapturedGraph {
  uint32_t id = 0;
  std::string name;
  std::string capture_stream;
  TaskGraph tasks;  // streams remapped: "" -> capture_stream
  std::vector<GraphInput> inputs;
  PoolId pool = 0;
  DType compute_dtype = DType::kFloat32;
};

// The aclgraph / ACL runtime codes the capture errors carry.
inline constexpr int kAclFeatureNotSupport = 207000;
inline constexpr int kAclCaptureDependency = 107024;
inline constexpr int kAclStreamUnjoined = 107025;
inline constexpr int kAclCaptureUnmatched = 107036;
inline constexpr int kAclCaptureInvalidated = 507903;

class SimDevice {
 public:
  explicit SimDevice(DeviceSpec spec);

  const DeviceSpec& spec() const { return spec_; }
  // Replaces the spec (the allocator's capacity follows); captured graphs stay.
  void set_spec(DeviceSpec spec);
  const CachingAllocator& allocator() const { return allocator_; }

  Result<RunResult> Eager(const TaskGraph& graph, const std::string& name, const RunOptions& options);
  Result<uint32_t> Capture(const TaskGraph& graph, const std::string& name, const std::vector<GraphInput>& inputs,
                           const CaptureOptions& options);
  Result<RunResult> Replay(uint32_t id, const RunOptions& options);
  Status Release(uint32_t id);

  const std::vector<CapturedGraph>& captured() const { return captured_; }
  const CapturedGraph* FindCaptured(const std::string& name) const;  // the latest of that name

  bool has_trace() const { return has_trace_; }
  const Trace& last_trace() const { return trace_; }

 private:
  Trace NewTrace(std::string title, std::vector<std::string> streams) const;
  Status CaptureError(Trace trace, int64_t host_ns, Status error);

  DeviceSpec spec_;
  CachingAllocator allocator_;
  std::vector<CapturedGraph> captured_;
  uint32_t next_graph_id_ = 1;
  Trace trace_;
  bool has_trace_ = false;
};

std::string StreamDisplayName(const std::string& stream);  // "" -> "default"

}  // namespace airscope

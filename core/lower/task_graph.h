// TaskGraph: what `lower` turns a graph into, the input of the simulated
// device. Every node that does device work becomes one DeviceTask on its
// stream; views and stream markers do no device work and become none;
// record/wait nodes become event tasks. Tasks are in graph order, which is a
// valid issue order per stream; `deps` names the cross-stream edges (a wait
// depends on its record) and data edges between tasks, so a scheduler can
// check it never runs a task before what it reads.
//
// A task also says which buffers it reads and writes and under which core
// limits it was issued, for the analyses of core/check (hazards between
// streams); and a task read from a capture dump keeps what the runtime
// recorded of its launch (LaunchRecord).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"
#include "core/status.h"

namespace airscope {

enum class TaskKind : uint8_t {
  kKernel,       // computes on the device (cost from the op registry)
  kMemcpy,       // copies memory (copy_, _to_copy across devices; cost = bytes)
  kEventRecord,  // air.record / air.tagged_event_record
  kEventWait,    // air.wait / air.tagged_event_wait
  kHostSync,     // needs the host to see device data (_local_scalar_dense, item): breaks capture
};
std::string_view TaskKindName(TaskKind kind);

struct DeviceTask {
  uint32_t id = 0;  // index in TaskGraph::tasks
  TaskKind kind = TaskKind::kKernel;
  std::string node;            // the node it came from
  std::string op;              // short target, "aten.mm.default"
  std::string stream;          // "" is the default stream
  std::string event;           // record/wait: the event's name (shared by a record and its waits)
  std::vector<uint32_t> deps;  // tasks that must finish first (data and event edges), ascending
  OpCost cost;
  bool cost_known = false;
  // The element type the task computes in (its output's, else its first
  // input's): kernels use that dtype's peak. kUnknown when no meta says.
  DType dtype = DType::kUnknown;
  // A memcpy the host waits for: a copy to or from the CPU without
  // non_blocking=True (torch's default). Stream capture refuses it
  // (core/device/capture_rules.h).
  bool blocking = false;
  // The buffers (indices into TaskGraph::buffers) the task reads and writes:
  // the storages of its tensor inputs and of its value, as
  // core/analysis/alias_analysis.h's StorageMap derives them (a view reads its
  // base's storage; an in-place op and copy_ write their first argument's, an
  // out= op its out tensor's). Values without tensor meta are not tracked.
  std::vector<uint32_t> reads, writes;
  // The core limits of the task's stream when it was issued: what
  // torch.npu.set_stream_limit set (replace_core_limit_nodes makes those
  // calls of limit_core_num scopes, graph_pass.py:709-787); -1 when none was
  // set, i.e. the device's core counts.
  int64_t aicore_limit = -1;
  int64_t vectorcore_limit = -1;
  // What the runtime recorded of the task, for tasks read from a capture dump
  // (NPUGraph.debug_dump -> aclmdlRIDebugJsonPrint); absent for lowered tasks.
  struct LaunchRecord {
    std::string task_type;          // "Task Type": KERNEL_AICORE, KERNEL_AIVEC, KERNEL_MIX_AIC, EVENT_RECORD, ...
    int64_t stream_id = -1;         // "Stream Id"
    int64_t task_id = -1;           // "Task Id"
    int64_t model_id = -1;          // "Model Id"
    int64_t num_blocks = -1;        // "Numblocks" (-1: absent)
    int64_t task_ration = -1;       // "Task Ration" (-1: absent)
    int64_t schem_mode = -1;        // "Schem Mode" (-1: absent)
    std::string extend_info;        // "ExtendInfo", a JSON text ("" when absent)
    int64_t active_stream_id = -1;  // "Active Stream Id" of a STREAM_ACTIVE task (-1: absent)
    std::string kernel_args;        // "Kernel Args" (a verbose dump's), "" when absent
    int64_t kernel_args_size = -1;  // "Kernel Args Size" (-1: absent)
    std::string pid;                // "pid": "<process id> aclGraph"
    double ts_us = 0, dur_us = 0;   // where the dump drew it
  };
  std::optional<LaunchRecord> launch;
};

struct TaskGraph {
  std::vector<DeviceTask> tasks;
  std::vector<std::string> streams;  // every stream used, "" (default) first, then by first use
  // Buffer names for DeviceTask::reads/writes: the first node (in graph
  // order) whose value lives in the buffer.
  std::vector<std::string> buffers;
};

// What `lower` needs to know of a graph's tasks, without keeping them: a
// 100k-node graph's DeviceTasks (names, ops, streams, deps) were 23 MB made
// and dropped in one pass.
struct TaskCounts {
  size_t tasks = 0;
  size_t streams = 0;           // as TaskGraph::streams: the default stream counts
  size_t unrecorded_waits = 0;  // waits for an event no earlier task records
};
// Walks the graph as BuildTaskGraph does with allow_unrecorded_waits, and
// fails where it would, but only counts.
Result<TaskCounts> CountTasks(const Graph& lowered, const OpRegistry& registry);

// Kernels, and those among them whose cost is unknown (a shape airscope
// could not work out, or an op without a cost model): their times and output
// sizes are lower bounds.
struct KernelCount {
  int64_t kernels = 0;
  int64_t unknown_cost = 0;
};
KernelCount CountKernels(const TaskGraph& graph);

struct TaskGraphOptions {
  // Keep a wait whose event no earlier task records (as a wait task without
  // deps) instead of failing: stream capture and `check` report it in their
  // own words (ACL's 107024, an unrecorded wait), an eager run cannot run it.
  bool allow_unrecorded_waits = false;
  // Work out DeviceTask::reads / writes and TaskGraph::buffers (a storage
  // analysis of the whole graph): what `check` needs, lower's check does not.
  bool accesses = true;
};

// Builds the tasks of a lowered graph (one that passed `lower`). Fails, naming
// the node, on a wait whose event has no record before it (unless options
// allow it). torch.npu.current_stream / get_stream_limit / set_stream_limit
// are host calls: they make no task, but set the core limits of the tasks
// issued after them on that stream.
Result<TaskGraph> BuildTaskGraph(const Graph& lowered, const OpRegistry& registry,
                                 const TaskGraphOptions& options = {});

}  // namespace airscope

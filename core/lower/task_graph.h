// TaskGraph: what `lower` turns a graph into, the input of the simulated
// device. Every node that does device work becomes one DeviceTask on its
// stream; views and stream markers do no device work and become none;
// record/wait nodes become event tasks. Tasks are in graph order, which is a
// valid issue order per stream; `deps` names the cross-stream edges (a wait
// depends on its record) and data edges between tasks, so a scheduler can
// check it never runs a task before what it reads.
#pragma once

#include <cstdint>
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
  uint32_t id = 0;            // index in TaskGraph::tasks
  TaskKind kind = TaskKind::kKernel;
  std::string node;           // the node it came from
  std::string op;             // short target, "aten.mm.default"
  std::string stream;         // "" is the default stream
  std::string event;          // record/wait: the event's name (shared by a record and its waits)
  std::vector<uint32_t> deps; // tasks that must finish first (data and event edges), ascending
  OpCost cost;
  bool cost_known = false;
  // The element type the task computes in (its output's, else its first
  // input's): kernels use that dtype's peak. kUnknown when no meta says.
  DType dtype = DType::kUnknown;
  // A memcpy the host waits for: a copy to or from the CPU without
  // non_blocking=True (torch's default). It invalidates a stream capture.
  bool blocking = false;
};

struct TaskGraph {
  std::vector<DeviceTask> tasks;
  std::vector<std::string> streams;  // every stream used, "" (default) first, then by first use
};

// Kernels, and those among them whose cost is unknown (a shape airscope
// could not work out, or an op without a cost model): their times and output
// sizes are lower bounds.
struct KernelCount {
  int64_t kernels = 0;
  int64_t unknown_cost = 0;
};
KernelCount CountKernels(const TaskGraph& graph);

// Builds the tasks of a lowered graph (one that passed `lower`). Fails, naming
// the node, on a wait whose event has no record before it.
Result<TaskGraph> BuildTaskGraph(const Graph& lowered, const OpRegistry& registry);

}  // namespace airscope

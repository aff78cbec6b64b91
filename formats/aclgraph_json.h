// The capture dump TorchAir writes of every captured graph when
// TORCH_COMPILE_DEBUG=1 (or npugraph_ex's deadlock_check): NPUGraph.debug_dump
// (acl_graph.py:1261-1269) -> torch_npu NPUGraph::debug_dump ->
// aclmdlRIDebugJsonPrint(model, path, 1) (NPUGraph.cpp:414-418), the JSON
// TorchAir's tools/gegraph_check/ scripts (filter_operators.py,
// align_trace.py, deadlock_check.py) read. Both ways.
//
// The format, as the CANN runtime writes it (hicann/runtime
// src/runtime/feature/aclgraph/model_aclgraph.cc ModelDebugJsonPrint,
// src/runtime/core/src/stream/stream.cc TraceEventToJson,
// ConstructTraceEventFromTask, DebugJsonPrintForModelStm): a JSON array, one
// Chrome-trace "X" event per line, stream after stream, each stream's tasks in
// task id order:
//   {"name":N,"pid":"<pid> aclGraph","tid":"stream<id>","ts":T,"dur":D,"ph":"X",
//    "args":{"Model Id":M,"Stream Id":S,"Task Id":I,"Task Type":TYPE,
//            ["ExtendInfo":...], ["Active Stream Id":...], ["Numblocks":B],
//            ["Task Ration":R], ["Schem Mode":C], ["Kernel Args":..., "Kernel Args Size":...]}}
// N is the kernel's name for kernels, else the task type, with "_<event id>"
// for event tasks (EVENT_RECORD_3, EVENT_WAIT_3) and "_<id>" for notify and
// memory-value tasks. T advances per stream by 10 per task (5 for a record,
// 15 for a wait, 1 for a NOP), D is 9.5 (4.5, 14.5, 0.5): a schematic layout,
// not measured time (stream.hpp:37-65). "Task Ration" only for KERNEL_MIX_*.
//
// The scripts read (deadlock_check.py _build_stream_tasks, _build_sync_pairs,
// _calc_aivec, _is_comm_task, _merge_stream_active): "ph" == "X" events with
// "tid" and "args", grouped by tid and sorted by Task Id; records and waits by
// name prefix (EVENT_RECORD_ / MEM_WRITE_VALUE_, EVENT_WAIT_ / MEM_WAIT_VALUE_)
// with an all-digit handle; Task Type, Numblocks, Task Ration, Schem Mode,
// ExtendInfo; STREAM_ACTIVE tasks' Active Stream Id merges a stream into the
// one that activates it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/device/trace.h"
#include "core/lower/task_graph.h"
#include "core/status.h"

namespace airscope {

// A captured graph (streams as captured, capture stream first) in the dump's
// terms, every task with its LaunchRecord: streams renamed "stream<i>" (i
// their index), task ids their position on their stream, event ids numbered
// in order of first use, task types KERNEL_AICORE / MEMCPY_ASYNC /
// EVENT_RECORD / EVENT_WAIT, the schematic ts/dur. A communication kernel
// (core/check/hazards.h) is written as deadlock_check.py would have to see it
// to check it: KERNEL_AIVEC, Numblocks = the vector cores airscope assumes it
// holds, Schem Mode 1. Model Id = model_id, pid "0 aclGraph". Tasks keep
// their order. Tasks that already carry a LaunchRecord (read from a dump)
// keep it.
TaskGraph ToAclGraphDump(const TaskGraph& captured, int64_t model_id, int64_t device_vectorcores);

// The JSON text of a graph in the dump's terms (every task with a
// LaunchRecord), byte for byte as aclmdlRIDebugJsonPrint lays it out.
std::string AclGraphJson(const TaskGraph& dump);

struct AclGraphDump {
  // Every "X" task, each stream's in task id order (merged streams first
  // merged, as the scripts do), ordered across streams so that each wait
  // comes after a record of its event where one exists (the dump states no
  // order across streams); a wait depends on the latest record of its event
  // before it.
  TaskGraph tasks;
  std::string capture_stream;       // the first stream not beginning with a wait (else the first)
  std::vector<std::string> merged;  // "stream12 -> stream3" (STREAM_ACTIVE)
  int64_t model_id = -1;
};

// True when `content` is such a dump: a JSON array (or {"traceEvents": [...]})
// whose events carry "Task Type" args. Looks at the text only, cheaply.
bool LooksLikeAclGraphDump(std::string_view content);
// Errors: "FILE:LINE:COL: message" for JSON syntax, "FILE: event N: message"
// for an event the format does not allow.
Result<AclGraphDump> ParseAclGraphJson(std::string_view content, std::string_view filename);

// What the dump draws: a track per stream (after the empty host track), each
// task at its ts/dur (microseconds in the file), record->wait flows.
Trace AclGraphTrace(const TaskGraph& dump, std::string title);

}  // namespace airscope

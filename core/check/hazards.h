// Hazards: what can go wrong between the streams of a TaskGraph before it
// ever runs on hardware, found from the order a device guarantees
// (happens_before.h), not from one simulated schedule (which may happen to
// run racing tasks apart).
//
//   race            two tasks on different streams, neither ordered before
//                   the other, touching the same buffer, at least one writing
//                   it (DeviceTask::reads/writes).
//   unrecorded wait a wait whose event no task before it records: it waits
//                   for nothing.
//   re-recorded     an event recorded again before any wait consumed its
//                   earlier record: a wait meant for the first sees the second.
//   unjoined        a side stream not joined back to the capture stream at
//                   the end: capture refuses it (ACL 107025); found by the
//                   capture rules themselves (core/device/capture_rules.h).
//   cores           TorchAir's tools/gegraph_check/deadlock_check.py: two
//                   concurrent communication kernels scheduled in Schem Mode 1
//                   (a kernel starts only once all its blocks' cores are free)
//                   whose vector-core demands sum above the device's vector
//                   cores can wait on each other forever. Communication, by the
//                   script's _is_comm_task: a name containing "aiv_",
//                   "dispatch" or "combine" (any case), or an ExtendInfo whose
//                   taskType is "communication". Vector cores, by its
//                   _calc_aivec: KERNEL_AIVEC and KERNEL_MIX_AIV Numblocks,
//                   KERNEL_MIX_AIC Numblocks x 2 (0 when Task Ration is 0),
//                   other task types 0. A task read from a capture dump has
//                   those fields; a task lowered from a graph has none, so
//                   airscope takes a communication kernel to run in Schem Mode
//                   1 on the vector cores its stream is limited to
//                   (limit_core_num -> set_stream_limit), else all the device's.
//                   AI (cube) cores are not checked: the script does not.
//
// Contract: pure; deterministic order (by kind, then by the tasks' issue
// order). Each finding names its tasks, their streams and the buffer, event
// or cores.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/lower/task_graph.h"

namespace airscope {

enum class HazardKind : uint8_t { kRace, kUnrecordedWait, kRerecordedEvent, kUnjoined, kCores };
std::string_view HazardKindName(HazardKind kind);  // "race", "unrecorded wait", ...

struct Hazard {
  HazardKind kind;
  int64_t first = -1;   // the earlier task (-1 when none)
  int64_t second = -1;  // the later task (-1 when none)
  std::string message;
};

struct HazardOptions {
  // The stream the graph's capture begins on: side streams must join back to
  // it. For a graph not captured, its default stream "".
  std::string capture_stream;
  int64_t vectorcore_num = 0;  // the device's (DeviceSpec::vectorcore_num)
  std::string device;          // its name, for the messages
  // Look for streams not joined back. Off for a capture dump: the capture
  // that made it succeeded, and the runtime's own tasks in it are not modelled.
  bool check_joins = true;
};

std::vector<Hazard> FindHazards(const TaskGraph& graph, const HazardOptions& options);

// deadlock_check.py's rules for one task (see above): whether it is a
// communication kernel in Schem Mode 1, and the vector cores it holds.
struct CoreDemand {
  bool candidate = false;  // communication, Schem Mode 1, > 0 vector cores
  int64_t vectorcores = 0;
  std::string why;  // where the number comes from
};
CoreDemand VectorCoreDemand(const DeviceTask& task, int64_t device_vectorcores);

}  // namespace airscope

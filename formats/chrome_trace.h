// Chrome trace JSON (the Trace Event Format read by ui.perfetto.dev and
// chrome://tracing) of a simulated run.
//
// Layout: the host is its own process (pid 1, "host", one thread tid 1) and
// the device another (pid 2, "NPU (<preset>)", tid = stream index from 1), as
// torch's profiler separates CPU and device activity: Perfetto then groups
// host and device rows apart and flow arrows cross between them.
// Events: "M" metadata naming every process and thread (process_name,
// process_sort_index, thread_name, thread_sort_index), "X" slices (ts/dur in
// microseconds, fractional), "s"/"f" flow pairs (same id; "bp":"e" on the
// "f") from each launch to its kernel and from each record to its wait, "C"
// counters, and an "i" instant event for an error. Keys are written in a
// fixed order, so the output is byte-identical for the same trace.
#pragma once

#include <string>

#include "core/device/trace.h"

namespace airscope {

std::string ChromeTraceJson(const Trace& trace);

}  // namespace airscope

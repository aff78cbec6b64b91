// The report's drawings of a simulated run (core/device/trace.h) as SVG:
// the per-stream timeline (the host row, then one row per stream; tasks
// coloured by kind, record -> wait arrows, idle gaps on streams marked) and
// the memory of each pool over time (the trace's counters, one line each).
//
// Contract: deterministic text; every name from the trace is escaped. Slices
// narrower than half a pixel are drawn merged with their neighbours on the
// same row ("N tasks" in the tooltip), so a 100,000-task trace stays a
// drawing a browser opens at once. Rows carry class "host-row" or
// "stream-row" and data-track with the track's name.
#pragma once

#include <string>

#include "core/device/trace.h"

namespace airscope {

struct TimelineSvgOptions {
  int width = 1400;  // pixels, labels included
};

std::string TimelineSvg(const Trace& trace, const TimelineSvgOptions& options = {});

// "" when the trace has no counters.
std::string MemorySvg(const Trace& trace, const TimelineSvgOptions& options = {});

}  // namespace airscope

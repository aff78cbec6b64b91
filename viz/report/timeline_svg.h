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
//
// Hazard marks (`check`'s findings, chosen by the caller for the very tasks
// that ran): a slice of a marked task, on a stream row, gets class "hazard"
// and the note in its tooltip, and is never merged with its neighbours; the
// first slices of the two tasks of a link are joined by a "hazard-link" line.
// Without marks the drawing is what it was.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/device/trace.h"

namespace airscope {

struct TimelineMark {
  int64_t task = -1;  // Slice::task
  std::string note;   // "race with add"
};

// Two tasks to join (a race: both tasks' first slices on stream rows).
struct TimelineLink {
  int64_t first = -1, second = -1;  // Slice::task
  std::string note;                 // the line's tooltip
};

struct TimelineSvgOptions {
  int width = 1400;  // pixels, labels included
  std::vector<TimelineMark> marks;
  std::vector<TimelineLink> links;
};

std::string TimelineSvg(const Trace& trace, const TimelineSvgOptions& options = {});

// "" when the trace has no counters.
std::string MemorySvg(const Trace& trace, const TimelineSvgOptions& options = {});

}  // namespace airscope

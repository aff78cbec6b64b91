// RunStats: what a Trace says about the run: per stream busy time and
// utilisation, the overlap between streams (time at least two are busy), and
// each track's longest idle gap with its cause.
//
// Contract: reads the trace only; deterministic. "Busy" is kernel + memcpy
// time. A gap's cause is "waiting on EVENT" when the stream sat in a wait,
// "host launch bound" when the work after the gap was launched by the host
// only after the gap began, else "nothing to do".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/device/trace.h"

namespace airscope {

struct TrackStats {
  std::string name;
  int64_t busy_ns = 0;
  double busy_pct = 0;
  int64_t longest_gap_ns = 0;
  int64_t gap_start_ns = 0;
  std::string gap_cause;  // empty when there is no gap
};

struct RunStats {
  int64_t span_ns = 0;
  int64_t host_busy_ns = 0;  // host slices other than sync / error
  std::vector<TrackStats> streams;
  int64_t overlap_ns = 0;
};

RunStats ComputeRunStats(const Trace& trace);

// "12.5 us", "3.20 ms", "850 ns".
std::string FormatNs(int64_t ns);

}  // namespace airscope

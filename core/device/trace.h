// Trace: what a simulated run did, for timelines, Chrome traces and stats.
//
// Contract: track 0 is the host thread; track i > 0 is device stream
// tracks[i]. Slices are appended in simulation order; on one track they never
// overlap. Flows link a host launch (or a record) to the slice it caused (the
// kernel, or the wait it released) by slice index. Times are integer ns from
// the start of the run.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

namespace airscope {

enum class SliceCategory : uint8_t {
  kKernel,
  kMemcpy,
  kLaunch,       // host: a kernel/memcpy launch call (and its dispatch)
  kDispatch,     // host: framework overhead of an eager op
  kGraphLaunch,  // host: one graph launch
  kEvent,        // a record (host issue, or its point on a stream)
  kWait,         // a stream waiting on an event (or the host issuing it)
  kSync,         // host: blocked in synchronize / a host sync
  kCapture,      // host: recording a task into a graph
  kError,        // the run stopped here: the name says why
};
std::string_view SliceCategoryName(SliceCategory category);

struct Slice {
  uint32_t track = 0;
  SliceCategory category = SliceCategory::kKernel;
  std::string name;
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  int32_t iteration = 0;
  int64_t task = -1;  // the DeviceTask id, -1 for none
  // Saturating: a trace read from a file may hold times near the ends of int64.
  int64_t end_ns() const {
    int64_t end = 0;
    if (__builtin_add_overflow(start_ns, dur_ns, &end)) {
      return dur_ns > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
    }
    return end;
  }
};

enum class FlowKind : uint8_t { kLaunch, kEvent };

struct Flow {
  FlowKind kind = FlowKind::kLaunch;
  uint32_t from = 0;  // slice index
  uint32_t to = 0;    // slice index
};

struct Counter {
  std::string name;  // "allocated (default)"
  int64_t ts_ns = 0;
  int64_t value = 0;
};

struct Trace {
  std::string title;  // "replay mlp x10"
  // The graph that ran (the name eager, capture or replay was given), "" for
  // a trace no run made: what ties its slices' task ids to that graph's tasks.
  std::string graph;
  std::string device;               // the preset name
  std::vector<std::string> tracks;  // [0] = "host", then stream names ("default" for "")
  std::vector<Slice> slices;
  std::vector<Flow> flows;
  std::vector<Counter> counters;
  int64_t end_ns = 0;  // the run's end (host and every stream)
};

}  // namespace airscope

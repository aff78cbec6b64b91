// HappensBefore: which tasks of a TaskGraph a device is guaranteed to run in
// order, from vector clocks over issue order.
//
// A device orders tasks only three ways: the tasks of one stream run in the
// order they were issued; a wait starts after the record it waits for (the
// event's latest record issued before the wait, as aclrtStreamWaitEvent and
// cudaStreamWaitEvent bind); and a task that makes the host wait for its
// stream (a host sync, a blocking copy) orders everything issued after it.
// Data edges between streams order nothing: that is what a race is.
//
// Each task's clock holds, per stream, the position (in that stream's issue
// order) of the latest task on it that happens before the task; its own
// stream's entry is its own position. Task a happens before task b iff
// clock(b)[stream(a)] >= position(a): the rule TorchAir's
// tools/gegraph_check/deadlock_check.py computes (_compute_vector_clocks,
// _are_concurrent). Computed in one pass in issue order (a wait's record is
// issued before it), O(tasks x streams).
//
// Contract: pure; reads the graph only; deterministic.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/lower/task_graph.h"

namespace airscope {

class HappensBefore {
 public:
  static HappensBefore Compute(const TaskGraph& graph);

  // True when task a runs (entirely) before task b on any device.
  bool Before(uint32_t a, uint32_t b) const;
  // Neither runs before the other: they may overlap.
  bool Concurrent(uint32_t a, uint32_t b) const { return a != b && !Before(a, b) && !Before(b, a); }

  // The record a wait waits for (its event's latest record issued before it),
  // -1 when none was: the wait waits for nothing.
  int64_t RecordOf(uint32_t wait) const { return record_of_[wait]; }

  size_t stream_count() const { return streams_.size(); }
  const std::vector<std::string>& streams() const { return streams_; }
  uint32_t stream_of(uint32_t task) const { return stream_[task]; }
  uint32_t position(uint32_t task) const { return position_[task]; }
  // The task's clock: per stream (in streams() order) the position of the
  // latest task on it ordered before or at this one, -1 for none.
  std::span<const int32_t> Clock(uint32_t task) const;

 private:
  std::vector<std::string> streams_;
  std::vector<uint32_t> stream_;    // per task
  std::vector<uint32_t> position_;  // per task, in its stream
  std::vector<int64_t> record_of_;  // per task (waits)
  std::vector<int32_t> clocks_;     // tasks x streams
};

// A task that makes the host wait for its stream before the host issues more:
// a host sync (.item()) or a blocking host<->device copy.
bool BlocksHost(const DeviceTask& task);

}  // namespace airscope

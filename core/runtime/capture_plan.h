// Capture planning by simulation: which capture sizes of a piecewise model
// fit the device's streams and memory, found by capturing every piece at
// every size on a scratch device (core/runtime/piecewise_runtime.h), never
// on the session's own.
//
// Per size, in vLLM's capture order (largest first): the graphs, the streams
// and events they hold, the global pool's growth and size after, the host
// time recording them took; a running total of streams against the budget.
// The first size whose capture fails is named with the runtime's error (or
// the allocator's, out of memory); the sizes after it are not attempted.
//
// `auto`: the most sizes that fit. Every size holds the same streams (one
// set of graphs each), so that count comes from capturing the candidates
// largest first until one fails; the sizes kept are spread over the
// candidates the way vllm-ascend's formula spreads them (first and last
// included, vau26:745-754), or, given a batch-size histogram, the set with
// the least padding (every batch padded to the next kept size; the largest
// candidate is always kept, so no batch runs eagerly that ran as a graph
// before). The chosen set is then captured for real, and one size fewer is
// tried while it does not fit (memory can fail where streams did not).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/device/device_spec.h"
#include "core/runtime/piecewise_runtime.h"
#include "core/status.h"

namespace airscope {

struct CapturePlanRow {
  int64_t size = 0;
  bool captured = false;
  int64_t graphs = 0;
  int64_t streams = 0;        // this size's graphs
  int64_t total_streams = 0;  // the device's, after this size (communication streams included)
  int64_t events = 0;
  int64_t pool_growth = 0;
  int64_t pool_after = 0;
  int64_t capture_ns = 0;
  int64_t unknown_cost_kernels = 0;  // > 0: the pool bytes are a lower bound
};

struct CapturePlan {
  std::vector<CapturePlanRow> rows;  // capture order
  int64_t stream_budget = 0;         // 0: no limit
  int64_t memory_capacity = 0;
  int64_t comm_streams = 0;     // held once for the communication groups
  int64_t failed_size = 0;      // 0: every size fits
  std::string failure;          // the error of that capture
  std::vector<int64_t> chosen;  // auto: the sizes kept, ascending
  int64_t probe_fit = 0;        // auto: how many candidates fit, captured largest first
  int64_t padding_waste = -1;   // auto with a histogram: sum of count x (padded - batch) over the kept sizes
};

// Captures `sizes` (any order) with a fresh runtime like `runtime` on a
// scratch device of `spec`.
Result<CapturePlan> PlanCaptureSizes(const PiecewiseRuntime& runtime, const std::vector<int64_t>& sizes,
                                     const DeviceSpec& spec, const OpRegistry& registry);

// `auto` over `candidates`; `batches`: tokens -> how often (empty: spread).
Result<CapturePlan> PlanCaptureAuto(const PiecewiseRuntime& runtime, const std::vector<int64_t>& candidates,
                                    const std::map<int64_t, int64_t>& batches, const DeviceSpec& spec,
                                    const OpRegistry& registry);

// The k of `sizes` (ascending) with the least padding for `batches`, the
// largest size always among them; its waste in *waste.
std::vector<int64_t> LeastPaddingSizes(const std::vector<int64_t>& sizes, size_t k,
                                       const std::map<int64_t, int64_t>& batches, int64_t* waste);

}  // namespace airscope

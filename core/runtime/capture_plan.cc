#include "core/runtime/capture_plan.h"

#include <algorithm>
#include <limits>

#include "core/spread_sample.h"

namespace airscope {
namespace {

// Captures the runtime's sizes in its capture order on a scratch device;
// stops at the first failure.
CapturePlan CaptureOnScratch(PiecewiseRuntime& runtime, const DeviceSpec& spec, const OpRegistry& registry) {
  SimDevice device(spec);
  PoolId pool = device.allocator().CreatePool("vLLM global graph pool");
  CapturePlan plan;
  plan.stream_budget = spec.streams;
  plan.memory_capacity = spec.memory_capacity;
  for (int64_t size : runtime.CaptureOrder()) {
    CapturePlanRow row;
    row.size = size;
    if (plan.failed_size == 0) {
      Result<SizeCapture> c = runtime.CaptureSize(size, device, pool, registry, nullptr);
      if (c.ok()) {
        row.captured = true;
        row.graphs = static_cast<int64_t>(c->graphs.size());
        row.streams = c->streams;
        row.events = c->events;
        row.pool_growth = c->pool_after - c->pool_before;
        row.pool_after = c->pool_after;
        row.capture_ns = c->capture_ns;
        row.unknown_cost_kernels = c->unknown_cost_kernels;
      } else {
        plan.failed_size = size;
        plan.failure = c.status().message();
      }
      row.total_streams = device.streams_held();
    }
    plan.rows.push_back(row);
  }
  for (const auto& [owner, streams] : device.stream_holders()) plan.comm_streams += streams;
  return plan;
}

}  // namespace

Result<CapturePlan> PlanCaptureSizes(const PiecewiseRuntime& runtime, const std::vector<int64_t>& sizes,
                                     const DeviceSpec& spec, const OpRegistry& registry) {
  AIRSCOPE_ASSIGN_OR_RETURN(PiecewiseRuntime fresh, runtime.WithSizes(sizes));
  return CaptureOnScratch(fresh, spec, registry);
}

std::vector<int64_t> LeastPaddingSizes(const std::vector<int64_t>& sizes, size_t k,
                                       const std::map<int64_t, int64_t>& batches, int64_t* waste) {
  const size_t n = sizes.size();
  k = std::min(k, n);
  if (k == 0) return {};
  // cost(j, i): the padding of the batches in (sizes[j], sizes[i]] padded to
  // sizes[i] (j = -1: from 0). best[c][i]: the least padding of the batches
  // up to sizes[i] with c sizes kept, sizes[i] the largest of them.
  auto cost = [&](int64_t lo, size_t i) {
    int64_t total = 0;
    for (auto it = batches.upper_bound(lo); it != batches.end() && it->first <= sizes[i]; ++it) {
      total += it->second * (sizes[i] - it->first);
    }
    return total;
  };
  constexpr int64_t kNone = std::numeric_limits<int64_t>::max();
  std::vector<std::vector<int64_t>> best(k + 1, std::vector<int64_t>(n, kNone));
  std::vector<std::vector<size_t>> from(k + 1, std::vector<size_t>(n, n));
  for (size_t i = 0; i < n; ++i) best[1][i] = cost(0, i);
  for (size_t c = 2; c <= k; ++c) {
    for (size_t i = c - 1; i < n; ++i) {
      for (size_t j = c - 2; j < i; ++j) {
        if (best[c - 1][j] == kNone) continue;
        int64_t v = best[c - 1][j] + cost(sizes[j], i);
        if (v < best[c][i]) {
          best[c][i] = v;
          from[c][i] = j;
        }
      }
    }
  }
  std::vector<int64_t> chosen;
  size_t i = n - 1;
  for (size_t c = k; c >= 1; --c) {
    chosen.push_back(sizes[i]);
    if (c == 1) break;
    i = from[c][i];
  }
  std::reverse(chosen.begin(), chosen.end());
  if (waste) *waste = best[k][n - 1];
  return chosen;
}

Result<CapturePlan> PlanCaptureAuto(const PiecewiseRuntime& runtime, const std::vector<int64_t>& candidates,
                                    const std::map<int64_t, int64_t>& batches, const DeviceSpec& spec,
                                    const OpRegistry& registry) {
  AIRSCOPE_ASSIGN_OR_RETURN(PiecewiseRuntime all, runtime.WithSizes(candidates));
  CapturePlan probe = CaptureOnScratch(all, spec, registry);
  size_t fit = 0;
  for (const CapturePlanRow& r : probe.rows) fit += r.captured;
  if (fit == candidates.size()) {
    probe.chosen = candidates;
    probe.probe_fit = static_cast<int64_t>(fit);
    std::sort(probe.chosen.begin(), probe.chosen.end());
    return probe;
  }
  std::vector<int64_t> ascending = candidates;
  std::sort(ascending.begin(), ascending.end());
  for (size_t k = fit; k >= 1; --k) {
    std::vector<int64_t> chosen;
    int64_t waste = -1;
    if (!batches.empty()) {
      chosen = LeastPaddingSizes(ascending, k, batches, &waste);
    } else if (k == 1) {
      chosen = {candidates.back()};  // vau26:749: the list's last
    } else {
      chosen = SampleCaptureSizes(candidates, static_cast<int64_t>(k));
    }
    AIRSCOPE_ASSIGN_OR_RETURN(PiecewiseRuntime kept, runtime.WithSizes(chosen));
    CapturePlan plan = CaptureOnScratch(kept, spec, registry);
    if (plan.failed_size != 0) continue;
    plan.chosen = chosen;
    std::sort(plan.chosen.begin(), plan.chosen.end());
    plan.padding_waste = waste;
    // The first candidate that did not fit, for the reader.
    plan.failed_size = probe.failed_size;
    plan.failure = probe.failure;
    plan.probe_fit = static_cast<int64_t>(fit);
    return plan;
  }
  return Status::Errorf("not one capture size fits: {}", probe.failure);
}

}  // namespace airscope

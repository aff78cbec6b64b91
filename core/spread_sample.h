// SampleCaptureSizes: how vllm-ascend's update_aclgraph_sizes keeps `keep`
// of a capture-size list (vau25:301-309, vau26:745-754), shared by the
// formula (core/plan) and the simulated plan (core/runtime/capture_plan.h).
// Python's arithmetic: step = (len - 1) / (keep - 1) in double, index
// round(i * step) with halves to even, then the first and last indices forced
// to the list's ends.
#pragma once

#include <cstdint>
#include <vector>

namespace airscope {

// `keep` >= 2 and `sizes` not empty; the sizes in the order given.
std::vector<int64_t> SampleCaptureSizes(const std::vector<int64_t>& sizes, int64_t keep);

}  // namespace airscope

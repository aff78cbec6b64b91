#include "core/spread_sample.h"

#include <cmath>

namespace airscope {

std::vector<int64_t> SampleCaptureSizes(const std::vector<int64_t>& sizes, int64_t keep) {
  double step = static_cast<double>(sizes.size() - 1) / static_cast<double>(keep - 1);
  std::vector<int64_t> indices;
  indices.reserve(static_cast<size_t>(keep));
  // Python's round(): to the nearest integer, halves to even, as the default
  // floating-point environment's nearbyint does.
  for (int64_t i = 0; i < keep; ++i)
    indices.push_back(static_cast<int64_t>(std::nearbyint(static_cast<double>(i) * step)));
  indices.front() = 0;
  indices.back() = static_cast<int64_t>(sizes.size()) - 1;
  std::vector<int64_t> out;
  out.reserve(indices.size());
  for (int64_t i : indices) out.push_back(sizes[static_cast<size_t>(i)]);
  return out;
}

}  // namespace airscope

#include "core/suggest.h"

#include <algorithm>

#include <fmt/format.h>

namespace airscope {

size_t TypoDistance(std::string_view a, std::string_view b) {
  // Three rows of the dynamic programme suffice for the swap rule.
  std::vector<size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t substitute = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, substitute});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> ClosestName(std::string_view word, const std::vector<std::string>& candidates) {
  const size_t limit = word.size() <= 4 ? 1 : 2;
  std::optional<std::string> best;
  size_t best_distance = limit + 1;
  for (const std::string& candidate : candidates) {
    // Lengths further apart than the limit cannot be within it.
    size_t gap = candidate.size() > word.size() ? candidate.size() - word.size() : word.size() - candidate.size();
    if (gap > limit || candidate == word) continue;
    size_t distance = TypoDistance(word, candidate);
    if (distance < best_distance) {
      best_distance = distance;
      best = candidate;
    }
  }
  return best;
}

std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  std::optional<std::string> closest = ClosestName(word, candidates);
  return closest ? fmt::format(" (did you mean {}?)", *closest) : "";
}

}  // namespace airscope

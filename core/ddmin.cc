#include "core/ddmin.h"

#include <algorithm>
#include <utility>

namespace airscope {
namespace {

// Chunk `i` of `n` nearly equal consecutive chunks of `items`.
std::vector<size_t> Chunk(const std::vector<size_t>& items, size_t n, size_t i) {
  size_t begin = items.size() * i / n;
  size_t end = items.size() * (i + 1) / n;
  return {items.begin() + static_cast<std::ptrdiff_t>(begin), items.begin() + static_cast<std::ptrdiff_t>(end)};
}

// `items` without chunk `i` of `n`.
std::vector<size_t> Complement(const std::vector<size_t>& items, size_t n, size_t i) {
  size_t begin = items.size() * i / n;
  size_t end = items.size() * (i + 1) / n;
  std::vector<size_t> rest(items.begin(), items.begin() + static_cast<std::ptrdiff_t>(begin));
  rest.insert(rest.end(), items.begin() + static_cast<std::ptrdiff_t>(end), items.end());
  return rest;
}

}  // namespace

DdminResult Ddmin(std::vector<size_t> items, const DdminTest& test) {
  DdminResult result;
  result.kept = std::move(items);
  // Ask `subset`; on "still fails" it becomes the result. Errors stop the search.
  auto reduces_to = [&](std::vector<size_t> subset) -> Result<bool> {
    AIRSCOPE_ASSIGN_OR_RETURN(bool fails, test(subset));
    ++result.tries;
    if (fails) result.kept = std::move(subset);
    return fails;
  };
  size_t n = 2;
  while (result.kept.size() >= 2) {
    const std::vector<size_t> current = result.kept;
    n = std::min(n, current.size());
    bool reduced = false;
    for (size_t i = 0; i < n && !reduced; ++i) {
      Result<bool> fails = reduces_to(Chunk(current, n, i));
      if (!fails.ok()) {
        result.stopped = fails.status();
        return result;
      }
      if (*fails) {
        reduced = true;
        n = 2;  // a chunk alone fails: start over on it with halves
      }
    }
    // With two chunks each complement is the other chunk: already asked.
    for (size_t i = 0; i < n && !reduced && n > 2; ++i) {
      Result<bool> fails = reduces_to(Complement(current, n, i));
      if (!fails.ok()) {
        result.stopped = fails.status();
        return result;
      }
      if (*fails) {
        reduced = true;
        n = std::max<size_t>(n - 1, 2);
      }
    }
    if (reduced) continue;
    if (n >= current.size()) break;  // every single item is needed: 1-minimal
    n = std::min(current.size(), n * 2);
  }
  return result;
}

}  // namespace airscope

// DiffLines / UnifiedDiff: Myers' linear-space line diff and `diff -u` hunks.
#include <algorithm>
#include <optional>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "core/line_reader.h"
#include "core/pass/graph_diff.h"

namespace airscope {
namespace {

// A bisection that needs more than this many edits gives up on minimality
// for its region (reported as delete-all/insert-all): bounds the worst case
// at about kMaxEdits^2 + kMaxEdits * (N + M) steps per region.
constexpr ptrdiff_t kMaxEdits = 2048;

struct Region {
  size_t a0, a1, b0, b1;
};

// The middle snake of Myers' algorithm (as in diff-match-patch's bisect):
// a point (x, y) on an optimal path, splitting the region in two. nullopt
// when there is no common line worth finding within kMaxEdits.
std::optional<std::pair<size_t, size_t>> Bisect(const std::vector<int>& A, const std::vector<int>& B, const Region& r) {
  const ptrdiff_t n = static_cast<ptrdiff_t>(r.a1 - r.a0);
  const ptrdiff_t m = static_cast<ptrdiff_t>(r.b1 - r.b0);
  const int* a = A.data() + r.a0;
  const int* b = B.data() + r.b0;
  const ptrdiff_t max_d = (n + m + 1) / 2;
  const ptrdiff_t offset = max_d;
  // diff-match-patch sizes these 2 * max_d, relying on JavaScript arrays
  // reading past their end: v[offset + 1] and v[k + 1] with k = d reach index
  // 2 * max_d. Two spare slots keep every access in bounds.
  const ptrdiff_t length = 2 * max_d + 2;
  std::vector<ptrdiff_t> v1(static_cast<size_t>(length), -1), v2(static_cast<size_t>(length), -1);
  v1[static_cast<size_t>(offset + 1)] = 0;
  v2[static_cast<size_t>(offset + 1)] = 0;
  const ptrdiff_t delta = n - m;
  const bool front = (delta % 2) != 0;
  ptrdiff_t k1start = 0, k1end = 0, k2start = 0, k2end = 0;
  const ptrdiff_t limit = std::min(max_d, kMaxEdits);
  auto at = [](std::vector<ptrdiff_t>& v, ptrdiff_t i) -> ptrdiff_t& { return v[static_cast<size_t>(i)]; };
  for (ptrdiff_t d = 0; d < limit; ++d) {
    for (ptrdiff_t k1 = -d + k1start; k1 <= d - k1end; k1 += 2) {
      ptrdiff_t k1o = offset + k1;
      ptrdiff_t x1 =
          (k1 == -d || (k1 != d && at(v1, k1o - 1) < at(v1, k1o + 1))) ? at(v1, k1o + 1) : at(v1, k1o - 1) + 1;
      ptrdiff_t y1 = x1 - k1;
      while (x1 < n && y1 < m && a[x1] == b[y1]) ++x1, ++y1;
      at(v1, k1o) = x1;
      if (x1 > n) {
        k1end += 2;
      } else if (y1 > m) {
        k1start += 2;
      } else if (front) {
        ptrdiff_t k2o = offset + delta - k1;
        if (k2o >= 0 && k2o < length && at(v2, k2o) != -1 && x1 >= n - at(v2, k2o)) {
          return std::pair<size_t, size_t>(r.a0 + static_cast<size_t>(x1), r.b0 + static_cast<size_t>(y1));
        }
      }
    }
    for (ptrdiff_t k2 = -d + k2start; k2 <= d - k2end; k2 += 2) {
      ptrdiff_t k2o = offset + k2;
      ptrdiff_t x2 =
          (k2 == -d || (k2 != d && at(v2, k2o - 1) < at(v2, k2o + 1))) ? at(v2, k2o + 1) : at(v2, k2o - 1) + 1;
      ptrdiff_t y2 = x2 - k2;
      while (x2 < n && y2 < m && a[n - x2 - 1] == b[m - y2 - 1]) ++x2, ++y2;
      at(v2, k2o) = x2;
      if (x2 > n) {
        k2end += 2;
      } else if (y2 > m) {
        k2start += 2;
      } else if (!front) {
        ptrdiff_t k1o = offset + delta - k2;
        if (k1o >= 0 && k1o < length && at(v1, k1o) != -1) {
          ptrdiff_t x1 = at(v1, k1o);
          ptrdiff_t y1 = offset + x1 - k1o;
          if (x1 >= n - x2) {
            return std::pair<size_t, size_t>(r.a0 + static_cast<size_t>(x1), r.b0 + static_cast<size_t>(y1));
          }
        }
      }
    }
  }
  return std::nullopt;
}

// GNU's range: "l" for one line, "l,n" otherwise, l the line before an empty range.
std::string Range(size_t start, size_t count) {
  if (count == 1) return fmt::format("{}", start + 1);
  return fmt::format("{},{}", count == 0 ? start : start + 1, count);
}

}  // namespace

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  ForEachLine(text, [&lines](std::string_view line) { lines.push_back(line); });
  return lines;
}

std::vector<LineEdit> DiffLines(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  // Lines become integers so the inner loop compares ints.
  std::unordered_map<std::string_view, int> ids;
  auto intern = [&ids](const std::vector<std::string_view>& lines) {
    std::vector<int> out;
    out.reserve(lines.size());
    for (std::string_view line : lines) out.push_back(ids.emplace(line, static_cast<int>(ids.size())).first->second);
    return out;
  };
  std::vector<int> A = intern(a), B = intern(b);
  std::vector<std::pair<size_t, size_t>> matches;
  std::vector<Region> work = {{0, A.size(), 0, B.size()}};
  while (!work.empty()) {
    Region r = work.back();
    work.pop_back();
    while (r.a0 < r.a1 && r.b0 < r.b1 && A[r.a0] == B[r.b0]) matches.emplace_back(r.a0++, r.b0++);
    while (r.a0 < r.a1 && r.b0 < r.b1 && A[r.a1 - 1] == B[r.b1 - 1]) matches.emplace_back(--r.a1, --r.b1);
    if (r.a0 == r.a1 || r.b0 == r.b1) continue;
    std::optional<std::pair<size_t, size_t>> split = Bisect(A, B, r);
    if (!split) continue;
    auto [x, y] = *split;
    if ((x == r.a0 && y == r.b0) || (x == r.a1 && y == r.b1)) continue;  // no progress: give up here
    work.push_back({x, r.a1, y, r.b1});
    work.push_back({r.a0, x, r.b0, y});
  }
  std::sort(matches.begin(), matches.end());
  std::vector<LineEdit> edits;
  edits.reserve(A.size() + B.size());
  size_t i = 0, j = 0;
  auto flush = [&](size_t to_i, size_t to_j) {
    for (; i < to_i; ++i) edits.push_back({LineEdit::Kind::kDelete, i, j});
    for (; j < to_j; ++j) edits.push_back({LineEdit::Kind::kInsert, i, j});
  };
  for (auto [mi, mj] : matches) {
    flush(mi, mj);
    edits.push_back({LineEdit::Kind::kEqual, i++, j++});
  }
  flush(A.size(), B.size());
  return edits;
}

std::string UnifiedDiff(std::string_view text_a, std::string_view text_b, std::string_view label_a,
                        std::string_view label_b, size_t context) {
  if (text_a == text_b) return "";
  std::vector<std::string_view> a = SplitLines(text_a), b = SplitLines(text_b);
  std::vector<LineEdit> edits = DiffLines(a, b);
  std::string out;
  size_t e = 0;
  const size_t count = edits.size();
  bool any = false;
  while (e < count) {
    // Find the next change; the hunk starts `context` equal lines before it.
    while (e < count && edits[e].kind == LineEdit::Kind::kEqual) ++e;
    if (e == count) break;
    size_t start = e >= context ? e - context : 0;
    // Extend while the equal run between changes is at most 2 * context.
    size_t end = e;
    while (true) {
      while (end < count && edits[end].kind != LineEdit::Kind::kEqual) ++end;
      size_t equal_end = end;
      while (equal_end < count && edits[equal_end].kind == LineEdit::Kind::kEqual) ++equal_end;
      if (equal_end < count && equal_end - end <= 2 * context) {
        end = equal_end;
        continue;
      }
      end = std::min(end + context, equal_end);
      break;
    }
    if (!any) {
      out += fmt::format("--- {}\n+++ {}\n", label_a, label_b);
      any = true;
    }
    size_t a_start = edits[start].a_line, b_start = edits[start].b_line, a_count = 0, b_count = 0;
    for (size_t k = start; k < end; ++k) {
      a_count += edits[k].kind != LineEdit::Kind::kInsert;
      b_count += edits[k].kind != LineEdit::Kind::kDelete;
    }
    out += fmt::format("@@ -{} +{} @@\n", Range(a_start, a_count), Range(b_start, b_count));
    for (size_t k = start; k < end; ++k) {
      switch (edits[k].kind) {
        case LineEdit::Kind::kEqual: out += fmt::format(" {}\n", a[edits[k].a_line]); break;
        case LineEdit::Kind::kDelete: out += fmt::format("-{}\n", a[edits[k].a_line]); break;
        case LineEdit::Kind::kInsert: out += fmt::format("+{}\n", b[edits[k].b_line]); break;
      }
    }
    e = end;
  }
  return out;
}

}  // namespace airscope

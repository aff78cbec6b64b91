// What changed between two graphs (typically two stages of a pipeline).
//
// DiffGraphs matches nodes by name: a name only in `b` is added, only in `a`
// removed, in both but with a different op, target, args, kwargs, stream or
// meta is changed (saying which of those). Argument node references compare
// by name, so the two graphs need not share nodes. Lists are in graph order
// (removed in a's order, added and changed in b's). A node that only moved
// is not "changed"; the unified diff of the texts shows the move.
//
// UnifiedDiff is a line diff in `diff -u` format: `--- label_a`,
// `+++ label_b`, then `@@ -l,n +l,n @@` hunks with `context` lines around
// each change (GNU's conventions: a 1-line range prints as `-l`, an empty
// one as `-l,0` with l the line before it). Identical texts give "".
// The algorithm is Myers' O(ND) in linear space with an explicit work stack
// (no recursion that grows with the input); a region whose edit distance
// exceeds a bound is reported as delete-all/insert-all rather than searched
// further, so two unrelated 100k-line texts still diff in well under a
// second. A missing newline at the end of a text is not reported.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"

namespace airscope {

struct NodeChange {
  std::string name;
  std::vector<std::string> fields;  // of: op, target, args, kwargs, stream, meta
};

struct GraphDiff {
  std::vector<std::string> added;
  std::vector<std::string> removed;
  std::vector<NodeChange> changed;
  bool empty() const { return added.empty() && removed.empty() && changed.empty(); }
};

GraphDiff DiffGraphs(const Graph& a, const Graph& b);

// TorchAir's DEBUG record of one FX pass (graph_utils.py _compare_fx_graphs,
// gu:245-283, logged by debug_compare_fx_graphs under TORCH_COMPILE_DEBUG):
//
//   After fx graph pass(NAME) optimization:
//       cost 0.0000123400s,                 <- only when cost_seconds > 0
//       before 5 nodes, after 4 nodes,
//       removed nodes: ['clone'],
//       added nodes: [],
//       operations statistics:
//        <_tabulate table: name, cnt(before), cnt(after), diff; `total` first>
//
//       targets statistics:
//        <the same for targets, spelled as Node._pretty_print_target prints them>
//
// Names are Python reprs in a list; targets as FX prints them
// (`torch.ops.aten.add.Tensor`, `operator.getitem`, a placeholder's name).
// TorchAir builds the name lists and the table rows from Python sets, whose
// order varies from run to run; airscope fixes one: removed names in `before`'s
// graph order, added names in `after`'s, table rows by first appearance in
// `before` then in `after`. No trailing newline (a logger record).
std::string PassStatsTable(const Graph& before, const Graph& after, std::string_view pass, double cost_seconds);

// The line-level edit script, for callers that render differently.
struct LineEdit {
  enum class Kind : uint8_t { kEqual, kDelete, kInsert };
  Kind kind;
  size_t a_line;  // 0-based index into a's lines (kEqual, kDelete)
  size_t b_line;  // 0-based index into b's lines (kEqual, kInsert)
};
std::vector<LineEdit> DiffLines(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b);
// A text's lines as the diffs take them: without '\n', no empty line after a final '\n'.
std::vector<std::string_view> SplitLines(std::string_view text);

std::string UnifiedDiff(std::string_view text_a, std::string_view text_b, std::string_view label_a,
                        std::string_view label_b, size_t context = 3);

}  // namespace airscope

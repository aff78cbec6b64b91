// `diff`'s folding of alike hunks: a pass that rewrites every layer the same
// way makes one hunk per layer, the same change under other node names. Such
// hunks print once, followed by a line saying how many more there are, where
// (their line numbers) and, for FX text, which repeats of a repeated block of
// the graph before (repl/graph_folding.h) they fall in.
//
// Two hunks are alike when their lines are equal after renaming: every word
// that names a node of either graph (not after a '.', so targets stay) is
// replaced by its order of first appearance in the hunk. Line numbers are not
// compared; constants, shapes and targets are, so a layer changed in
// another way stays a hunk of its own.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"

namespace airscope {

struct FoldedDiff {
  std::string text;   // the unified diff, alike hunks after the first of each group left out
  size_t hunks = 0;   // in the diff
  size_t folded = 0;  // left out
  size_t added = 0;   // lines the whole diff adds and removes, folded or not
  size_t removed = 0;
  // One per group that folds, in diff order: its hunks and, for FX text,
  // where they fall (" in repeats 0-93 of 94 repeats of ...", else "").
  struct Group {
    size_t hunks = 0;
    std::string where;
  };
  std::vector<Group> groups;
  // Per hunk of the diff, in order: whether `text` leaves it out, and the
  // line it says after it ("x 94 alike hunks: ...", without the "@@ "; ""
  // for none). What the report's side-by-side tables fold by.
  std::vector<bool> hidden;
  std::vector<std::string> note_after;
};

// How many alike hunks fold in `diff`, `stages --changes` and the report's
// diff pages: three or more (two alike changes print as they are).
constexpr size_t kMinAlikeHunks = 3;

// `unified` is UnifiedDiff's text of `a` and `b` printed in `format`; groups
// of at least `min_alike` alike hunks fold.
FoldedDiff FoldAlikeHunks(std::string_view unified, const Graph& a, const Graph& b, std::string_view format,
                          size_t min_alike);

}  // namespace airscope

// A side-by-side line diff as an HTML table (the report's "what this pass
// changed" and "compare two stages"), from core/pass/graph_diff.h's line
// diff: removed lines on the left, added on the right, a removal and an
// addition in one run paired on one row; runs of equal lines beyond
// `context` lines from a change folded into one "N unchanged lines" row.
//
// Folding alike changes (`fold`): a pass that rewrites each of 94 layers the
// same way makes 94 hunks; the shell's `diff` prints one and a line saying
// where the rest are (repl/folded_diff.h). Given that folding, the table
// shows the same: the hunks it leaves out are not shown (they count in the
// fold rows around them) and each hunk's note ("x N alike hunks ...") is a
// row of class "alike" right after it.
//
// Contract: text is escaped; rows carry class "eq", "del", "ins", "mod",
// "fold" or "alike"; at most max_rows rows, then a row saying how many were
// left out.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace airscope {

// Which hunks of a diff are left out, and what is said after the ones kept:
// one entry per hunk of the diff without context lines, in order.
struct HunkFolding {
  std::vector<bool> hidden;
  std::vector<std::string> note_after;  // "" for none
};

struct SideBySideOptions {
  size_t context = 3;
  size_t max_rows = 4000;
  // Given the unified diff of the two texts without context lines
  // (UnifiedDiff(a, b, "a", "b", 0)), how `diff` folds its hunks; empty when
  // nothing folds. Called only when there are two hunks or more. A folding
  // with another number of hunks than the texts have is ignored (nothing is
  // half applied). Unset: every hunk is shown.
  std::function<HunkFolding(std::string_view unified)> fold = {};
};

struct SideBySide {
  std::string html;
  size_t hunks = 0;   // the changes, as hunks without context lines
  size_t folded = 0;  // of which not shown: alike to one shown
};

SideBySide SideBySideDiff(std::string_view a, std::string_view b, const SideBySideOptions& options = {});
std::string SideBySideDiffHtml(std::string_view a, std::string_view b, const SideBySideOptions& options = {});

}  // namespace airscope

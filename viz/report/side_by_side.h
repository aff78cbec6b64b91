// A side-by-side line diff as an HTML table (the report's "what this pass
// changed" and "compare two stages"), from core/pass/graph_diff.h's line
// diff: removed lines on the left, added on the right, a removal and an
// addition in one run paired on one row; runs of equal lines beyond
// `context` lines from a change folded into one "N unchanged lines" row.
//
// Contract: text is escaped; rows carry class "eq", "del", "ins", "mod" or
// "fold"; at most max_rows rows, then a row saying how many were left out.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace airscope {

struct SideBySideOptions {
  size_t context = 3;
  size_t max_rows = 4000;
};

std::string SideBySideDiffHtml(std::string_view a, std::string_view b, const SideBySideOptions& options = {});

}  // namespace airscope

#include "viz/report/side_by_side.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/pass/graph_diff.h"
#include "viz/report/report_html.h"

namespace airscope {
namespace {

constexpr size_t kNoHunk = static_cast<size_t>(-1);

struct Row {
  const char* kind;  // eq, del, ins, mod, fold, alike
  long a_line = -1;  // 0-based, -1 for none
  long b_line = -1;
  size_t hunk = kNoHunk;       // the change rows' hunk (a run of changed lines)
  size_t folded = 0;           // fold rows: how many lines
  size_t alike = 0;            // fold rows: how many hidden hunks among them
  std::string_view text = {};  // alike rows: what `diff` says
};

}  // namespace

SideBySide SideBySideDiff(std::string_view a, std::string_view b, const SideBySideOptions& options) {
  SideBySide result;
  std::vector<std::string_view> left = SplitLines(a), right = SplitLines(b);
  std::vector<LineEdit> edits = DiffLines(left, right);
  // Rows: equal lines as they are, each run of deletions and insertions
  // (a hunk, as a diff without context lines has them) paired up.
  std::vector<Row> rows;
  for (size_t i = 0; i < edits.size();) {
    if (edits[i].kind == LineEdit::Kind::kEqual) {
      rows.push_back({"eq", static_cast<long>(edits[i].a_line), static_cast<long>(edits[i].b_line)});
      ++i;
      continue;
    }
    std::vector<size_t> dels, inss;
    for (; i < edits.size() && edits[i].kind != LineEdit::Kind::kEqual; ++i) {
      (edits[i].kind == LineEdit::Kind::kDelete ? dels : inss)
          .push_back(edits[i].kind == LineEdit::Kind::kDelete ? edits[i].a_line : edits[i].b_line);
    }
    for (size_t k = 0; k < std::max(dels.size(), inss.size()); ++k) {
      bool d = k < dels.size(), n = k < inss.size();
      rows.push_back({d && n ? "mod"
                      : d    ? "del"
                             : "ins",
                      d ? static_cast<long>(dels[k]) : -1, n ? static_cast<long>(inss[k]) : -1, result.hunks});
    }
    ++result.hunks;
  }
  // The shell's folding of alike hunks, when there is something to fold.
  HunkFolding folding;
  if (options.fold && result.hunks >= 2) folding = options.fold(UnifiedDiff(a, b, "a", "b", 0));
  if (folding.hidden.size() != result.hunks || folding.note_after.size() != result.hunks) {
    folding.hidden.assign(result.hunks, false);
    folding.note_after.assign(result.hunks, "");
  }
  const std::vector<bool>& hidden = folding.hidden;
  result.folded = static_cast<size_t>(std::count(hidden.begin(), hidden.end(), true));
  auto shown_change = [&](const Row& row) { return row.hunk != kNoHunk && !hidden[row.hunk]; };
  // Fold rows further than `context` from any change shown.
  std::vector<bool> near(rows.size(), false);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (!shown_change(rows[i])) continue;
    size_t from = i >= options.context ? i - options.context : 0;
    size_t to = std::min(rows.size(), i + options.context + 1);
    for (size_t k = from; k < to; ++k) near[k] = true;
  }
  std::vector<Row> shown;
  for (size_t i = 0; i < rows.size();) {
    if (near[i]) {
      shown.push_back(rows[i]);
      // `diff`'s line about the hunks alike to this one, after its last row.
      size_t h = rows[i].hunk;
      if (h != kNoHunk && (i + 1 == rows.size() || rows[i + 1].hunk != h)) {
        if (!folding.note_after[h].empty()) shown.push_back({"alike", -1, -1, kNoHunk, 0, 0, folding.note_after[h]});
      }
      ++i;
      continue;
    }
    Row fold{"fold"};
    size_t last_hunk = kNoHunk;
    for (; i < rows.size() && !near[i]; ++i) {
      ++fold.folded;
      if (rows[i].hunk != kNoHunk && rows[i].hunk != last_hunk) {
        ++fold.alike;
        last_hunk = rows[i].hunk;
      }
    }
    shown.push_back(fold);
  }
  // Column widths come from a colgroup: with table-layout: fixed a first row
  // that folds (one cell across all four) would otherwise split them evenly.
  std::string html =
      "<table class=\"sbs\"><colgroup><col class=\"ln\"><col class=\"tx\"><col class=\"ln\"><col class=\"tx\">"
      "</colgroup><tbody>";
  auto cell = [&](long line, const std::vector<std::string_view>& text) {
    if (line < 0) return std::string("<td class=\"ln\"></td><td class=\"tx\"></td>");
    return fmt::format("<td class=\"ln\">{}</td><td class=\"tx\">{}</td>", line + 1,
                       HtmlEscape(text[static_cast<size_t>(line)]));
  };
  size_t written = 0;
  for (const Row& row : shown) {
    if (written == options.max_rows) {
      html +=
          fmt::format("<tr class=\"fold\"><td colspan=\"4\">{} more rows not shown</td></tr>", shown.size() - written);
      break;
    }
    ++written;
    std::string_view kind = row.kind;
    if (kind == "fold" && row.alike > 0) {
      html += fmt::format(
          "<tr class=\"fold\"><td colspan=\"4\">{} lines: {} change{} alike to one shown above, and the unchanged "
          "lines between them</td></tr>",
          row.folded, row.alike, row.alike == 1 ? "" : "s");
    } else if (kind == "fold") {
      html += fmt::format("<tr class=\"fold\"><td colspan=\"4\">{} unchanged line{}</td></tr>", row.folded,
                          row.folded == 1 ? "" : "s");
    } else if (kind == "alike") {
      html += fmt::format("<tr class=\"alike\"><td colspan=\"4\">{}</td></tr>", HtmlEscape(row.text));
    } else {
      html += fmt::format("<tr class=\"{}\">{}{}</tr>", row.kind, cell(row.a_line, left), cell(row.b_line, right));
    }
  }
  html += "</tbody></table>";
  result.html = std::move(html);
  return result;
}

std::string SideBySideDiffHtml(std::string_view a, std::string_view b, const SideBySideOptions& options) {
  return SideBySideDiff(a, b, options).html;
}

}  // namespace airscope

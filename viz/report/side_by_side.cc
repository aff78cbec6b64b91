#include "viz/report/side_by_side.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "core/pass/graph_diff.h"
#include "viz/report/report_html.h"

namespace airscope {
namespace {

struct Row {
  const char* kind;  // eq, del, ins, mod, fold
  long a_line = -1;  // 0-based, -1 for none
  long b_line = -1;
  size_t folded = 0;  // fold rows: how many equal lines
};

}  // namespace

std::string SideBySideDiffHtml(std::string_view a, std::string_view b, const SideBySideOptions& options) {
  std::vector<std::string_view> left = SplitLines(a), right = SplitLines(b);
  std::vector<LineEdit> edits = DiffLines(left, right);
  // Rows: equal lines as they are, each run of deletions and insertions paired up.
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
                      d ? static_cast<long>(dels[k]) : -1, n ? static_cast<long>(inss[k]) : -1});
    }
  }
  // Fold equal rows further than `context` from any change.
  std::vector<bool> near(rows.size(), false);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (std::string_view(rows[i].kind) == "eq") continue;
    size_t from = i >= options.context ? i - options.context : 0;
    size_t to = std::min(rows.size(), i + options.context + 1);
    for (size_t k = from; k < to; ++k) near[k] = true;
  }
  std::vector<Row> shown;
  for (size_t i = 0; i < rows.size();) {
    if (near[i]) {
      shown.push_back(rows[i++]);
      continue;
    }
    size_t run = 0;
    while (i + run < rows.size() && !near[i + run]) ++run;
    shown.push_back({"fold", -1, -1, run});
    i += run;
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
    if (std::string_view(row.kind) == "fold") {
      html += fmt::format("<tr class=\"fold\"><td colspan=\"4\">{} unchanged line{}</td></tr>", row.folded,
                          row.folded == 1 ? "" : "s");
      continue;
    }
    html += fmt::format("<tr class=\"{}\">{}{}</tr>", row.kind, cell(row.a_line, left), cell(row.b_line, right));
  }
  html += "</tbody></table>";
  return html;
}

}  // namespace airscope

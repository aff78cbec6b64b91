// WriteReport: a session as a folder of static HTML (`report DIR`), opened
// from file:// with nothing else: no server, no network, every asset inside.
//
//   index.html            graphs, logs with their compiles, the device, and
//                         the session's commands with their outputs
//   graph-G.html          one graph: its stages, compare any two, its cache
//   stage-G-N.html        stage N: what its pass changed (the nodes added,
//                         removed and changed, highlighted on the drawings;
//                         the FX text side by side), and the graph's FX text
//   compare-G-A-B.html    any two distinct graphs of one pipeline, the same way
//   log-K.html            a loaded log: compiles by id, guards, recompiles
//   device.html           the last run's timeline and memory as SVG, `mem`,
//                         `runstats`, and trace.json for Perfetto
//
//   `check`'s findings (ReportGraph::hazards) are marked on the drawings of
//   the graph it checks (viz/dot_writer.h) and listed, nodes linked as
//   PAGE#find=NODE, on its stage page and on device.html; the timeline
//   outlines the tasks ReportDevice::trace_marks names.
//   data/svg-KEY.js       the drawings (graphviz, as `dump svg`: dot, sfdp
//                         above 2,000 nodes): each distinct graph drawn once
//                         and shared by the pages showing it; a graph above
//                         max_drawn_nodes is not drawn whole, its stage pages
//                         draw the changed nodes with their inputs and users.
//                         Pages load drawings with <script>, which file://
//                         allows where fetch() is refused
//   fx-G-S.txt            the FX text of each distinct graph
//   assets/               the stylesheet and the page script (pan, zoom,
//                         search by node name, change highlighting)
//
//   airscope-report.json  the manifest: every file above, by path
//
// Contract (viz/report/report_publish.h): a report replaces only the files an
// earlier airscope report listed in its manifest. Into a new or empty DIR or
// over an earlier report, DIR is written whole or not at all (built in a
// fresh staging folder beside it and swapped in at the end); a DIR holding
// anything else is refused, naming those files, unless `force`. A symlinked
// DIR is followed; the working directory and its ancestors are refused.
// Layouts run in child processes, `render_jobs` at a time; Ctrl-C stops them
// (core/interrupt.h) and leaves DIR as it was.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "viz/dot_writer.h"
#include "viz/report/report_model.h"
#include "viz/report/side_by_side.h"

namespace airscope {

struct ReportOptions {
  // The drawings' options. By default they draw an input with one user as a
  // line of its user's label (dot_writer.h): the report is where a training
  // graph's hundreds of parameter inputs made a 13k px staircase. A pass that
  // changes such an input is marked on the page's lists, not on a node.
  DotOptions dot;
  size_t render_jobs = 2;
  // Distinct graphs of one pipeline compared pairwise (a compare page per
  // pair); beyond that, only consecutive ones.
  size_t max_compared = 16;
  size_t max_diff_rows = 4000;
  // A graph with more nodes is not drawn whole (a browser takes seconds to
  // open such a drawing, and it says little): a stage page draws up to
  // max_part_marked of the nodes its pass changed with their inputs and
  // users, max_part_nodes at most (few enough for dot's layered drawing).
  size_t max_drawn_nodes = 2000;
  size_t max_part_marked = 150;
  size_t max_part_nodes = 600;
  // A diff's earlier drawing is drawn at once up to this many nodes, else on demand.
  size_t max_eager_before_nodes = 300;
  int timeline_width = 1400;
  // Write into a DIR that holds files no earlier report listed (keeping them).
  bool force = false;
  // The FX text of a graph too big to draw whole with its repeated blocks
  // folded, as `show` prints it (the shell's repl/graph_folding.h); "" when
  // nothing folds. Empty: such graphs show no text inline (the file has it).
  std::function<std::string(const Graph&)> folded_fx;
  // `diff`'s folding of alike hunks, as the shell's repl/folded_diff.h does
  // it: given the unified diff without context lines of two graphs' FX text
  // (before -> after), which hunks are alike to an earlier one and left out,
  // and the line saying where they are (see HunkFolding); empty when nothing
  // folds. The stage and compare pages then show one hunk and that line for
  // a pass that rewrote 94 layers alike, as `diff` does. Unset: every change
  // is shown.
  std::function<HunkFolding(std::string_view unified, const Graph& before, const Graph& after)> fold_diff;
};

struct ReportSummary {
  std::string index;  // DIR/index.html
  size_t pages = 0;
  size_t drawings = 0;
  uint64_t bytes = 0;
  std::vector<std::string> notes;  // e.g. a drawing graphviz could not make
};

Result<ReportSummary> WriteReport(const ReportData& data, const std::string& dir, const ReportOptions& options = {});

}  // namespace airscope

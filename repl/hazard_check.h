// What `check` finds in the current graph (core/check/hazards.h), in one
// place for the command that prints it and the drawings that mark it
// (`dump dot|svg|png`, `show --format dot`, the report's pages).
//
// `check` reads the current graph's captured graph, else the capture dump it
// was loaded from, else its lowered graph (the pipeline run to `lower`,
// compiled afresh when it has not been run).
//
// A drawing marks those findings only when it draws the very graph `check`
// lowers, and only when that graph exists without compiling anything: the
// pipeline's last stage once it has run to its end, or a loaded graph that is
// already lowered (repl/compile.h IsLowered). An earlier stage has other
// nodes, streams and events (the input has no streams at all): marking
// findings of the lowered graph there by node name would point at nodes that
// do not race. Findings are matched to drawn nodes by name.
#pragma once

#include <string>
#include <vector>

#include "core/check/hazards.h"
#include "core/ir/graph.h"
#include "core/lower/task_graph.h"
#include "core/status.h"
#include "repl/session.h"
#include "viz/hazard_marks.h"

namespace airscope {

struct CheckedGraph {
  TaskGraph tasks;
  std::string capture_stream;
  std::string source;  // where the tasks come from, for the user
  bool dump = false;   // a capture dump: races and joins are not looked for
  std::vector<Hazard> hazards;
};

// `check [--stream S]` on the current graph: `stream` (may be null) names the
// capture stream.
Result<CheckedGraph> CheckCurrentGraph(Session& session, const std::string* stream);

// The marks a drawing of `drawn` (a graph of the current entry: its current
// graph or one of its stages) carries: check's findings when `drawn` is the
// graph check lowers and nothing needs compiling, else none. An error only
// when it is that graph and the check itself fails.
Result<std::vector<HazardMark>> HazardMarksForDrawing(Session& session, const Graph& drawn);

}  // namespace airscope

// DOT rendering of a Graph through graphviz's libcgraph (never by string
// concatenation), and SVG/PNG through libgvc.
//
// Node ids are the node names (stable, no pointers). Labels carry the name,
// the short target (`aten.mm.default`) and the shape (`f32[3, 3]`) where
// known. Nodes on a named stream sit in a `cluster_<stream>` subgraph labelled
// with the stream; data edges are solid; edges into/out of air.record /
// air.wait nodes (event dependencies) are dashed, and so is an edge, labelled
// with the tag, from each air.tagged_event_wait to the tagged_event_record it
// waits for (the latest record of its tag before it, as core/lower/
// task_graph.h binds them: the tag, not a data edge, ties the two).
//
// DotOptions::hazards (viz/hazard_marks.h, chosen by the caller) are drawn on
// top: each node a hazard names gets a red border, an xlabel saying what
// ("race with add") and a tooltip with `check`'s finding; the two nodes of a
// hazard are joined by a red edge labelled with its kind that does not move
// the layout (constraint=false). A hazard whose nodes are not in the drawing
// is listed in the graph's label (the first ten of them). Without hazards nothing of this is written:
// the drawing is byte for byte what it was. Output is deterministic.
//
// Graphs above `max_nodes_for_dot` nodes are laid out with `sfdp` instead of
// `dot` when rendering (dot takes minutes at 5k nodes); RenderGraph reports
// which engine it used.
#pragma once

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/child_process.h"
#include "core/ir/graph.h"
#include "core/status.h"
#include "viz/hazard_marks.h"

namespace airscope {

struct DotOptions {
  size_t max_nodes_for_dot = 2000;
  // Draw just the nodes of these names and the edges among them (the
  // report's drawing of what a pass changed in a big graph, `focus --draw`).
  std::shared_ptr<const std::unordered_set<std::string>> only_nodes;
  // Rendering only: lay out each connected component apart and pack them
  // into a block (graphviz's pack), not one row of many small drawings.
  bool pack_components = false;
  // Hazards to mark (see above); empty: none.
  std::vector<HazardMark> hazards;
};

// The DOT text of the graph (as libcgraph's agwrite writes it).
Result<std::string> GraphToDot(const Graph& graph, const DotOptions& options = {});

struct RenderInfo {
  std::string engine;  // "dot" or "sfdp"
  std::string note;    // e.g. "5000 nodes > 2000: laid out with sfdp"
};
// Renders to `format` ("svg" or "png"): the bytes, and how. The layout runs
// in a child process, so a Ctrl-C (core/interrupt.h) stops it.
struct Rendered {
  std::string data;
  RenderInfo info;
};
Result<Rendered> RenderGraphData(const Graph& graph, std::string_view format, const DotOptions& options = {});
// The same rendering as a work item for core/child_process.h, for callers
// that lay out several graphs at once (RunInChildProcesses). `graph` must
// outlive the work.
struct RenderJob {
  ChildWork work;
  RenderInfo info;
};
Result<RenderJob> RenderWork(const Graph& graph, std::string_view format, const DotOptions& options = {});
// The same, written to `path` (core/file_util.h WriteFile).
Result<RenderInfo> RenderGraph(const Graph& graph, std::string_view format, const std::string& path,
                               const DotOptions& options = {});

}  // namespace airscope

// DOT rendering of a Graph through graphviz's libcgraph (never by string
// concatenation), and SVG/PNG through libgvc.
//
// Node ids are the node names (stable, no pointers). Labels carry the name,
// the short target (`aten.mm.default`) and the shape (`f32[3, 3]`) where
// known. Nodes on a named stream sit in a `cluster_<stream>` subgraph labelled
// with the stream; data edges are solid; edges into/out of air.record /
// air.wait nodes (event dependencies) are dashed. Output is deterministic.
//
// Graphs above `max_nodes_for_dot` nodes are laid out with `sfdp` instead of
// `dot` when rendering (dot takes minutes at 5k nodes); RenderGraph reports
// which engine it used.
#pragma once

#include <string>

#include "core/ir/graph.h"
#include "core/status.h"

namespace airscope {

struct DotOptions {
  size_t max_nodes_for_dot = 2000;
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
// The same, written to `path` (core/file_util.h WriteFile).
Result<RenderInfo> RenderGraph(const Graph& graph, std::string_view format, const std::string& path,
                               const DotOptions& options = {});

}  // namespace airscope

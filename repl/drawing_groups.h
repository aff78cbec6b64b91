// The groups a folded or collapsed drawing draws as one node each
// (viz/dot_writer.h, NodeGroups): `dump --fold` keeps one repeat of each
// repeated block (and of the blocks inside it) and draws the repeats before
// and after it as a node each; `dump --by line|function|stream` draws each
// run of two or more nodes sharing a source line, function or stream
// (core/analysis/node_runs.h) as a node. The labels say what a node stands
// for: which repeats or which source, how many nodes, the first and last, and
// for repeats every way one differs from the drawn one.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/analysis/node_runs.h"
#include "core/ir/graph.h"
#include "repl/graph_folding.h"
#include "viz/dot_writer.h"

namespace airscope {

// The node ranges a folded view leaves out: per block (top level, and inside
// the shown repeat of a top block), the repeats before the shown one and the
// repeats after it, each one range. In position order.
struct FoldedRange {
  size_t begin = 0;  // graph positions [begin, end)
  size_t end = 0;
  std::string label;  // "repeats 1-93 of 94 (10,631 nodes each) ..." lines separated by '\n'
};
std::vector<FoldedRange> FoldedRanges(const Graph& graph, const FoldedGraph& folded);

std::shared_ptr<NodeGroups> FoldGroups(const Graph& graph, const std::vector<FoldedRange>& ranges);
// Runs of fewer than two nodes, and runs without a source (key ""), stay nodes.
std::shared_ptr<NodeGroups> RunGroups(const Graph& graph, const std::vector<NodeRun>& runs, RunKey key);

}  // namespace airscope

// Graph shrinking for `minify`: a copy of a graph that keeps only some of
// its nodes and stays a well-formed graph with the same shapes.
//
// Contract: the shrinkable nodes are every node but placeholders and the
// output. KeepOnly(graph, keep) copies the kept ones (same names, targets,
// args, streams, meta) and makes the rest disappear without breaking what
// remains:
//   - a removed node that a kept node reads becomes a placeholder of the same
//     name and meta (so shapes and dtypes survive, as torch's minifier turns
//     a cut value into an input);
//   - a kept getitem whose producer is removed becomes that placeholder
//     itself (a placeholder holding a tuple would not be a tensor input);
//   - a graph input nothing kept reads is dropped;
//   - the output returns every kept node that had no kept user (a graph
//     output before, or a value whose readers were removed) and has a value,
//     in graph order, so nothing kept is dead code for the pipeline.
// Placeholders come first, in graph order. The result lints when the input
// did. Cost: O(nodes of `graph`), whatever is kept.
#pragma once

#include <memory>
#include <vector>

#include "core/ir/graph.h"

namespace airscope {

std::vector<const Node*> ShrinkableNodes(const Graph& graph);

// `keep`: positions (Graph::PositionOf) of shrinkable nodes of `graph`.
std::unique_ptr<Graph> KeepOnly(const Graph& graph, const std::vector<uint32_t>& keep);

// Nodes that compute something: not placeholders, get_attr or the output (what
// `minify` reports as the size of a graph).
size_t ComputeNodeCount(const Graph& graph);

}  // namespace airscope

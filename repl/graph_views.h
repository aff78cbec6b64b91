// Text views of a graph used by several commands (node, find, stats, expect):
// kept here so that `expect` checks exactly what the user sees.
#pragma once

#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"
#include "repl/command_output.h"

namespace airscope {

// `f32[3, 3]`, `(f32[2, 16, 128], f32[2, 16, 1])`, `Sym(s0)`, or `?` when unknown.
std::string ValueString(const Node& node);
// "default" for the default stream.
std::string StreamString(const Node& node);
// Shell-style glob (`*`, `?`); a pattern without wildcards matches as a substring.
bool MatchesPattern(std::string_view pattern, std::string_view text);
// A node matches if its name, its target or its op-histogram key matches.
bool NodeMatches(const Node& node, std::string_view pattern);

// The node of that name, or an error naming the graph and the closest name
// ("did you mean"), else suggesting `find`.
Result<const Node*> FindNodeOrError(const Graph& graph, std::string_view name);

void DescribeNode(const Node& node, const OpRegistry& registry, CommandOutput& out);
void DescribeStats(const Graph& graph, const OpRegistry& registry, CommandOutput& out);

}  // namespace airscope

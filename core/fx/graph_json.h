// airscope JSON: the tool's own lossless graph format.
//
//   {"format": "airscope-graph", "version": 1, "name": "mlp",
//    "style": {"legacy_users": true, "module_class": "GraphModule"},
//    "nodes": [{"name": "x", "op": "placeholder", "target": "x", "args": [], "kwargs": [],
//               "stream": "", "meta": {...}}, ...]}
//
// Every Argument kind, NodeMeta (kind, source, tensors with symbolic dims,
// annotation, stack_trace), streams and the graph style survive a round trip:
// ParseGraphJson(PrintGraphJson(g)) is SameGraph with g. The encoding of each
// field is documented in the README ("airscope JSON").
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/ir/graph.h"
#include "core/status.h"

namespace airscope {

// Errors read "FILENAME:LINE:COL: message" for JSON syntax errors and
// "FILENAME: nodes[i] ('name'): message" for schema errors.
Result<std::unique_ptr<Graph>> ParseGraphJson(std::string_view text, std::string_view filename);
// Pretty-printed (2-space indent), keys in a fixed order, ends with a newline.
std::string PrintGraphJson(const Graph& graph);

// A target every writer can print and every reader read back: what torch can
// hold there. call_function and call_method name Python callables (dotted
// identifiers, non-ASCII letters allowed as in Python 3); call_module and
// get_attr are attribute paths, whose parts may also be numbers
// (layers.0.weight). The JSON reader refuses any other; other producers (a
// plugin's pass) are held to it when their graph is written as code.
Status CheckTarget(OpKind op, std::string_view target);

}  // namespace airscope

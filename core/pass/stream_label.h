// TorchAir's add_stream_label_to_node_meta (_utils/graph_utils.py:18-55): the
// user stream label every node runs under, read from the air.scope_enter /
// scope_exit markers in graph order. A scope_enter whose keys include
// "_user_stream_label" switches to its first value; other scopes keep the
// enclosing label; a scope_enter is labelled with the stream it opens, a
// scope_exit with the stream it closes. An unpaired scope_exit is tolerated
// (TorchAir's stack simply stays empty). "" is the default stream (None).
#pragma once

#include <string>
#include <unordered_map>

#include "core/ir/graph.h"

namespace airscope {

std::unordered_map<const Node*, std::string> StreamLabels(const Graph& graph);

}  // namespace airscope

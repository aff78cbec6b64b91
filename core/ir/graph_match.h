// MatchGraphs: is one graph another up to node names?
//
// Contract: `actual` matches `expected` when both hold the same sequence of
// nodes with the same op kinds and targets (`torch.ops.` written or not),
// the same args and kwargs (kwargs compared by name, in any order) where
// every node reference points at the node in the same position, and the
// same output. Node names, shape/stride annotations (meta) and streams are
// not compared: this is how a test states "TorchAir's pass gives this graph"
// when the names TorchAir's make_fx picked differ from ours. On mismatch
// `*why` names the first differing node of each graph and what differs, and
// `*at` is its index (node order; == the shorter size when one graph ends first).
#pragma once

#include <string>

#include "core/ir/graph.h"

namespace airscope {

bool MatchGraphs(const Graph& expected, const Graph& actual, std::string* why = nullptr, size_t* at = nullptr);

}  // namespace airscope

// CaptureCheck: what in a graph keeps it from being captured, found up front,
// the way Inductor says "skipping cudagraphs due to ...".
//
// Contract: reads the graph only. Each reason names the node and says what to
// change. Reasons: host syncs (aten._local_scalar_dense / .item()), CPU
// tensors (a value whose meta says device cpu), data-dependent shapes
// (symbolic dims made from unbacked symbols, `u0`, `u1`, ... in Dynamo's
// naming). An empty list means nothing found.
#pragma once

#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace airscope {

struct CaptureIssue {
  std::string node;
  std::string reason;  // "skipping cudagraphs due to ..."-style sentence
};

std::vector<CaptureIssue> CaptureCheck(const Graph& graph);

}  // namespace airscope

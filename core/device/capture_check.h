// CaptureCheck: what in a graph a capture does not refuse but does not keep
// either, noted up front by `capture check` beside the refusals of
// core/device/capture_rules.h (which it applies to the graph's tasks).
//
// Contract: reads the graph only. Each note names the node and says what a
// capture does with it: a value on the CPU (capture records only work issued
// on the captured streams, CANN aclmdlRICaptureBegin: host computation runs
// once, while capturing), a data-dependent size (symbolic dims made from
// unbacked symbols, `u0`, `u1`, ... in Dynamo's naming: a captured graph
// replays fixed sizes). An empty list means nothing to note.
#pragma once

#include <string>
#include <vector>

#include "core/ir/graph.h"

namespace airscope {

struct CaptureIssue {
  std::string node;
  std::string reason;
};

std::vector<CaptureIssue> CaptureCheck(const Graph& graph);

}  // namespace airscope

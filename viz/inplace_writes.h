// In-place writes as drawing edges (issue 33 item 3): `copy_(primals_3, x)`
// changes what a later `mul(primals_3, ...)` reads, yet no data edge joins
// the two. Each node that writes a buffer in place gets an edge to the next
// node, in program order, that reads that buffer through any alias.
//
// Which node writes which buffer is core/analysis/alias_analysis.h's
// StorageMap, as the reinplace passes see it: an op the registry marks
// `inplace` (copy_, add_, ...) writes its first argument's storage, an op
// with an `out=` tensor writes that tensor's. A reader is a later node with
// an input whose value lives in that storage (after views: the same
// storage). Nodes without tensor meta have no storage (as TorchAir's passes
// skip `get_node_storage(node) is None`): a graph without shapes gets no
// such edges. When the next reader already reads the writer's own value, the
// data edge between them says the order: no second edge. TorchAir's
// multi-output NPU in-place ops (inplaceable_npu_ops) are not the registry's
// `inplace` and are not drawn.
//
// Contract: pure, deterministic (writers in graph order). A graph with no
// in-place op costs one registry lookup per distinct target.
#pragma once

#include <vector>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"

namespace airscope {

struct InplaceWrite {
  const Node* writer = nullptr;
  const Node* reader = nullptr;  // the next node that reads the written buffer
};

std::vector<InplaceWrite> InplaceWriteEdges(const Graph& graph, const OpRegistry& registry);

}  // namespace airscope

// Which storage a node's tensor lives in, the way Inductor's
// get_node_storage (torch/_inductor/fx_utils.py) reads it from each node's
// meta["val"]: two nodes alias when their values share one untyped storage.
//
// airscope has no storages, so it derives them from the graph: a placeholder
// owns its storage; a view op (the registry's kView category, plus
// aten.view.dtype) and an in-place op (which returns its first argument)
// live in the storage of their first argument; a getitem of a view op (split)
// lives in that op's storage; every other call makes a fresh storage. A node
// whose meta is not one tensor has no storage (nullptr), as in Inductor.
//
// Contract: computed once over the graph as it is; later edits do not update
// the map (Inductor's metas are not updated either while remove_noop_ops runs).
#pragma once

#include <unordered_map>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"

namespace airscope {

using StorageMap = std::unordered_map<const Node*, const Node*>;

// node -> the node whose storage it uses (itself when it owns one).
StorageMap ComputeStorages(const Graph& graph, const OpRegistry& registry);

// The storage of `node` in `storages`, nullptr when it has none.
const Node* StorageIn(const StorageMap& storages, const Node* node);

}  // namespace airscope

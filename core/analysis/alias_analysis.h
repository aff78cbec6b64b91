// StorageMap: which storage each node's value lives in, as TorchAir's
// reinplace passes read it from FakeTensors (PT-ri `StorageWeakRef(
// fake_result._typed_storage())`, au `get_node_storage(node)`), derived here
// from the graph instead of from fake execution:
//   - a placeholder or get_attr with a tensor value owns a storage;
//   - a view op (registry category kView) shares its args[0]'s storage, and a
//     getitem of a multi-output view (split, unbind) its base's;
//   - an in-place op (registry `inplace`, e.g. copy_, add_) shares args[0]'s,
//     an op with an `out=` tensor kwarg shares that tensor's;
//   - any other node with a tensor value owns a fresh storage (a getitem of a
//     tuple-valued op one per index).
// Nodes without tensor meta have no storage (-1): the passes treat them as
// TorchAir treats `get_node_storage(node) is None` or skip them.
//
// Merge() unions two storages (PT-ri Step 4 after `b = foo_(a)`). Positions
// are the graph order at Compute() time (PT-ri's node_idx).
#pragma once

#include <cstddef>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/node_slot_map.h"
#include "core/ops/op_registry.h"

namespace airscope {

class StorageMap {
 public:
  static StorageMap Compute(const Graph& graph, const OpRegistry& registry);

  // The storage of `node`'s value; -1 for none (after merges: the representative).
  int Of(const Node* node) const;
  // Every node whose value lives in `storage` (after merges), in graph order.
  std::vector<Node*> NodesOf(int storage) const;
  // PT-ri's meta["view_of"]: the base a single-output view (or a getitem of a
  // multi-output view) was taken of; nullptr for other nodes.
  Node* ViewOf(const Node* node) const;
  // Every node's index in graph order at Compute() time (PT-ri's node_idx);
  // nodes inserted since are absent.
  const NodeSlotMap<size_t>& positions() const { return position_; }
  void Merge(int a, int b);
  // Storages are numbered 0..storage_count()-1 (merged ones keep their number).
  size_t storage_count() const { return parent_.size(); }

 private:
  int Find(int storage) const;
  int Fresh();
  NodeSlotMap<int> storage_;
  NodeSlotMap<Node*> view_of_;
  std::vector<std::vector<Node*>> members_;  // storage -> nodes (after merges: at the representative)
  NodeSlotMap<size_t> position_;
  mutable std::vector<int> parent_;
};

// A view op by the registry (category kView) or aten.view.dtype, not operator.getitem.
bool IsViewOp(const Node& node, const OpRegistry& registry);

}  // namespace airscope

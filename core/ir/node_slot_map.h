// NodeSlotMap<V>: a side table for the nodes of one graph, indexed by
// Graph::SlotOf. A lookup is a binary search over the graph's few node
// blocks and one read of an array laid out like the nodes themselves, so a
// pass walking the graph in order walks the table in order too. FlatNodeMap
// hashes the pointer instead: on a 1M-node graph its table is twice the
// graph's size and every lookup a cache miss (StorageMap's lookups were a
// fifth of reinplace's time there).
//
// Keys are nodes of the graph the map was made for (erased ones included);
// a node of another graph is never found, and setting one throws
// std::invalid_argument. A node made after the map is absent until set.
// ForEach goes in slot order: deterministic, and graph order for a graph
// that was loaded or cloned and has had nothing inserted since.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "core/ir/graph.h"

namespace airscope {

template <typename V>
class NodeSlotMap {
 public:
  NodeSlotMap() = default;
  // Room for every node `graph` has made so far.
  explicit NodeSlotMap(const Graph& graph) : graph_(&graph), slots_(graph.slot_count()) {}

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  V* Find(const Node* node) {
    if (graph_ == nullptr || node == nullptr) return nullptr;
    uint32_t slot = graph_->SlotOf(node);
    if (slot >= slots_.size() || slots_[slot].key != node) return nullptr;
    return &slots_[slot].value;
  }
  const V* Find(const Node* node) const { return const_cast<NodeSlotMap*>(this)->Find(node); }
  bool Contains(const Node* node) const { return Find(node) != nullptr; }

  // The value of `node`; throws std::out_of_range like std::map::at.
  const V& At(const Node* node) const {
    const V* value = Find(node);
    if (value == nullptr) throw std::out_of_range("NodeSlotMap::At: node not in the map");
    return *value;
  }

  // The value of `node`, default-constructed first if absent.
  V& operator[](const Node* node) {
    uint32_t slot = graph_ ? graph_->SlotOf(node) : Graph::kNoSlot;
    if (slot == Graph::kNoSlot) throw std::invalid_argument("NodeSlotMap: the node is not of the map's graph");
    if (slot >= slots_.size()) slots_.resize(std::max<size_t>(slot + 1, slots_.size() + slots_.size() / 2));
    Slot& entry = slots_[slot];
    if (entry.key == nullptr) {
      entry.key = node;
      ++size_;
    }
    return entry.value;
  }

  // Calls fn(const Node*, V&) for every entry, in slot order.
  template <typename Fn>
  void ForEach(Fn&& fn) {
    for (Slot& slot : slots_) {
      if (slot.key != nullptr) fn(slot.key, slot.value);
    }
  }
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    for (const Slot& slot : slots_) {
      if (slot.key != nullptr) fn(slot.key, slot.value);
    }
  }

 private:
  struct Slot {
    const Node* key = nullptr;
    V value{};
  };
  const Graph* graph_ = nullptr;
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace airscope

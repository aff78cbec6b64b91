// NodeNameTable: a graph's index from node name to Node*, as one flat array.
//
// Contract: holds at most one node per name; the key of an entry is the
// node's own name (Node::name()), so a node must be erased from the table
// before its name changes. Find/Insert/Erase are O(1) expected; nothing is
// allocated per entry.
//
// Why not std::unordered_map: loading a 1M-node graph spent a fifth of its
// time there (one heap node per entry, a pointer chase per probe, rehashes
// of a table never sized up front) and 56 bytes a node. Here a slot is one
// 64-bit word: the node pointer in the low 48 bits (user-space addresses on
// x86-64 and AArch64 fit) and 16 bits of the name's hash above it, so a
// probe compares names only when those bits agree. Linear probing at a load
// of at most 1/2, and backward-shift deletion, so there are no tombstones.
// The slots are a LargeBuffer: a big table is in huge pages, zeroed by the
// kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "core/large_buffer.h"

namespace airscope {

class Node;

class NodeNameTable {
 public:
  NodeNameTable() = default;
  NodeNameTable(const NodeNameTable&) = delete;
  NodeNameTable& operator=(const NodeNameTable&) = delete;
  // A moved-from table is empty.
  NodeNameTable(NodeNameTable&& other) noexcept
      : storage_(std::move(other.storage_)),
        capacity_(std::exchange(other.capacity_, 0)),
        size_(std::exchange(other.size_, 0)) {}
  NodeNameTable& operator=(NodeNameTable&& other) noexcept {
    storage_ = std::move(other.storage_);
    capacity_ = std::exchange(other.capacity_, 0);
    size_ = std::exchange(other.size_, 0);
    return *this;
  }

  size_t size() const { return size_; }
  // Makes room for `count` entries without rehashing on the way.
  void Reserve(size_t count);
  void Clear();

  Node* Find(std::string_view name) const;
  // A hint that `name` will be looked up or inserted soon: starts loading
  // its home slot, so the cache miss (the table of a big graph is megabytes,
  // probed at random) overlaps with the caller's work.
  void Prefetch(std::string_view name) const;
  // Adds `node` under its name; false (and nothing changes) if the name is taken.
  bool Insert(Node* node);
  // Removes `node`, found under its current name. A node not in the table is ignored.
  void Erase(const Node* node);

  // Calls fn(Node*) for every entry, in no particular order.
  template <typename Fn>
  void ForEach(Fn&& fn) const {
    const uint64_t* slots = Slots();
    for (size_t i = 0; i < capacity_; ++i) {
      if (slots[i]) fn(NodeOf(slots[i]));
    }
  }

 private:
  static constexpr uint64_t kPointerMask = (uint64_t{1} << 48) - 1;
  static uint64_t HashOf(std::string_view name);
  // A slot packs a hash tag above the pointer's 48 bits: the pointer comes
  // back from an integer by design (one 8-byte slot per node, no second array).
  static Node* NodeOf(uint64_t slot) {
    return reinterpret_cast<Node*>(slot & kPointerMask);  // NOLINT(performance-no-int-to-ptr)
  }
  static uint16_t TagOf(uint64_t hash) { return static_cast<uint16_t>(hash >> 48); }
  // The slot holding `name`, or the empty slot where it would go.
  size_t Probe(std::string_view name, uint64_t hash) const;
  void Grow(size_t min_slots);

  uint64_t* Slots() const { return static_cast<uint64_t*>(storage_.data()); }

  LargeBuffer storage_;  // capacity_ slots; a slot of 0 is empty
  size_t capacity_ = 0;  // a power of two, or 0
  size_t size_ = 0;
};

}  // namespace airscope

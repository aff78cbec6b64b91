// FlatPointerMap<K, V>: a map from pointers to small values, for side
// tables keyed by pointers with no dense number of their own (facts per
// interned op name, a users list's index). FlatNodeMap<V> is the one keyed
// by nodes; a table of one graph's nodes is better a NodeSlotMap
// (node_slot_map.h), which reads in the nodes' own order.
//
// Open addressing with linear probing over one array of {key, value} slots,
// so a lookup is a multiply, a shift and usually one cache line, where
// std::unordered_map chases a bucket pointer to a heap-allocated node (and a
// table of 100k entries costs 100k mallocs). The capacity is a power of two
// kept at most 7/8 full. Entries are never removed: the tables it serves
// live for one pass. Iteration order is unspecified (by slot), so nothing
// deterministic may depend on it.
#pragma once

#include <bit>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <utility>
#include <vector>

namespace airscope {

class Node;

template <typename K, typename V>
class FlatPointerMap {
 public:
  FlatPointerMap() = default;
  explicit FlatPointerMap(size_t expected) { Reserve(expected); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  // Room for `count` entries without growing.
  void Reserve(size_t count) {
    size_t want = std::bit_ceil(count + count / 7 + 8);
    if (want > slots_.size()) Rehash(want);
  }

  V* Find(const K* key) {
    if (slots_.empty() || key == nullptr) return nullptr;
    for (size_t i = Home(key);; i = (i + 1) & mask_) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (slots_[i].key == nullptr) return nullptr;
    }
  }
  const V* Find(const K* key) const { return const_cast<FlatPointerMap*>(this)->Find(key); }
  bool Contains(const K* key) const { return Find(key) != nullptr; }

  // The value of `key`; throws std::out_of_range like std::map::at (a pass
  // that asks for a node it never saw is a bug the pass manager reports).
  const V& At(const K* key) const {
    const V* value = Find(key);
    if (value == nullptr) throw std::out_of_range("FlatPointerMap::At: key not in the map");
    return *value;
  }

  // The value of `key`, default-constructed first if absent. `key` must not be null.
  V& operator[](const K* key) {
    if ((size_ + 1) * 8 > slots_.size() * 7) Rehash(std::max<size_t>(16, slots_.size() * 2));
    size_t i = Home(key);
    while (slots_[i].key != nullptr && slots_[i].key != key) i = (i + 1) & mask_;
    if (slots_[i].key == nullptr) {
      slots_[i].key = key;
      ++size_;
    }
    return slots_[i].value;
  }

  // Calls fn(const K*, V&) for every entry, in slot order.
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
    const K* key = nullptr;
    V value{};
  };

  size_t Home(const K* key) const {
    // MurmurHash3's 64-bit finalizer, then the top bits. Nodes sit in arrays
    // at a fixed stride, and a bare Fibonacci multiply maps some strides to
    // nearly the same slot: at 144 bytes (sizeof(Node)) consecutive nodes
    // landed a few slots apart and inserts probed 13 slots on average (0.4
    // with the finalizer; measured on a 30k-node graph and its clone).
    uint64_t bits = reinterpret_cast<uintptr_t>(key);
    bits ^= bits >> 33;
    bits *= 0xff51afd7ed558ccdull;
    bits ^= bits >> 33;
    bits *= 0xc4ceb9fe1a85ec53ull;
    bits ^= bits >> 33;
    return static_cast<size_t>(bits >> shift_);
  }

  void Rehash(size_t capacity) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(capacity, Slot{});
    mask_ = capacity - 1;
    shift_ = 64 - std::countr_zero(capacity);
    size_ = 0;
    for (Slot& slot : old) {
      if (slot.key != nullptr) (*this)[slot.key] = std::move(slot.value);
    }
  }

  std::vector<Slot> slots_;
  size_t mask_ = 0;
  int shift_ = 64;
  size_t size_ = 0;
};

template <typename V>
using FlatNodeMap = FlatPointerMap<Node, V>;

}  // namespace airscope

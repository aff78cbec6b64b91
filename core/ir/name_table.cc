#include "core/ir/name_table.h"

#include <cstdlib>
#include <cstring>
#include <functional>

#include "core/ir/node.h"

namespace airscope {

uint64_t NodeNameTable::HashOf(std::string_view name) {
  // libstdc++'s string hash is a good 64-bit hash; both the low bits (the
  // slot) and the high 16 (the tag) are used.
  return std::hash<std::string_view>{}(name);
}

size_t NodeNameTable::Probe(std::string_view name, uint64_t hash) const {
  const uint64_t* slots = Slots();
  size_t mask = capacity_ - 1;
  uint16_t tag = TagOf(hash);
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    uint64_t slot = slots[i];
    if (slot == 0) return i;
    if (static_cast<uint16_t>(slot >> 48) == tag && NodeOf(slot)->name() == name) return i;
  }
}

Node* NodeNameTable::Find(std::string_view name) const {
  if (size_ == 0) return nullptr;
  uint64_t slot = Slots()[Probe(name, HashOf(name))];
  return slot ? NodeOf(slot) : nullptr;
}

void NodeNameTable::Prefetch(std::string_view name) const {
  if (capacity_ > 0) __builtin_prefetch(Slots() + (HashOf(name) & (capacity_ - 1)));
}

void NodeNameTable::Reserve(size_t count) {
  if (count * 2 > capacity_) Grow(count * 2);
}

void NodeNameTable::Clear() {
  storage_ = LargeBuffer();
  capacity_ = 0;
  size_ = 0;
}

void NodeNameTable::Grow(size_t min_slots) {
  size_t capacity = 16;
  while (capacity < min_slots) capacity *= 2;
  LargeBuffer old = std::move(storage_);
  size_t old_capacity = std::exchange(capacity_, capacity);
  storage_ = LargeBuffer(capacity * sizeof(uint64_t));  // zero-filled: all empty
  uint64_t* slots = Slots();
  size_t mask = capacity - 1;
  const auto* old_slots = static_cast<const uint64_t*>(old.data());
  for (size_t k = 0; k < old_capacity; ++k) {
    uint64_t slot = old_slots[k];
    if (!slot) continue;
    size_t i = HashOf(NodeOf(slot)->name()) & mask;
    while (slots[i]) i = (i + 1) & mask;
    slots[i] = slot;
  }
}

bool NodeNameTable::Insert(Node* node) {
  auto address = reinterpret_cast<uint64_t>(node);
  if (address & ~kPointerMask) {
    // Not reachable on x86-64 or AArch64 Linux, whose user addresses fit in
    // 48 bits unless a program asks for more; fail loudly rather than corrupt.
    std::abort();
  }
  if ((size_ + 1) * 2 > capacity_) Grow((size_ + 1) * 2);
  uint64_t hash = HashOf(node->name());
  size_t i = Probe(node->name(), hash);
  uint64_t* slots = Slots();
  if (slots[i]) return false;
  slots[i] = address | (uint64_t{TagOf(hash)} << 48);
  ++size_;
  return true;
}

void NodeNameTable::Erase(const Node* node) {
  if (size_ == 0) return;
  uint64_t* slots = Slots();
  size_t i = Probe(node->name(), HashOf(node->name()));
  if (slots[i] == 0 || NodeOf(slots[i]) != node) return;
  // Backward-shift deletion: pull later entries of the run into the hole
  // when their home slot is at or before it, so probes never stop early.
  size_t mask = capacity_ - 1;
  size_t hole = i;
  for (size_t j = (hole + 1) & mask; slots[j]; j = (j + 1) & mask) {
    size_t home = HashOf(NodeOf(slots[j])->name()) & mask;
    // Is `home` cyclically outside (hole, j]? Then the entry may move to the hole.
    bool movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
    if (movable) {
      slots[hole] = slots[j];
      hole = j;
    }
  }
  slots[hole] = 0;
  --size_;
}

}  // namespace airscope

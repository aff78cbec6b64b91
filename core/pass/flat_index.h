// FlatIndex: a 64-bit key -> 32-bit value map with open addressing, for the
// effect check's per-node tables (node pointers, (value, path) pairs), where
// std::unordered_map's allocation per entry cost more than the work itself.
// Keys are any 64-bit value except ~0 (the empty marker). Never shrinks.
#pragma once

#include <cstdint>
#include <vector>

namespace airscope {

class FlatIndex {
 public:
  explicit FlatIndex(size_t expected = 16) {
    size_t capacity = 16;
    while (capacity < expected * 2) capacity *= 2;
    slots_.assign(capacity, Slot{kEmpty, 0});
  }
  // nullptr when absent.
  const uint32_t* Find(uint64_t key) const {
    size_t mask = slots_.size() - 1;
    for (size_t i = Hash(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i].key == key) return &slots_[i].value;
      if (slots_[i].key == kEmpty) return nullptr;
    }
  }
  void Set(uint64_t key, uint32_t value) {
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    size_t mask = slots_.size() - 1;
    for (size_t i = Hash(key) & mask;; i = (i + 1) & mask) {
      if (slots_[i].key == key) {
        slots_[i].value = value;
        return;
      }
      if (slots_[i].key == kEmpty) {
        slots_[i] = {key, value};
        ++size_;
        return;
      }
    }
  }

 private:
  static constexpr uint64_t kEmpty = ~uint64_t{0};
  struct Slot {
    uint64_t key;
    uint32_t value;
  };
  static uint64_t Hash(uint64_t key) {
    key ^= key >> 33;
    key *= 0xff51afd7ed558ccdull;
    key ^= key >> 33;
    return key;
  }
  void Grow() {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.size() * 2, Slot{kEmpty, 0});
    size_ = 0;
    for (const Slot& slot : old) {
      if (slot.key != kEmpty) Set(slot.key, slot.value);
    }
  }
  std::vector<Slot> slots_;
  size_t size_ = 0;
};

}  // namespace airscope

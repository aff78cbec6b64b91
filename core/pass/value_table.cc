#include "core/pass/value_table.h"

#include <algorithm>

namespace airscope {
namespace {

uint64_t HashWords(std::span<const uint32_t> words) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ words.size();
  for (uint32_t w : words) {
    h ^= w;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  return h;
}

}  // namespace

ValueTable::ValueTable() : starts_{0}, slots_(1024, 0) {}

ValueId ValueTable::Intern(std::span<const uint32_t> words) {
  uint64_t hash = HashWords(words);
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    uint32_t slot = slots_[i];
    if (slot == 0) break;
    ValueId id = slot - 1;
    if (hashes_[id] == hash) {
      std::span<const uint32_t> have = Words(id);
      if (std::equal(have.begin(), have.end(), words.begin(), words.end())) return id;
    }
  }
  auto id = static_cast<ValueId>(size());
  words_.insert(words_.end(), words.begin(), words.end());
  starts_.push_back(static_cast<uint32_t>(words_.size()));
  hashes_.push_back(hash);
  if (hashes_.size() * 2 > slots_.size()) {
    Grow(slots_.size() * 2);
  } else {
    for (size_t i = hash & mask;; i = (i + 1) & mask) {
      if (slots_[i] == 0) {
        slots_[i] = id + 1;
        break;
      }
    }
  }
  return id;
}

void ValueTable::Grow(size_t slots) {
  slots_.assign(slots, 0);
  size_t mask = slots_.size() - 1;
  for (ValueId id = 0; id < hashes_.size(); ++id) {
    for (size_t i = hashes_[id] & mask;; i = (i + 1) & mask) {
      if (slots_[i] == 0) {
        slots_[i] = id + 1;
        break;
      }
    }
  }
}

void ValueTable::Reserve(size_t values, size_t words) {
  // Only a fresh table reserves its arrays: a shared one already grew for
  // the graph before, and reserving more each time would copy them each time.
  if (hashes_.empty()) {
    words_.reserve(words);
    starts_.reserve(values + 1);
    hashes_.reserve(values);
  }
  size_t slots = slots_.size();
  while ((hashes_.size() + values) * 2 > slots) slots *= 2;
  if (slots != slots_.size()) Grow(slots);
}

uint32_t ValueTable::Symbol(std::string_view text) {
  auto it = symbols_.find(text);
  if (it != symbols_.end()) return it->second;
  auto symbol = static_cast<uint32_t>(symbol_texts_.size());
  auto inserted = symbols_.emplace(std::string(text), symbol).first;
  symbol_texts_.push_back(&inserted->first);
  return symbol;
}

}  // namespace airscope

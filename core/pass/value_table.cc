#include "core/pass/value_table.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace airscope {
namespace {

// The high half of a hash of the words: it picks the slot and tells most
// different values apart without reading their words.
uint32_t TagOf(std::span<const uint32_t> words) {
  uint64_t h = 0x9e3779b97f4a7c15ull ^ words.size();
  for (uint32_t w : words) {
    h ^= w;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 32;
  }
  return static_cast<uint32_t>(h >> 32);
}

constexpr uint32_t TagOfEntry(uint64_t entry) { return static_cast<uint32_t>(entry >> 32); }
constexpr uint32_t RecordOfEntry(uint64_t entry) { return static_cast<uint32_t>(entry) - 1; }

}  // namespace

ValueTable::ValueTable() : slots_(1024, 0) {}

ValueId ValueTable::Intern(std::span<const uint32_t> words) {
  uint32_t tag = TagOf(words);
  size_t mask = slots_.size() - 1;
  for (size_t i = tag & mask;; i = (i + 1) & mask) {
    uint64_t entry = slots_[i];
    if (entry == 0) break;
    if (TagOfEntry(entry) != tag) continue;
    const uint32_t* record = words_.data() + RecordOfEntry(entry);  // [id, length, words...]
    if (record[1] == words.size() && std::equal(words.begin(), words.end(), record + 2)) return record[0];
  }
  if (words_.size() + words.size() + 2 >= std::numeric_limits<uint32_t>::max()) {
    throw std::length_error("ValueTable: more than 2^32 words");  // offsets are 32-bit
  }
  auto id = static_cast<ValueId>(size());
  auto record = static_cast<uint32_t>(words_.size());
  words_.push_back(id);
  words_.push_back(static_cast<uint32_t>(words.size()));
  words_.insert(words_.end(), words.begin(), words.end());
  starts_.push_back(record + 2);
  Place((uint64_t{tag} << 32) | (uint64_t{record} + 1));
  if (size() * 2 > slots_.size()) Grow(slots_.size() * 2);
  return id;
}

void ValueTable::Place(uint64_t entry) {
  size_t mask = slots_.size() - 1;
  for (size_t i = TagOfEntry(entry) & mask;; i = (i + 1) & mask) {
    if (slots_[i] == 0) {
      slots_[i] = entry;
      return;
    }
  }
}

void ValueTable::Grow(size_t slots) {
  std::vector<uint64_t> old(slots, 0);
  old.swap(slots_);
  for (uint64_t entry : old) {
    if (entry != 0) Place(entry);
  }
}

void ValueTable::Reserve(size_t values, size_t words) {
  // Only a fresh table reserves its arrays: a shared one already grew for
  // the graph before, and reserving more each time would copy them each time.
  if (size() == 0) {
    words_.reserve(words + 2 * values);
    starts_.reserve(values);
  }
  size_t slots = slots_.size();
  while ((size() + values) * 2 > slots) slots *= 2;
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

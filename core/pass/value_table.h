// ValueTable: hash-consing of symbolic values for the effect check
// (core/pass/effect_check.h). A value is a short sequence of 32-bit words
// (its kind, then operands: symbols and the ids of other values); interning
// the same words twice gives the same id, so two values are equal exactly
// when their ids are equal (no hashing shortcut, no collisions).
//
// A table only grows. Summaries of successive graphs share one table, so the
// values of the graph before a pass and after it are comparable by id, and
// the after-graph mostly finds its values already interned.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/text.h"  // TextHash

namespace airscope {

using ValueId = uint32_t;

class ValueTable {
 public:
  ValueTable();

  // The id of the value spelled by `words` (interned on first sight).
  ValueId Intern(std::span<const uint32_t> words);
  std::span<const uint32_t> Words(ValueId id) const { return {words_.data() + starts_[id], words_[starts_[id] - 1]}; }
  size_t size() const { return starts_.size(); }
  // The words of every value together: the table's memory (what a test
  // bounds to see a summary's space grow linearly with the graph).
  size_t words() const { return words_.size(); }
  // Makes room for about `values` more values of `words` words in all.
  void Reserve(size_t values, size_t words);

  // A string's symbol number (op names, input names, string constants).
  uint32_t Symbol(std::string_view text);
  const std::string& SymbolText(uint32_t symbol) const { return *symbol_texts_[symbol]; }

 private:
  void Grow(size_t slots);     // re-places the entries into `slots` (a power of two)
  void Place(uint64_t entry);  // into the first empty slot from its tag's

  // Every value as a record [id, length, words...], back to back, so a probe
  // that finds its tag reads the value's id and words from one place (with
  // the id in a separate array, a hit cost a third cache miss).
  std::vector<uint32_t> words_;
  std::vector<uint32_t> starts_;  // value id -> offset of its words in words_
  // Open addressing: (tag << 32) | (offset of the record + 1), or 0 for
  // empty, where the tag is the high half of the words' hash and picks the
  // slot. A probe reads the record only when the tags match, and growing
  // needs no hashing: most lookups are hits (a summary after a pass finds
  // the values of the one before), and each array read on the way was a
  // cache miss.
  std::vector<uint64_t> slots_;
  std::unordered_map<std::string, uint32_t, TextHash, std::equal_to<>> symbols_;
  std::vector<const std::string*> symbol_texts_;
};

}  // namespace airscope

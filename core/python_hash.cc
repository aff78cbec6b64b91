#include "core/python_hash.h"

#include <cstddef>
#include <optional>

namespace airscope {

int64_t PythonIntHash(int64_t value) {
  // Python/pyhash.c: _PyHASH_MODULUS = 2**61 - 1 on 64-bit builds; -1 is reserved.
  constexpr int64_t kModulus = (int64_t{1} << 61) - 1;
  int64_t h = value >= 0 ? value % kModulus : -((-value) % kModulus);
  return h == -1 ? -2 : h;
}

int64_t PythonTupleHash(std::span<const int64_t> items) {
  // CPython's tuplehash (Objects/tupleobject.c, 3.8+), 64-bit constants.
  constexpr uint64_t kPrime1 = 11400714785074694791ULL;
  constexpr uint64_t kPrime2 = 14029467366897019727ULL;
  constexpr uint64_t kPrime5 = 2870177450012600261ULL;
  uint64_t acc = kPrime5;
  for (int64_t item : items) {
    uint64_t lane = static_cast<uint64_t>(PythonIntHash(item));
    acc += lane * kPrime2;
    acc = (acc << 31) | (acc >> 33);
    acc *= kPrime1;
  }
  acc += static_cast<uint64_t>(items.size()) ^ (kPrime5 ^ 3527539ULL);
  if (acc == static_cast<uint64_t>(-1)) return 1546275796;
  return static_cast<int64_t>(acc);
}

namespace {

constexpr size_t kLinearProbes = 9;  // setobject.c LINEAR_PROBES
constexpr int kPerturbShift = 5;     // PERTURB_SHIFT
constexpr size_t kMinSize = 8;       // PySet_MINSIZE

struct SetEntry {
  size_t item = 0;  // index into the input
  uint64_t hash = 0;
};
using Table = std::vector<std::optional<SetEntry>>;

// set_insert_clean: into a table without dummies, the key known absent.
void InsertClean(Table& table, SetEntry slot) {
  size_t mask = table.size() - 1;
  uint64_t perturb = slot.hash;
  size_t i = static_cast<size_t>(slot.hash) & mask;
  while (true) {
    if (!table[i]) {
      table[i] = slot;
      return;
    }
    if (i + kLinearProbes <= mask) {
      for (size_t j = 1; j <= kLinearProbes; ++j) {
        if (!table[i + j]) {
          table[i + j] = slot;
          return;
        }
      }
    }
    perturb >>= kPerturbShift;
    i = (i * 5 + 1 + static_cast<size_t>(perturb)) & mask;
  }
}

}  // namespace

std::vector<std::vector<int64_t>> PythonSetOrder(const std::vector<std::vector<int64_t>>& items) {
  Table table(kMinSize);
  size_t fill = 0;
  for (size_t k = 0; k < items.size(); ++k) {
    SetEntry slot{k, static_cast<uint64_t>(PythonTupleHash(items[k]))};
    // set_add_entry: probe runs of LINEAR_PROBES + 1 slots, then jump.
    size_t mask = table.size() - 1;
    uint64_t perturb = slot.hash;
    size_t i = static_cast<size_t>(slot.hash) & mask;
    bool added = false, found = false;
    while (!added && !found) {
      size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
      for (size_t j = 0; j <= probes; ++j) {
        std::optional<SetEntry>& entry = table[i + j];
        if (!entry) {
          entry = slot;
          added = true;
          break;
        }
        if (entry->hash == slot.hash && items[entry->item] == items[k]) {
          found = true;
          break;
        }
      }
      perturb >>= kPerturbShift;
      i = (i * 5 + 1 + static_cast<size_t>(perturb)) & mask;
    }
    if (!added) continue;
    ++fill;  // no deletions here, so fill == used
    if (fill * 5 < mask * 3) continue;
    // set_table_resize(so, used > 50000 ? used*2 : used*4): the smallest
    // power of two above it, entries moved over in table order.
    size_t min_used = fill > 50000 ? fill * 2 : fill * 4;
    size_t size = kMinSize;
    while (size <= min_used) size <<= 1;
    Table old = std::move(table);
    table.assign(size, std::nullopt);
    for (const std::optional<SetEntry>& entry : old) {
      if (entry) InsertClean(table, *entry);
    }
  }
  std::vector<std::vector<int64_t>> ordered;
  for (const std::optional<SetEntry>& entry : table) {
    if (entry) ordered.push_back(items[entry->item]);
  }
  return ordered;
}

}  // namespace airscope

// FlatNodeMap against a std::map model: every key found with its value
// through growth (rehashes from an empty map and from a reserved one), keys
// never inserted not found, At() throwing for them, ForEach visiting each
// entry once.
#include "core/ir/flat_pointer_map.h"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

namespace airscope {
namespace {

// Node pointers are only compared, never dereferenced: addresses inside one
// array stand for nodes allocated side by side, the layout the hash must
// spread.
const Node* Key(const std::vector<char>& arena, size_t i) {
  return reinterpret_cast<const Node*>(arena.data() + i * 8);
}

void CheckAgainstModel(FlatNodeMap<uint64_t>& map, const std::map<const Node*, uint64_t>& model,
                       const std::vector<char>& arena, size_t keys) {
  ASSERT_EQ(map.size(), model.size());
  for (size_t i = 0; i < keys; ++i) {
    const Node* key = Key(arena, i);
    auto it = model.find(key);
    if (it == model.end()) {
      EXPECT_EQ(map.Find(key), nullptr) << i;
      EXPECT_FALSE(map.Contains(key));
      EXPECT_THROW(map.At(key), std::out_of_range);
    } else {
      ASSERT_NE(map.Find(key), nullptr) << i;
      EXPECT_EQ(*map.Find(key), it->second);
      EXPECT_EQ(map.At(key), it->second);
    }
  }
  std::map<const Node*, uint64_t> seen;
  map.ForEach([&](const Node* key, uint64_t value) { EXPECT_TRUE(seen.emplace(key, value).second); });
  EXPECT_EQ(seen, model);
}

TEST(FlatNodeMapTest, MatchesAMapModelThroughGrowth) {
  constexpr size_t kKeys = 20000;
  std::vector<char> arena(kKeys * 8);
  for (size_t reserve : {size_t{0}, size_t{kKeys}}) {
    FlatNodeMap<uint64_t> map(reserve);
    std::map<const Node*, uint64_t> model;
    EXPECT_EQ(map.Find(Key(arena, 0)), nullptr);
    // Every third key is inserted, and every ninth overwritten afterwards.
    for (size_t i = 0; i < kKeys; i += 3) {
      map[Key(arena, i)] = i * 7;
      model[Key(arena, i)] = i * 7;
    }
    for (size_t i = 0; i < kKeys; i += 9) {
      map[Key(arena, i)] += 1;
      model[Key(arena, i)] += 1;
    }
    CheckAgainstModel(map, model, arena, kKeys);
  }
}

TEST(FlatNodeMapTest, OperatorBracketDefaultConstructsAndNullIsNeverFound) {
  std::vector<char> arena(64);
  FlatNodeMap<std::vector<int>> map;
  EXPECT_TRUE(map.empty());
  EXPECT_TRUE(map[reinterpret_cast<const Node*>(arena.data())].empty());
  map[reinterpret_cast<const Node*>(arena.data())].push_back(3);
  EXPECT_EQ(map.size(), 1u);
  EXPECT_EQ(map.Find(nullptr), nullptr);
  EXPECT_EQ(map.At(reinterpret_cast<const Node*>(arena.data())), std::vector<int>{3});
}

}  // namespace
}  // namespace airscope

// UserList against a std::vector model: after any mix of appends, removals
// (present and absent users), re-appends of removed users and clears, the
// list holds the model's users in the model's order, Contains agrees, and
// size() counts live users. The runs cross the side-index threshold (32)
// both ways and force compactions (holes outnumbering users).
#include "core/ir/user_list.h"

#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

namespace airscope {
namespace {

// Node pointers are only stored and compared, never dereferenced.
Node* User(std::vector<char>& arena, size_t i) { return reinterpret_cast<Node*>(arena.data() + i * 16); }

void ExpectSame(const UserList& list, const std::vector<Node*>& model, std::vector<char>& arena, size_t universe) {
  ASSERT_EQ(list.size(), model.size());
  EXPECT_EQ(list.empty(), model.empty());
  EXPECT_EQ(list.ToVector(), model);
  if (!model.empty()) {
    EXPECT_EQ(list.front(), model.front());
  }
  for (size_t i = 0; i < universe; ++i) {
    bool in_model = std::find(model.begin(), model.end(), User(arena, i)) != model.end();
    EXPECT_EQ(list.Contains(User(arena, i)), in_model) << i;
  }
}

TEST(UserListTest, MatchesAVectorModelAcrossTheIndexThresholdAndCompactions) {
  constexpr size_t kUniverse = 300;
  std::vector<char> arena(kUniverse * 16);
  for (uint64_t seed : {1u, 2u, 3u}) {
    UserList list;
    std::vector<Node*> model;
    uint64_t state = seed;
    auto next = [&state](uint64_t bound) {
      state = state * 6364136223846793005ull + 1442695040888963407ull;
      return (state >> 33) % bound;
    };
    for (int step = 0; step < 4000; ++step) {
      uint64_t what = next(100);
      Node* user = User(arena, next(kUniverse));
      bool present = std::find(model.begin(), model.end(), user) != model.end();
      if (what < 55) {
        if (!present) {
          list.Append(user);
          model.push_back(user);
        }
      } else if (what < 99) {
        EXPECT_EQ(list.Remove(user), present);
        if (present) model.erase(std::find(model.begin(), model.end(), user));
      } else {
        list.Clear();
        model.clear();
      }
      if (step % 97 == 0) ExpectSame(list, model, arena, kUniverse);
    }
    ExpectSame(list, model, arena, kUniverse);
  }
}

TEST(UserListTest, ManyUsersRemovedAndReaddedKeepOrderAndMoveCleanly) {
  std::vector<char> arena(1000 * 16);
  UserList list;
  std::vector<Node*> model;
  for (size_t i = 0; i < 1000; ++i) {
    list.Append(User(arena, i));
    model.push_back(User(arena, i));
  }
  for (size_t i = 0; i < 1000; i += 2) {
    ASSERT_TRUE(list.Remove(User(arena, i)));
    EXPECT_FALSE(list.Remove(User(arena, i)));  // already gone
  }
  model.erase(std::remove_if(model.begin(), model.end(),
                             [&](Node* n) { return (reinterpret_cast<char*>(n) - arena.data()) / 16 % 2 == 0; }),
              model.end());
  for (size_t i = 0; i < 1000; i += 4) {  // back in, at the end
    list.Append(User(arena, i));
    model.push_back(User(arena, i));
  }
  UserList moved = std::move(list);
  ExpectSame(moved, model, arena, 1000);
  EXPECT_TRUE(list.empty());  // NOLINT(bugprone-use-after-move): a moved-from list is empty
}

}  // namespace
}  // namespace airscope

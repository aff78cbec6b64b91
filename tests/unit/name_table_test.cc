// NodeNameTable through the Graph that owns it: names found after any mix of
// appends, erasures and renames (backward-shift deletion must keep every
// probe run intact), checked against a std::map model.
#include "core/ir/name_table.h"

#include <cstdint>
#include <map>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/ir/graph.h"

namespace airscope {
namespace {

NodeSpec Input(std::string name) {
  NodeSpec spec;
  spec.op = OpKind::kPlaceholder;
  spec.target = name;
  spec.name = std::move(name);
  return spec;
}

TEST(NodeNameTableTest, FindsEveryNameAfterRandomAppendsErasuresAndRenames) {
  Graph graph;
  std::map<std::string, Node*> model;
  uint64_t state = 12345;  // a fixed LCG: the same run every time
  auto next = [&state](uint64_t bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (state >> 33) % bound;
  };
  for (int step = 0; step < 20000; ++step) {
    uint64_t action = next(10);
    if (action < 6 || model.empty()) {
      std::string name = fmt::format("n{}", next(5000));
      auto node = graph.AppendNamed(Input(name));
      if (model.count(name)) {
        EXPECT_FALSE(node.ok()) << name;
      } else {
        ASSERT_TRUE(node.ok()) << node.status().message();
        model[name] = *node;
      }
    } else {
      auto it = model.begin();
      std::advance(it, static_cast<long>(next(model.size())));
      if (action < 9) {
        ASSERT_TRUE(graph.Erase(it->second).ok());
        model.erase(it);
      } else {
        std::string name = fmt::format("r{}", next(5000));
        Status renamed = graph.Rename(it->second, name);
        if (model.count(name)) {
          EXPECT_FALSE(renamed.ok());
        } else {
          ASSERT_TRUE(renamed.ok()) << renamed.message();
          Node* node = it->second;
          model.erase(it);
          model[name] = node;
        }
      }
    }
    if (step % 997 == 0) {
      for (const auto& [name, node] : model) ASSERT_EQ(graph.Find(name), node) << name << " at step " << step;
    }
  }
  ASSERT_EQ(graph.size(), model.size());
  for (const auto& [name, node] : model) EXPECT_EQ(graph.Find(name), node) << name;
  for (int i = 0; i < 5000; ++i) {
    std::string name = fmt::format("n{}", i);
    if (!model.count(name)) {
      EXPECT_EQ(graph.Find(name), nullptr) << name;
    }
  }
}

TEST(NodeNameTableTest, ClonesAndMovesKeepTheirOwnIndex) {
  Graph graph;
  for (int i = 0; i < 100; ++i) ASSERT_TRUE(graph.AppendNamed(Input(fmt::format("x{}", i))).ok());
  std::unique_ptr<Graph> copy = graph.Clone();
  EXPECT_NE(copy->Find("x42"), nullptr);
  EXPECT_NE(copy->Find("x42"), graph.Find("x42"));
  Graph moved(std::move(*copy));
  EXPECT_EQ(moved.Find("x7")->name(), "x7");
  EXPECT_EQ(copy->Find("x7"), nullptr);  // a moved-from graph is empty, and says so
  EXPECT_TRUE(moved.Lint().ok());
}

}  // namespace
}  // namespace airscope

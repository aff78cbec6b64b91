// Graph::SlotOf and NodeSlotMap: slots are dense and stable (erasing or
// inserting never renumbers a node), a clone's slots are its positions,
// nodes of another graph have none; the map finds exactly what was set,
// across the node blocks of a big graph, and walks in slot order.
#include "core/ir/node_slot_map.h"

#include <stdexcept>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/ir/graph.h"

namespace airscope {
namespace {

NodeSpec Call(std::string target, std::vector<Argument> args) {
  NodeSpec spec;
  spec.op = OpKind::kCallFunction;
  spec.target = std::move(target);
  spec.args = std::move(args);
  return spec;
}

NodeSpec Placeholder(std::string name) {
  NodeSpec spec;
  spec.op = OpKind::kPlaceholder;
  spec.target = name;
  spec.name = std::move(name);
  return spec;
}

// x -> neg -> neg -> ... (`nodes` calls), no output: enough for slots.
Graph Chain(size_t nodes) {
  Graph graph("chain");
  Node* last = graph.Append(Placeholder("x"));
  for (size_t i = 0; i < nodes; ++i) last = graph.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(last)}));
  return graph;
}

TEST(NodeSlotTest, SlotsAreDenseAndSurviveEditsAroundThem) {
  Graph graph = Chain(3);  // x, neg, neg_1, neg_2
  std::vector<Node*> nodes = graph.Nodes();
  for (uint32_t i = 0; i < nodes.size(); ++i) EXPECT_EQ(graph.SlotOf(nodes[i]), i);
  EXPECT_EQ(graph.slot_count(), 4u);
  // An insertion takes the next slot, wherever it goes in the list.
  Node* early = graph.InsertBefore(nodes[1], Call("torch.ops.aten.abs.default", {Argument::NodeRef(nodes[0])}));
  EXPECT_EQ(graph.SlotOf(early), 4u);
  EXPECT_EQ(graph.SlotOf(nodes[1]), 1u);
  // An erased node keeps its slot, and the slot is not given again.
  ASSERT_TRUE(graph.Erase(nodes[3]).ok());
  EXPECT_EQ(graph.SlotOf(nodes[3]), 3u);
  Node* late = graph.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(nodes[2])}));
  EXPECT_EQ(graph.SlotOf(late), 5u);
  EXPECT_EQ(graph.slot_count(), 6u);
}

TEST(NodeSlotTest, ACloneNumbersItsNodesInListOrderAcrossBlocks) {
  Graph graph = Chain(100000);  // many blocks, the last ones of the largest size
  Node* first = graph.front()->next();
  graph.InsertBefore(first, Call("torch.ops.aten.abs.default", {Argument::NodeRef(graph.front())}));
  std::unique_ptr<Graph> clone = graph.Clone();
  uint32_t position = 0;
  for (Node* node : *clone) EXPECT_EQ(clone->SlotOf(node), position++);
  EXPECT_EQ(clone->slot_count(), graph.size());
  // The original's inserted node is in its last slot, not at its position.
  EXPECT_EQ(graph.SlotOf(first->prev()), graph.slot_count() - 1);
}

TEST(NodeSlotTest, ANodeOfAnotherGraphHasNoSlot) {
  Graph a = Chain(40), b = Chain(40);
  for (Node* node : b) EXPECT_EQ(a.SlotOf(node), Graph::kNoSlot) << node->name();
  // A moved graph keeps its slots; the graph moved from has none.
  Node* last = a.back();
  Graph moved = std::move(a);
  EXPECT_EQ(moved.SlotOf(last), 40u);
  EXPECT_EQ(a.SlotOf(last), Graph::kNoSlot);  // NOLINT(bugprone-use-after-move): moved-from is valid and empty
}

TEST(NodeSlotMapTest, FindsExactlyWhatWasSetAndWalksInSlotOrder) {
  Graph graph = Chain(70000);
  NodeSlotMap<int> map(graph);
  std::vector<Node*> nodes = graph.Nodes();
  for (size_t i = 0; i < nodes.size(); i += 3) map[nodes[i]] = static_cast<int>(i);
  EXPECT_EQ(map.size(), (nodes.size() + 2) / 3);
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i % 3 == 0) {
      ASSERT_NE(map.Find(nodes[i]), nullptr) << i;
      EXPECT_EQ(map.At(nodes[i]), static_cast<int>(i));
    } else {
      EXPECT_FALSE(map.Contains(nodes[i])) << i;
      EXPECT_THROW(map.At(nodes[i]), std::out_of_range);
    }
  }
  std::vector<int> walked;
  map.ForEach([&](const Node*, int value) { walked.push_back(value); });
  ASSERT_EQ(walked.size(), map.size());
  for (size_t k = 0; k < walked.size(); ++k) EXPECT_EQ(walked[k], static_cast<int>(3 * k));
}

TEST(NodeSlotMapTest, ANodeMadeLaterIsAbsentUntilSetAndAnotherGraphsNeverFound) {
  Graph graph = Chain(5), other = Chain(5);
  NodeSlotMap<int> map(graph);
  for (Node* node : graph) map[node] = 1;
  Node* added = graph.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(graph.back())}));
  EXPECT_FALSE(map.Contains(added));
  map[added] = 2;
  EXPECT_EQ(map.At(added), 2);
  for (Node* node : other) EXPECT_FALSE(map.Contains(node));
  EXPECT_THROW(map[other.front()], std::invalid_argument);
  NodeSlotMap<int> unbound;
  EXPECT_FALSE(unbound.Contains(graph.front()));
  EXPECT_THROW(unbound[graph.front()], std::invalid_argument);
}

}  // namespace
}  // namespace airscope

#include "core/analysis/graph_neighbourhood.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "bench/llm_graph.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

using testing_util::ParseForward;

// x -> a -> b -> d, x -> c -> d, d -> e; y unused by the chain.
std::unique_ptr<Graph> Diamond() {
  return ParseForward("x: \"f32[4]\", y: \"f32[4]\"",
                      "        a: \"f32[4]\" = torch.ops.aten.relu.default(x)\n"
                      "        b: \"f32[4]\" = torch.ops.aten.neg.default(a)\n"
                      "        c: \"f32[4]\" = torch.ops.aten.abs.default(x)\n"
                      "        d: \"f32[4]\" = torch.ops.aten.add.Tensor(b, c)\n"
                      "        e: \"f32[4]\" = torch.ops.aten.mul.Tensor(d, y)\n"
                      "        return (e,)\n");
}

std::vector<std::string> Names(const std::vector<const Node*>& nodes) {
  std::vector<std::string> names;
  for (const Node* node : nodes) names.push_back(node->name());
  return names;
}

TEST(GraphNeighbourhoodTest, HopsGoUpAndDownButNotSideways) {
  auto graph = Diamond();
  Neighbourhood around = NodesAround(*graph, *graph->Find("b"), 1, 100);
  std::vector<std::string> names;
  std::vector<int> hops;
  for (const NearNode& near : around.nodes) {
    names.push_back(near.node->name());
    hops.push_back(near.hops);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"a", "b", "d"}));
  EXPECT_EQ(hops, (std::vector<int>{-1, 0, 1}));
  EXPECT_EQ(around.producers, 1u);
  EXPECT_EQ(around.users, 1u);
  EXPECT_FALSE(around.truncated);
  // Two hops: x above a, e below d; c (a sibling through d) is not reached.
  Neighbourhood two = NodesAround(*graph, *graph->Find("b"), 2, 100);
  EXPECT_EQ(two.nodes.size(), 5u);
  for (const NearNode& near : two.nodes) EXPECT_NE(near.node->name(), "c");
}

TEST(GraphNeighbourhoodTest, AtMostMaxNodesTheNearestFirst) {
  auto graph = Diamond();
  Neighbourhood around = NodesAround(*graph, *graph->Find("d"), 3, 3);
  EXPECT_TRUE(around.truncated);
  EXPECT_EQ(around.nodes.size(), 3u);  // d and its two inputs, b and c
  EXPECT_EQ(around.producers, 2u);
}

TEST(GraphNeighbourhoodTest, DataPathIsAShortestChainOrNothing) {
  auto graph = Diamond();
  EXPECT_EQ(Names(DataPath(*graph, *graph->Find("x"), *graph->Find("e"))),
            (std::vector<std::string>{"x", "c", "d", "e"}));
  EXPECT_EQ(Names(DataPath(*graph, *graph->Find("a"), *graph->Find("d"))), (std::vector<std::string>{"a", "b", "d"}));
  EXPECT_TRUE(DataPath(*graph, *graph->Find("e"), *graph->Find("x")).empty());  // the wrong way
  EXPECT_TRUE(DataPath(*graph, *graph->Find("b"), *graph->Find("c")).empty());  // no chain
  EXPECT_EQ(Names(DataPath(*graph, *graph->Find("y"), *graph->Find("y"))), (std::vector<std::string>{"y"}));
}

TEST(GraphNeighbourhoodTest, TransitiveClosuresCountAndMeasureDepth) {
  auto graph = Diamond();
  Closure users = TransitiveClosure(*graph, *graph->Find("x"), Direction::kUsers);
  EXPECT_EQ(Names(users.nodes), (std::vector<std::string>{"a", "b", "c", "d", "e", "output"}));
  EXPECT_EQ(users.depth, 5);  // x a b d e output
  Closure producers = TransitiveClosure(*graph, *graph->Find("e"), Direction::kProducers);
  EXPECT_EQ(Names(producers.nodes), (std::vector<std::string>{"x", "y", "a", "b", "c", "d"}));
  EXPECT_EQ(producers.depth, 4);  // e d b a x
  ASSERT_FALSE(producers.by_op.empty());
  EXPECT_EQ(producers.by_op[0], (std::pair<std::string, size_t>{"placeholder", 2}));
}

TEST(GraphNeighbourhoodTest, PathAcrossAllLayersOfAnLlm) {
  std::unique_ptr<Graph> graph = bench::LlmGraph(20, 2);
  const Node* first = graph->Find("hidden");
  const Node* last = graph->output();
  std::vector<const Node*> path = DataPath(*graph, *first, *last);
  ASSERT_GE(path.size(), 41u);  // at least the two residual adds of each layer
  EXPECT_EQ(path.front(), first);
  EXPECT_EQ(path.back(), last);
  for (size_t i = 1; i < path.size(); ++i) {
    std::vector<Node*> inputs = path[i]->inputs();
    EXPECT_NE(std::find(inputs.begin(), inputs.end(), path[i - 1]), inputs.end()) << path[i]->name();
  }
  // The shortest chain takes each layer's residual skip: two adds per layer.
  EXPECT_EQ(path.size(), 2u + 2u * 20u);
}

}  // namespace
}  // namespace airscope

#include "core/analysis/repeated_blocks.h"

#include <gtest/gtest.h>

#include <string>

#include "bench/llm_graph.h"
#include "bench/transformer_graph.h"
#include "core/file_util.h"
#include "core/fx/readable.h"
#include "core/ops/shape_inference.h"

namespace airscope {
namespace {

std::unique_ptr<Graph> Sample(const std::string& name) {
  std::string path = std::string(AIRSCOPE_TEST_DATA) + "/" + name + ".readable.py";
  Result<std::string> text = ReadFile(path);
  EXPECT_TRUE(text.ok()) << text.status().message();
  Result<std::unique_ptr<Graph>> graph = ParseReadable(text.ok() ? *text : "", path);
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  return graph.ok() ? std::move(graph).value() : std::make_unique<Graph>();
}

TEST(RepeatedBlocksTest, FindsTheLayersOfAnLlmWithTheirBoundaries) {
  std::unique_ptr<Graph> graph = bench::LlmGraph(12, 3);
  std::vector<RepeatedBlock> blocks = FindRepeatedBlocks(*graph);
  ASSERT_FALSE(blocks.empty());
  const RepeatedBlock& layers = blocks[0];
  EXPECT_EQ(layers.count, 12u);
  // Repeat 0 runs from the first layer's first weight (the builder puts
  // weights where they are first read) to its residual add; the output
  // follows the last repeat. Layer 0 reads the graph input where the others
  // read the layer before: still the same block.
  const std::vector<Node*> nodes = graph->Nodes();
  EXPECT_EQ(nodes[layers.start]->name(), "l0_attn_norm");
  EXPECT_EQ(nodes[layers.start + 1]->target(), "torch.ops.aten.pow.Tensor_Scalar");
  EXPECT_EQ(nodes[layers.end() - 1]->target(), "torch.ops.aten.add.Tensor");
  EXPECT_EQ(nodes[layers.end()]->op(), OpKind::kOutput);
  EXPECT_TRUE(layers.differences.empty());
}

TEST(RepeatedBlocksTest, ExpertsInsideOneLayerAreFoundInItsRange) {
  std::unique_ptr<Graph> graph = bench::LlmGraph(3, 40);
  std::vector<RepeatedBlock> layers = FindRepeatedBlocks(*graph);
  ASSERT_EQ(layers.size(), 1u);
  EXPECT_EQ(layers[0].count, 3u);
  RepeatOptions inside;
  inside.begin = layers[0].RepeatStart(0);
  inside.end = layers[0].RepeatStart(1);
  std::vector<RepeatedBlock> found = FindRepeatedBlocks(*graph, inside);
  // By start: the q and k projections (a pair alike), then the experts.
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].count, 2u);
  std::vector<RepeatedBlock> experts(found.begin() + 1, found.end());
  EXPECT_EQ(experts[0].count, 40u);
  EXPECT_EQ(experts[0].length, 15u);
  EXPECT_GE(experts[0].start, inside.begin);
  EXPECT_LE(experts[0].end(), inside.end);
  // Each expert selects its own routing weight: a constant, so every expert
  // but the reference differs there, and says so.
  EXPECT_EQ(experts[0].differences.size(), 39u);
  EXPECT_EQ(experts[0].differences[0].what, RepeatDifference::What::kConstants);
}

TEST(RepeatedBlocksTest, TheTwoBlocksOfGpt2AreOneBlockOfTwo) {
  std::unique_ptr<Graph> graph = Sample("gpt2_train_fw");
  std::vector<RepeatedBlock> blocks = FindRepeatedBlocks(*graph);
  ASSERT_FALSE(blocks.empty());
  EXPECT_EQ(blocks[0].count, 2u);
  // Each block holds its two layer norms, attention and MLP: about half the graph.
  EXPECT_GT(blocks[0].length * 2, graph->size() / 2);
}

TEST(RepeatedBlocksTest, ARepeatWithOtherShapesIsNamed) {
  // Three identical blocks, the middle one at another width: still one block
  // of three, with the middle repeat's shape difference reported.
  std::unique_ptr<Graph> graph = bench::LlmGraph(3, 2);
  Node* layer1_view = nullptr;
  int views = 0;
  for (Node* node : *graph) {
    if (node->target() == "torch.ops.aten.view.default" && ++views == 5)
      layer1_view = node;  // layer 1's first (4 a layer)
  }
  ASSERT_NE(layer1_view, nullptr);
  NodeMeta wider = *layer1_view->meta();
  wider.tensors[0].sizes[0] = 8;
  layer1_view->set_meta(wider);
  std::vector<RepeatedBlock> blocks = FindRepeatedBlocks(*graph);
  ASSERT_FALSE(blocks.empty());
  EXPECT_EQ(blocks[0].count, 3u);
  EXPECT_EQ(blocks[0].reference, 0u);
  ASSERT_EQ(blocks[0].differences.size(), 1u);
  EXPECT_EQ(blocks[0].differences[0].repeat, 1u);
  EXPECT_EQ(blocks[0].differences[0].what, RepeatDifference::What::kShape);
  const std::vector<Node*> nodes = graph->Nodes();
  EXPECT_EQ(nodes[blocks[0].RepeatStart(1) + blocks[0].differences[0].offset], layer1_view);
}

TEST(RepeatedBlocksTest, AGraphWithoutRepeatsHasNone) {
  std::unique_ptr<Graph> graph = Sample("mlp");
  EXPECT_TRUE(FindRepeatedBlocks(*graph).empty());
}

TEST(RepeatedBlocksTest, MobileNetsIdenticalBlocksFold) {
  std::unique_ptr<Graph> graph = Sample("mobilenet_v2");
  std::vector<RepeatedBlock> blocks = FindRepeatedBlocks(*graph);
  ASSERT_FALSE(blocks.empty());
  size_t covered = 0;
  for (const RepeatedBlock& block : blocks) covered += block.count * block.length;
  EXPECT_GT(covered, graph->size() / 2);
}

TEST(RepeatedBlocksTest, BenchTransformerBlocksWithInterleavedWeights) {
  // The bench's transformer puts each layer's weights between its ops (as a
  // traced module's get_attrs are): graph inputs correspond to graph inputs.
  std::unique_ptr<Graph> graph = bench::Transformer(1000);
  std::vector<RepeatedBlock> blocks = FindRepeatedBlocks(*graph);
  ASSERT_FALSE(blocks.empty());
  EXPECT_GE(blocks[0].count, 10u);
}

}  // namespace
}  // namespace airscope

#include "viz/dot_writer.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include <graphviz/cgraph.h>
#include <gtest/gtest.h>

#include "bench/chain_graphs.h"
#include "core/file_util.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

using testing_util::Spec;

NodeMeta Tensor(std::vector<Dim> sizes) {
  NodeMeta meta;
  meta.tensors.push_back(TensorMeta{DType::kFloat32, std::move(sizes), {}, ""});
  return meta;
}

// x -> mm (stream s1) -> record -> wait -> add (stream s2) -> output, plus a tuple-valued split.
std::unique_ptr<Graph> TwoStreams() {
  auto g = std::make_unique<Graph>("two_streams");
  Node* x = *g->AppendNamed(Spec(OpKind::kPlaceholder, "x", {}, "x"));
  x->set_meta(Tensor({3, 3}));
  Node* mm = *g->AppendNamed(
      Spec(OpKind::kCallFunction, "torch.ops.aten.mm.default", {Argument::NodeRef(x), Argument::NodeRef(x)}, "mm"));
  mm->set_meta(Tensor({3, Dim::Symbol("s0")}));
  g->SetStream(mm, "s1");
  Node* record =
      *g->AppendNamed(Spec(OpKind::kCallFunction, "torch.ops.air.record.default", {Argument::NodeRef(mm)}, "record"));
  g->SetStream(record, "s1");
  Node* wait = *g->AppendNamed(Spec(OpKind::kCallFunction, "air.wait.default", {Argument::NodeRef(record)}, "wait"));
  g->SetStream(wait, "s2");
  Node* add = *g->AppendNamed(Spec(OpKind::kCallFunction, "torch.ops.aten.add.Tensor",
                                   {Argument::NodeRef(mm), Argument::NodeRef(wait)}, "add"));
  g->SetStream(add, "s2");
  Node* split = *g->AppendNamed(
      Spec(OpKind::kCallFunction, "torch.ops.aten.split.Tensor", {Argument::NodeRef(add), Argument::Int(1)}, "split"));
  NodeMeta tuple;
  tuple.kind = ValueKind::kTuple;
  tuple.tensors = {TensorMeta{DType::kFloat32, {1, 3}, {}, ""}, TensorMeta{DType::kFloat16, {2, 3}, {}, ""}};
  split->set_meta(tuple);
  (void)*g->AppendNamed(
      Spec(OpKind::kOutput, "output", {Argument::Tuple({Argument::NodeRef(add), Argument::NodeRef(split)})}, "output"));
  return g;
}

// A fresh directory per test, removed again when the test ends.
class ScratchDir {
 public:
  ScratchDir()
      : path_(testing::TempDir() + "/dot_writer_test_" + std::to_string(getpid()) + "_" +
              testing::UnitTest::GetInstance()->current_test_info()->name()) {
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(DotWriterTest, ClustersLabelsAndDashedEventEdges) {
  auto dot = GraphToDot(*TwoStreams());
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  const std::string& text = *dot;
  EXPECT_NE(text.find("digraph two_streams"), std::string::npos) << text;
  EXPECT_NE(text.find("subgraph cluster_s1"), std::string::npos) << text;
  EXPECT_NE(text.find("subgraph cluster_s2"), std::string::npos) << text;
  EXPECT_LT(text.find("cluster_s1"), text.find("cluster_s2"));  // order of first appearance
  EXPECT_NE(text.find("\"stream s1\""), std::string::npos) << text;
  EXPECT_NE(text.find("rankdir=TB"), std::string::npos) << text;
  EXPECT_NE(text.find("Helvetica"), std::string::npos) << text;
  EXPECT_NE(text.find("\"mm\\naten.mm.default\\nf32[3, s0]\""), std::string::npos) << text;
  EXPECT_NE(text.find("(f32[1, 3], f16[2, 3])"), std::string::npos) << text;
  EXPECT_NE(text.find("mm -> record\t[style=dashed]"), std::string::npos) << text;
  EXPECT_NE(text.find("record -> wait\t[style=dashed]"), std::string::npos) << text;
  EXPECT_NE(text.find("wait -> add\t[style=dashed]"), std::string::npos) << text;
  size_t solid = text.find("mm -> add");
  ASSERT_NE(solid, std::string::npos) << text;
  EXPECT_EQ(text.substr(solid, text.find('\n', solid) - solid).find("dashed"), std::string::npos);
  EXPECT_EQ(text.find("x -> mm\t[style=dashed]"), std::string::npos);
}

TEST(DotWriterTest, OutputIsDeterministicAndParsesBack) {
  auto a = GraphToDot(*TwoStreams());
  auto b = GraphToDot(*TwoStreams());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);

  Agraph_t* parsed = agmemread(a->c_str());
  ASSERT_NE(parsed, nullptr);
  EXPECT_EQ(agnnodes(parsed), 7);
  EXPECT_EQ(agnedges(parsed), 8);  // x->mm, mm->record, mm->add, record->wait, wait->add, add->split, add/split->output
  Agraph_t* cluster = agsubg(parsed, const_cast<char*>("cluster_s1"), 0);
  ASSERT_NE(cluster, nullptr);
  EXPECT_EQ(agnnodes(cluster), 2);
  agclose(parsed);
}

TEST(DotWriterTest, RendersSvgAndPng) {
  ScratchDir scratch;
  const std::string& dir = scratch.path();
  auto info = RenderGraph(*TwoStreams(), "svg", dir + "/g.svg");
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->engine, "dot");
  EXPECT_EQ(info->note, "");
  auto svg = ReadFile(dir + "/g.svg");
  ASSERT_TRUE(svg.ok());
  EXPECT_TRUE(svg->starts_with("<?xml") || svg->find("<svg") != std::string::npos);
  EXPECT_NE(svg->find("stream s1"), std::string::npos);

  info = RenderGraph(*TwoStreams(), "png", dir + "/g.png");
  ASSERT_TRUE(info.ok()) << info.status().message();
  auto png = ReadFile(dir + "/g.png");
  ASSERT_TRUE(png.ok());
  EXPECT_TRUE(png->starts_with("\x89PNG"));
}

TEST(DotWriterTest, BadFormatIsAnError) {
  ScratchDir scratch;
  const std::string& dir = scratch.path();
  auto info = RenderGraph(*TwoStreams(), "jpeg", dir + "/g.jpeg");
  ASSERT_FALSE(info.ok());
  EXPECT_NE(info.status().message().find("svg"), std::string::npos);
  EXPECT_NE(info.status().message().find("png"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(dir + "/g.jpeg"));
}

TEST(DotWriterTest, LargeGraphSwitchesToSfdp) {
  ScratchDir scratch;
  const std::string& dir = scratch.path();
  auto g = ChainWithBranches(60);
  DotOptions options;
  options.max_nodes_for_dot = 50;
  auto info = RenderGraph(*g, "svg", dir + "/big.svg", options);
  ASSERT_TRUE(info.ok()) << info.status().message();
  EXPECT_EQ(info->engine, "sfdp");
  EXPECT_EQ(info->note, "60 nodes > 50: laid out with sfdp instead of dot");
  auto svg = ReadFile(dir + "/big.svg");
  ASSERT_TRUE(svg.ok());
  EXPECT_NE(svg->find("<svg"), std::string::npos);
}

}  // namespace
}  // namespace airscope

#include "viz/dot_writer.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <string>

#include <graphviz/cgraph.h>
#include <gtest/gtest.h>

#include "bench/chain_graphs.h"
#include "core/check/hazards.h"
#include "core/file_util.h"
#include "core/lower/task_graph.h"
#include "core/ops/op_registry.h"
#include "viz/hazard_marks.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

using testing_util::Spec;

size_t Count(const std::string& text, std::string_view what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

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

Node* Call(Graph& g, std::string target, std::vector<Argument> args, std::string name, const std::string& stream) {
  Node* n = *g.AppendNamed(Spec(OpKind::kCallFunction, std::move(target), std::move(args), std::move(name)));
  if (!stream.empty()) g.SetStream(n, stream);
  return n;
}

// A lowered graph as event closure leaves it: default forks to s1 (tag
// "fork"), s1 computes abs_1 and records "join", the default stream waits for
// "join" at the end. With `join_before_add` false, add_ writes abs_1's buffer
// in place on the default stream before that wait: a race with abs_1 on s1.
std::unique_ptr<Graph> ForkJoin(bool join_before_add) {
  auto g = std::make_unique<Graph>("fork_join");
  Node* x = *g->AppendNamed(Spec(OpKind::kPlaceholder, "x", {}, "x"));
  x->set_meta(Tensor({4}));
  Call(*g, "torch.ops.air.tagged_event_record.default", {Argument::String("fork")}, "rec_fork", "");
  Call(*g, "torch.ops.air.tagged_event_wait.default", {Argument::String("fork")}, "wait_fork", "s1");
  Node* abs = Call(*g, "torch.ops.aten.abs.default", {Argument::NodeRef(x)}, "abs_1", "s1");
  abs->set_meta(Tensor({4}));
  Call(*g, "torch.ops.air.tagged_event_record.default", {Argument::String("join")}, "rec_join", "s1");
  if (join_before_add) Call(*g, "torch.ops.air.tagged_event_wait.default", {Argument::String("join")}, "wait_join", "");
  Node* add = Call(*g, "torch.ops.aten.add_.Tensor", {Argument::NodeRef(abs), Argument::NodeRef(x)}, "add", "");
  add->set_meta(Tensor({4}));
  if (!join_before_add)
    Call(*g, "torch.ops.air.tagged_event_wait.default", {Argument::String("join")}, "wait_join", "");
  (void)*g->AppendNamed(Spec(OpKind::kOutput, "output", {Argument::Tuple({Argument::NodeRef(add)})}, "output"));
  return g;
}

// What `check` finds in `graph` (lowered as it is), as the marks a drawing takes.
std::vector<HazardMark> CheckMarks(const Graph& graph) {
  Result<TaskGraph> tasks = BuildTaskGraph(graph, OpRegistry::Builtin());
  EXPECT_TRUE(tasks.ok()) << tasks.status().message();
  if (!tasks.ok()) return {};
  return HazardMarks(*tasks, FindHazards(*tasks, {"", 48, "ascend-910b"}));
}

// The DOT statement of the edge tail -> head whose attributes contain `with`, "" when none.
std::string EdgeLine(const std::string& dot, const std::string& tail, const std::string& head, std::string_view with) {
  std::string prefix = "\t" + tail + " -> " + head;
  for (size_t at = dot.find(prefix); at != std::string::npos; at = dot.find(prefix, at + 1)) {
    size_t end = dot.find(';', at);
    std::string statement = dot.substr(at, end - at);
    if (statement.find(with) != std::string::npos) return statement;
  }
  return "";
}

TEST(DotWriterTest, EachTaggedWaitGetsADashedEdgeFromTheRecordItWaitsFor) {
  auto dot = GraphToDot(*ForkJoin(true));
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  EXPECT_NE(EdgeLine(*dot, "rec_fork", "wait_fork", "label=fork"), "") << *dot;
  EXPECT_NE(EdgeLine(*dot, "rec_fork", "wait_fork", "style=dashed"), "") << *dot;
  EXPECT_NE(EdgeLine(*dot, "rec_join", "wait_join", "label=join"), "") << *dot;
  EXPECT_EQ(EdgeLine(*dot, "rec_fork", "wait_join", ""), "") << *dot;
  // Tagged event nodes are event ops: drawn as the untagged ones are.
  EXPECT_NE(dot->find("rec_fork\t[label=\"rec_fork\\nair.tagged_event_record.default\",\n\t\tshape=cds]"),
            std::string::npos)
      << *dot;
}

TEST(DotWriterTest, AWaitIsTiedToTheLatestRecordOfItsTagBeforeIt) {
  auto g = std::make_unique<Graph>("rerecorded");
  Call(*g, "torch.ops.air.tagged_event_record.default", {Argument::String("e")}, "first", "");
  Call(*g, "torch.ops.air.tagged_event_wait.default", {Argument::String("e")}, "wait_a", "s1");
  Call(*g, "torch.ops.air.tagged_event_record.default", {Argument::String("e")}, "second", "");
  Call(*g, "torch.ops.air.tagged_event_wait.default", {Argument::String("e")}, "wait_b", "s1");
  Call(*g, "torch.ops.air.tagged_event_wait.default", {Argument::String("never")}, "wait_c", "s1");
  (void)*g->AppendNamed(Spec(OpKind::kOutput, "output", {Argument::Tuple({})}, "output"));
  auto dot = GraphToDot(*g);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  EXPECT_NE(EdgeLine(*dot, "first", "wait_a", "label=e"), "") << *dot;
  EXPECT_NE(EdgeLine(*dot, "second", "wait_b", "label=e"), "") << *dot;
  EXPECT_EQ(EdgeLine(*dot, "first", "wait_b", ""), "") << *dot;
  EXPECT_EQ(dot->find("-> wait_c"), std::string::npos) << *dot;  // waits for nothing: no edge
}

TEST(DotWriterTest, ARaceIsMarkedOnBothNodesWithARedEdgeBetweenThem) {
  auto racy = ForkJoin(false);
  std::vector<HazardMark> marks = CheckMarks(*racy);
  ASSERT_EQ(marks.size(), 1u);
  EXPECT_EQ(marks[0].kind, "race");
  EXPECT_EQ(marks[0].first, "abs_1");
  EXPECT_EQ(marks[0].second, "add");
  DotOptions options;
  options.hazards = marks;
  auto dot = GraphToDot(*racy, options);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  EXPECT_NE(dot->find("xlabel=\"race with add\""), std::string::npos) << *dot;
  EXPECT_NE(dot->find("xlabel=\"race with abs_1\""), std::string::npos) << *dot;
  EXPECT_EQ(Count(*dot, "penwidth=2.5"), 2u) << *dot;
  std::string edge = EdgeLine(*dot, "abs_1", "add", "label=race");
  ASSERT_NE(edge, "") << *dot;
  EXPECT_NE(edge.find("color=\"#dc2626\""), std::string::npos) << edge;
  EXPECT_NE(edge.find("constraint=false"), std::string::npos) << edge;  // the layout stays as it was
  EXPECT_NE(edge.find("tooltip=\"buffer 'abs_1': task"), std::string::npos) << edge;
  EXPECT_NE(EdgeLine(*dot, "abs_1", "add", ""), edge);  // the data edge is still there
  // The same marks in the rendered SVG (the page a browser opens).
  auto svg = RenderGraphData(*racy, "svg", options);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  EXPECT_NE(svg->data.find("race with add"), std::string::npos);
  EXPECT_NE(svg->data.find("#dc2626"), std::string::npos);
}

TEST(DotWriterTest, ACleanGraphIsDrawnExactlyAsWithoutMarks) {
  auto clean = ForkJoin(true);
  std::vector<HazardMark> marks = CheckMarks(*clean);
  EXPECT_TRUE(marks.empty());
  DotOptions options;
  options.hazards = marks;
  auto marked = GraphToDot(*clean, options);
  auto plain = GraphToDot(*clean);
  ASSERT_TRUE(marked.ok() && plain.ok());
  EXPECT_EQ(*marked, *plain);
  EXPECT_EQ(marked->find("#dc2626"), std::string::npos);
  EXPECT_EQ(marked->find("xlabel"), std::string::npos);
}

TEST(DotWriterTest, AHazardNamingNoDrawnNodeIsListedUnderTheDrawing) {
  DotOptions options;
  options.hazards = {{"unjoined stream", "", "", "stream 's1' is not joined back"},
                     {"unrecorded wait", "", "wait", "wait waits for nothing"}};
  auto dot = GraphToDot(*TwoStreams(), options);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  EXPECT_NE(dot->find("unjoined stream: stream 's1' is not joined back"), std::string::npos) << *dot;
  EXPECT_NE(dot->find("labelloc=b"), std::string::npos) << *dot;
  // The one naming a drawn node is marked on it, not listed.
  EXPECT_NE(dot->find("xlabel=\"unrecorded wait\""), std::string::npos) << *dot;
  size_t listed = dot->find("hazards (check) on nodes not drawn:");
  ASSERT_NE(listed, std::string::npos) << *dot;
  std::string label = dot->substr(listed, dot->find('"', listed) - listed);
  EXPECT_EQ(label.find("unrecorded wait"), std::string::npos) << label;
  // Many (a part of a big graph leaves most out): ten lines and a count.
  options.hazards.assign(12, HazardMark{"race", "gone", "away", "not drawn"});
  dot = GraphToDot(*TwoStreams(), options);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  Agraph_t* parsed = agmemread(dot->c_str());  // agwrite wraps long strings: read the label back
  ASSERT_NE(parsed, nullptr);
  std::string listed_many = agget(parsed, const_cast<char*>("label"));
  agclose(parsed);
  EXPECT_EQ(Count(listed_many, "race: not drawn"), 10u) << listed_many;
  EXPECT_NE(listed_many.find("... and 2 more (check lists them)"), std::string::npos) << listed_many;
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

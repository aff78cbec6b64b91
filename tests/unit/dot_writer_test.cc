#include "viz/dot_writer.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include <graphviz/cgraph.h>
#include <gtest/gtest.h>

#include "bench/chain_graphs.h"
#include "core/check/hazards.h"
#include "core/file_util.h"
#include "core/lower/task_graph.h"
#include "core/ops/op_registry.h"
#include "viz/hazard_marks.h"
#include "viz/inplace_writes.h"
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
  // x, read only by mm, is a line of mm's label (input_bundles.h), not a node.
  EXPECT_NE(text.find("\"mm\\naten.mm.default\\nf32[3, s0]\\n+1 input: x f32[3, 3]\""), std::string::npos) << text;
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
  std::string edge = EdgeLine(*dot, "abs_1", "add", "xlabel=race");
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

  // x is drawn in mm's label, so it and its edge are not in the drawing
  // unless every input is asked for.
  for (bool all_inputs : {false, true}) {
    DotOptions options;
    options.draw_all_inputs = all_inputs;
    auto dot = GraphToDot(*TwoStreams(), options);
    ASSERT_TRUE(dot.ok());
    Agraph_t* parsed = agmemread(dot->c_str());
    ASSERT_NE(parsed, nullptr);
    EXPECT_EQ(agnnodes(parsed), all_inputs ? 7 : 6);
    // (x->mm,) mm->record, mm->add, record->wait, wait->add, add->split, add/split->output
    EXPECT_EQ(agnedges(parsed), all_inputs ? 8 : 7);
    Agraph_t* cluster = agsubg(parsed, const_cast<char*>("cluster_s1"), 0);
    ASSERT_NE(cluster, nullptr);
    EXPECT_EQ(agnnodes(cluster), 2);
    agclose(parsed);
  }
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

// Inputs by their users: add alone reads a and b, `shared` feeds
// both users, `unused` none, `w` is a get_attr read once, and six more feed
// `cat` (three named, then a count).
std::unique_ptr<Graph> InputsGraph() {
  auto g = std::make_unique<Graph>("inputs");
  auto input = [&g](const std::string& name, OpKind op = OpKind::kPlaceholder) {
    Node* n = *g->AppendNamed(Spec(op, name, {}, name));
    n->set_meta(Tensor({2, 3}));
    return n;
  };
  Node* a = input("a");
  Node* b = input("b");
  Node* shared = input("shared");
  input("unused");
  Node* w = input("w", OpKind::kGetAttr);
  std::vector<Argument> many;
  for (int i = 0; i < 6; ++i) many.push_back(Argument::NodeRef(input(fmt::format("p{}", i))));
  Node* add = Call(*g, "torch.ops.aten.add.Tensor", {Argument::NodeRef(b), Argument::NodeRef(a)}, "add", "");
  Node* mul = Call(*g, "torch.ops.aten.mul.Tensor", {Argument::NodeRef(add), Argument::NodeRef(shared)}, "mul", "");
  Node* sub = Call(*g, "torch.ops.aten.sub.Tensor", {Argument::NodeRef(shared), Argument::NodeRef(w)}, "sub", "");
  Node* cat = Call(*g, "torch.ops.aten.cat.default", {Argument::List(many)}, "cat", "");
  for (Node* n : {add, mul, sub, cat}) n->set_meta(Tensor({2, 3}));
  (void)*g->AppendNamed(
      Spec(OpKind::kOutput, "output",
           {Argument::Tuple({Argument::NodeRef(mul), Argument::NodeRef(sub), Argument::NodeRef(cat)})}, "output"));
  return g;
}

// The names of the nodes a DOT text draws (parsed back).
std::vector<std::string> DrawnNodes(const std::string& dot) {
  std::vector<std::string> names;
  Agraph_t* parsed = agmemread(dot.c_str());
  if (parsed == nullptr) return names;
  for (Agnode_t* n = agfstnode(parsed); n != nullptr; n = agnxtnode(parsed, n)) names.emplace_back(agnameof(n));
  agclose(parsed);
  std::sort(names.begin(), names.end());
  return names;
}

// A node's label as graphviz reads it back.
std::string LabelOf(const std::string& dot, const std::string& node) {
  Agraph_t* parsed = agmemread(dot.c_str());
  if (parsed == nullptr) return "";
  Agnode_t* n = agnode(parsed, const_cast<char*>(node.c_str()), 0);
  std::string label = n ? agget(n, const_cast<char*>("label")) : "";
  agclose(parsed);
  return label;
}

std::string GraphLabel(const std::string& dot) {
  Agraph_t* parsed = agmemread(dot.c_str());
  if (parsed == nullptr) return "";
  char* label = agget(parsed, const_cast<char*>("label"));
  std::string out = label ? label : "";
  agclose(parsed);
  return out;
}

TEST(DotWriterTest, InputsWithOneUserAreALineOfTheirUsersLabel) {
  auto dot = GraphToDot(*InputsGraph());
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  // Two users or none: still nodes; one user (a get_attr too): in the user's label.
  EXPECT_EQ(DrawnNodes(*dot), (std::vector<std::string>{"add", "cat", "mul", "output", "shared", "sub", "unused"}))
      << *dot;
  // In the order the user reads them (b before a), with their shapes.
  EXPECT_EQ(LabelOf(*dot, "add"), "add\\naten.add.Tensor\\nf32[2, 3]\\n+2 inputs: b f32[2, 3], a f32[2, 3]");
  EXPECT_EQ(LabelOf(*dot, "sub"), "sub\\naten.sub.Tensor\\nf32[2, 3]\\n+1 input: w f32[2, 3]");
  EXPECT_EQ(LabelOf(*dot, "cat"),
            "cat\\naten.cat.default\\nf32[2, 3]\\n+6 inputs: p0 f32[2, 3], p1 f32[2, 3], p2 f32[2, 3], ... 3 more");
  EXPECT_EQ(LabelOf(*dot, "mul"), "mul\\naten.mul.Tensor\\nf32[2, 3]");  // reads only `shared`, a node
  EXPECT_NE(EdgeLine(*dot, "shared", "mul", ""), "") << *dot;
  // The graph's label says how many and what draws them.
  EXPECT_EQ(GraphLabel(*dot), "9 inputs with one user drawn in their users' labels (dump --inputs: as nodes)\\l");
}

TEST(DotWriterTest, DrawAllInputsDrawsEveryInputAsANode) {
  DotOptions options;
  options.draw_all_inputs = true;
  auto dot = GraphToDot(*InputsGraph(), options);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  EXPECT_EQ(DrawnNodes(*dot).size(), InputsGraph()->size());
  EXPECT_EQ(dot->find("input:"), std::string::npos) << *dot;
  EXPECT_EQ(dot->find("inputs:"), std::string::npos) << *dot;
  EXPECT_EQ(GraphLabel(*dot), "");
  EXPECT_NE(EdgeLine(*dot, "w", "sub", ""), "") << *dot;
  EXPECT_NE(EdgeLine(*dot, "b", "add", ""), "") << *dot;
}

TEST(DotWriterTest, AnInputAHazardNamesStaysANode) {
  DotOptions options;
  options.hazards = {{"race", "a", "add", "a and add race"}};
  auto dot = GraphToDot(*InputsGraph(), options);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  std::vector<std::string> drawn = DrawnNodes(*dot);
  EXPECT_NE(std::find(drawn.begin(), drawn.end(), "a"), drawn.end()) << *dot;
  EXPECT_NE(dot->find("xlabel=\"race with add\""), std::string::npos) << *dot;
  EXPECT_EQ(LabelOf(*dot, "add"), "add\\naten.add.Tensor\\nf32[2, 3]\\n+1 input: b f32[2, 3]");
  EXPECT_NE(GraphLabel(*dot).find("8 inputs with one user"), std::string::npos) << GraphLabel(*dot);
}

TEST(DotWriterTest, APartDrawsAnInputWhoseUserIsLeftOutAsANode) {
  DotOptions options;
  options.only_nodes =
      std::make_shared<std::unordered_set<std::string>>(std::unordered_set<std::string>{"a", "b", "w", "sub"});
  auto svg = RenderGraphData(*InputsGraph(), "svg", options);
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  // add is not drawn: a and b stay nodes; sub is, and w is a line of its label.
  EXPECT_NE(svg->data.find("<title>a</title>"), std::string::npos);
  EXPECT_NE(svg->data.find("<title>b</title>"), std::string::npos);
  EXPECT_EQ(svg->data.find("<title>w</title>"), std::string::npos);
  EXPECT_NE(svg->data.find("+1 input: w f32[2, 3]"), std::string::npos);
}

// x and y are inputs; `view` aliases x; copy_ writes x in place; then
// `read` reads x through the view (no data edge from copy_), `direct`
// reads copy_'s own value, and `add_` writes a fresh buffer nothing reads
// afterwards.
std::unique_ptr<Graph> WritesGraph() {
  return testing_util::ParseForward("x: \"f32[4]\", y: \"f32[4]\"",
                                    "        view: \"f32[2, 2]\" = torch.ops.aten.view.default(x, [2, 2])\n"
                                    "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(x, y)\n"
                                    "        read: \"f32[2, 2]\" = torch.ops.aten.mul.Tensor(view, 2)\n"
                                    "        direct: \"f32[4]\" = torch.ops.aten.mul.Tensor(copy_, 3)\n"
                                    "        fresh: \"f32[4]\" = torch.ops.aten.mul.Tensor(y, 4)\n"
                                    "        add_: \"f32[4]\" = torch.ops.aten.add_.Tensor(fresh, 1)\n"
                                    "        return (read, direct, add_)\n",
                                    "writes.py");
}

TEST(DotWriterTest, AnInPlaceWriteIsAnEdgeToTheNextReaderOfItsBuffer) {
  auto g = WritesGraph();
  std::vector<InplaceWrite> writes = InplaceWriteEdges(*g, OpRegistry::Builtin());
  ASSERT_EQ(writes.size(), 1u);
  EXPECT_EQ(writes[0].writer->name(), "copy_");
  EXPECT_EQ(writes[0].reader->name(), "read");
  auto dot = GraphToDot(*g);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  std::string edge = EdgeLine(*dot, "copy_", "read", "xlabel=writes");
  ASSERT_NE(edge, "") << *dot;
  EXPECT_NE(edge.find("style=dashed"), std::string::npos) << edge;
  EXPECT_NE(edge.find("constraint=false"), std::string::npos) << edge;  // the layout stays as it was
  EXPECT_EQ(Count(*dot, "xlabel=writes"), 1u) << *dot;                  // add_: nothing reads it later
  EXPECT_EQ(Count(*dot, " label=writes"), 0u) << *dot;  // never a label: dot's flat-edge labels crash (dot_writer.h)
  EXPECT_EQ(EdgeLine(*dot, "copy_", "direct", "writes"), "") << *dot;  // the data edge says it
}

TEST(DotWriterTest, NoInPlaceWriteNoWritesEdge) {
  // The same graph with copy (out of place): nothing is written in place.
  auto g = testing_util::ParseForward("x: \"f32[4]\", y: \"f32[4]\"",
                                      "        copy: \"f32[4]\" = torch.ops.aten.copy.default(x, y)\n"
                                      "        read: \"f32[4]\" = torch.ops.aten.mul.Tensor(x, 2)\n"
                                      "        return (read, copy)\n");
  EXPECT_TRUE(InplaceWriteEdges(*g, OpRegistry::Builtin()).empty());
  auto dot = GraphToDot(*g);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  EXPECT_EQ(dot->find("writes"), std::string::npos) << *dot;
  EXPECT_EQ(dot->find("constraint"), std::string::npos) << *dot;
}

// A PNG's width and height, read from its IHDR chunk as any viewer does.
std::pair<uint32_t, uint32_t> PngHeaderSize(const std::string& png) {
  EXPECT_TRUE(png.starts_with("\x89PNG\r\n\x1a\n"));
  EXPECT_EQ(png.substr(12, 4), "IHDR");
  if (png.size() < 24) return {0, 0};
  auto be32 = [&png](size_t at) {
    uint32_t v = 0;
    for (size_t i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(png[at + i]);
    return v;
  };
  return {be32(16), be32(20)};
}

TEST(DotWriterTest, ScaleAndMaxPixelsSizeThePng) {
  auto g = InputsGraph();
  auto plain = RenderGraphData(*g, "png");
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  auto [w, h] = PngHeaderSize(plain->data);
  EXPECT_EQ(plain->info.width, w);
  EXPECT_EQ(plain->info.height, h);
  EXPECT_EQ(plain->info.fitted, 1.0);
  EXPECT_EQ(plain->info.note, "");

  DotOptions twice;
  twice.scale = 2;
  auto big = RenderGraphData(*g, "png", twice);
  ASSERT_TRUE(big.ok()) << big.status().message();
  auto [w2, h2] = PngHeaderSize(big->data);
  EXPECT_NEAR(w2, 2.0 * w, 2.0);
  EXPECT_NEAR(h2, 2.0 * h, 2.0);

  // A cap of a quarter of the pixels: about half a side, never over, and said.
  DotOptions capped;
  capped.max_pixels = static_cast<uint64_t>(w) * h / 4;
  auto small = RenderGraphData(*g, "png", capped);
  ASSERT_TRUE(small.ok()) << small.status().message();
  auto [w3, h3] = PngHeaderSize(small->data);
  EXPECT_LE(static_cast<uint64_t>(w3) * h3, capped.max_pixels);
  EXPECT_NEAR(w3, w / 2.0, w * 0.02 + 2);
  EXPECT_NEAR(small->info.fitted, 0.5, 0.01);
  EXPECT_EQ(small->info.width, w3);
  // 0.5 less the little that keeps graphviz's rounded-up sides under the cap.
  EXPECT_NE(small->info.note.find("drawn at 0.49"), std::string::npos) << small->info.note;
  EXPECT_NE(small->info.note.find(fmt::format("of that size, {} x {} px", w3, h3)), std::string::npos)
      << small->info.note;
  EXPECT_NE(small->info.note.find(fmt::format("would be {} x {} px", w, h)), std::string::npos) << small->info.note;
}

TEST(DotWriterTest, APngIsFittedUnderTheCapAndCairosSideLimit) {
  EXPECT_EQ(PngFitFactor(100, 100, 1'000'000), 1.0);
  // No cap: the side limit alone, within the 0.01% steps that keep a rounded-up side under it.
  double wide = PngFitFactor(1e6, 10, 0);
  EXPECT_LE(std::ceil(1e6 * wide), static_cast<double>(kMaxPngSide));
  EXPECT_GE(std::ceil(1e6 * wide), static_cast<double>(kMaxPngSide) * 0.9998);
  // A quarter of the pixels: half a side, a little less where rounded-up sides would pass the cap.
  double half = PngFitFactor(1001, 1001, 1001 * 1001 / 4);
  EXPECT_NEAR(half, 0.5, 0.001);
  EXPECT_LE(std::ceil(1001 * half) * std::ceil(1001 * half), 1001.0 * 1001 / 4);
  // A cap the side limit is stricter than (a 60000 x 100 px strip).
  double strip = PngFitFactor(60000, 100, 40'000'000);
  EXPECT_LE(std::ceil(60000 * strip), static_cast<double>(kMaxPngSide));
  EXPECT_GE(std::ceil(60000 * strip), static_cast<double>(kMaxPngSide) * 0.9998);
}

TEST(DotWriterTest, ScaleSizesTheSvgAndABadScaleIsAnError) {
  DotOptions twice;
  twice.scale = 2;
  auto plain = RenderGraphData(*TwoStreams(), "svg");
  auto big = RenderGraphData(*TwoStreams(), "svg", twice);
  ASSERT_TRUE(plain.ok() && big.ok());
  EXPECT_EQ(plain->data.find("scale(2 2)"), std::string::npos);
  EXPECT_NE(big->data.find("scale(2 2)"), std::string::npos);
  for (double bad : {0.0, -1.0, std::nan("")}) {
    DotOptions options;
    options.scale = bad;
    auto rendered = RenderGraphData(*TwoStreams(), "png", options);
    ASSERT_FALSE(rendered.ok());
    EXPECT_NE(rendered.status().message().find("not a positive number"), std::string::npos);
  }
}

// x, w0, w1 -> a0 = mm(x, w0) -> b0 = relu(a0) -> a1 = mm(b0, w1) -> b1 = relu(a1) -> out
std::unique_ptr<Graph> TwoLayers() {
  return testing_util::ParseForward("x: \"f32[2, 2]\", w0: \"f32[2, 2]\", w1: \"f32[2, 2]\"",
                                    "        a0: \"f32[2, 2]\" = torch.ops.aten.mm.default(x, w0)\n"
                                    "        b0: \"f32[2, 2]\" = torch.ops.aten.relu.default(a0)\n"
                                    "        a1: \"f32[2, 2]\" = torch.ops.aten.mm.default(b0, w1)\n"
                                    "        b1: \"f32[2, 2]\" = torch.ops.aten.relu.default(a1)\n"
                                    "        c: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(b1, a1)\n"
                                    "        return (c,)\n");
}

TEST(DotWriterTest, AGroupIsOneBoxWithOneEdgeEachWayCountingTheEdges) {
  auto graph = TwoLayers();
  auto groups = std::make_shared<NodeGroups>();
  groups->group_at.assign(graph->size(), NodeGroups::kNone);
  // Positions: x 0, w0 1, w1 2, a0 3, b0 4, a1 5, b1 6, c 7, output 8: the second layer is a group.
  groups->group_at[5] = groups->group_at[6] = 0;
  groups->labels = {"layer 1\nsecond line"};
  DotOptions options;
  options.groups = groups;
  auto dot = GraphToDot(*graph, options);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  // w1 only the group reads: drawn in it; w0 only a0 reads: in a0's label; x stays bundled too.
  EXPECT_EQ(DrawnNodes(*dot), (std::vector<std::string>{"a0", "b0", "c", "group_0", "output"})) << *dot;
  EXPECT_EQ(LabelOf(*dot, "group_0"), "layer 1\\nsecond line\\n+1 input only its nodes read") << *dot;
  EXPECT_NE(EdgeLine(*dot, "b0", "group_0", ""), "") << *dot;
  // c reads b1 and a1, both in the group: one edge, labelled with the two it stands for.
  EXPECT_NE(EdgeLine(*dot, "group_0", "c", "label=x2"), "") << *dot;
  EXPECT_EQ(Count(*dot, "->"), 4u) << *dot;  // a0->b0, b0->group, group->c, c->output
  DrawnCount count = CountDrawn(*graph, options);
  EXPECT_EQ(count.nodes, 5u);
  EXPECT_EQ(count.grouped, 3u);         // a1, b1 and w1
  EXPECT_EQ(count.bundled_inputs, 2u);  // x and w0 in a0's label
  // The drawing's own label counts each once: w1 (one user, in the box) is not in a label.
  EXPECT_EQ(GraphLabel(*dot),
            "3 nodes drawn in 1 3-D box\\l2 inputs with one user drawn in their users' labels (dump --inputs: as "
            "nodes)\\l");
}

TEST(DotWriterTest, WithoutGroupsTheDrawingIsUnchanged) {
  auto graph = TwoLayers();
  DotOptions options;
  options.groups = std::make_shared<NodeGroups>();  // no group at all
  auto with = GraphToDot(*graph, options);
  auto without = GraphToDot(*graph);
  ASSERT_TRUE(with.ok() && without.ok());
  EXPECT_EQ(*with, *without);
}

}  // namespace
}  // namespace airscope

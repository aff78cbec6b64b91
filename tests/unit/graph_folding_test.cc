#include "repl/graph_folding.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "bench/llm_graph.h"
#include "core/fx/fx_text.h"
#include "core/pass/graph_diff.h"
#include "repl/drawing_groups.h"
#include "repl/folded_diff.h"

namespace airscope {
namespace {

size_t Occurrences(const std::string& text, std::string_view what) {
  size_t count = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

TEST(GraphFoldingTest, IndexRangesJoinRuns) {
  EXPECT_EQ(IndexRanges({1, 2, 3, 7, 9, 10, 11, 12}), "1-3, 7, 9-12");
  EXPECT_EQ(IndexRanges({4}), "4");
  EXPECT_EQ(IndexRanges({}), "");
}

TEST(GraphFoldingTest, FoldedTextPrintsOneRepeatAndNamesTheRest) {
  std::unique_ptr<Graph> graph = bench::LlmGraph(5, 4);
  FoldedGraph folded = FoldRepeats(*graph);
  ASSERT_EQ(folded.blocks.size(), 1u);
  ASSERT_EQ(folded.inside.size(), 1u);
  ASSERT_FALSE(folded.inside[0].empty());  // the experts of the shown layer
  std::string text = FoldedFxText(*graph, folded);
  EXPECT_NE(text.find("# 5 repeats of"), std::string::npos) << text;
  EXPECT_NE(text.find("# repeats 1-4 fold: %l1_attn_norm .. %"), std::string::npos) << text;
  EXPECT_NE(text.find("\n      # 4 repeats of 15 nodes"), std::string::npos) << text;
  // Every node line printed is a node of the graph; the folded ones are not printed.
  size_t node_lines = Occurrences(text, "\n    %") + Occurrences(text, "\n      %") + Occurrences(text, "\n    return");
  EXPECT_EQ(node_lines, graph->size() - folded.FoldedNodes());
  EXPECT_EQ(Occurrences(text, "%l1_e0_w1 : "), 0u);
  EXPECT_EQ(Occurrences(text, "%l0_e0_w1 : "), 1u);
}

TEST(GraphFoldingTest, DifferencesNameTheNodeAndBothValues) {
  std::unique_ptr<Graph> graph = bench::LlmGraph(1, 3);
  RepeatOptions experts;
  std::vector<RepeatedBlock> blocks = FindRepeatedBlocks(*graph, experts);
  auto it = std::find_if(blocks.begin(), blocks.end(), [](const RepeatedBlock& b) { return b.count == 3; });
  ASSERT_NE(it, blocks.end());
  std::vector<std::string> lines = DifferenceLines(graph->Nodes(), *it, 5);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0],
            "repeats 1-2 differ in constants: %select_1 reads (%_softmax_1, 1, 1) where repeat 0's %select reads "
            "(%_softmax_1, 1, 0)");
}

TEST(FoldedDiffTest, AlikeChangesFoldAndSayWhere) {
  std::unique_ptr<Graph> before = bench::LlmGraph(6, 1);
  std::unique_ptr<Graph> after = before->Clone();
  for (Node* node : after->Nodes()) {
    if (node->target() == "torch.ops.aten.rsqrt.default") after->SetTarget(node, "torch.ops.aten.sqrt.default");
  }
  std::string a = PrintFxText(*before);
  std::string b = PrintFxText(*after);
  std::string bare = UnifiedDiff(a, b, "a", "b", 0);
  FoldedDiff folded = FoldAlikeHunks(bare, *before, *after, "fx", 3);
  EXPECT_EQ(folded.hunks, 12u);  // two norms a layer
  EXPECT_EQ(folded.folded, 11u);
  EXPECT_NE(folded.text.find("@@ x 12 alike hunks: the same change under other names in repeats 0-5 of 6 repeats"),
            std::string::npos)
      << folded.text;
  EXPECT_EQ(Occurrences(folded.text, "+    %"), 1u);
  EXPECT_EQ(folded.added, 12u);  // counted over every hunk, folded or not
  EXPECT_EQ(folded.removed, 12u);
  ASSERT_EQ(folded.groups.size(), 1u);
  EXPECT_EQ(folded.groups[0].hunks, 12u);
  EXPECT_TRUE(folded.groups[0].where.starts_with(" in repeats 0-5 of 6 repeats of")) << folded.groups[0].where;
  // The same folding as data, per hunk: the first kept with the note the text prints after it.
  ASSERT_EQ(folded.hidden.size(), 12u);
  ASSERT_EQ(folded.note_after.size(), 12u);
  EXPECT_FALSE(folded.hidden[0]);
  EXPECT_EQ(std::count(folded.hidden.begin(), folded.hidden.end(), true), 11);
  EXPECT_NE(folded.text.find("@@ " + folded.note_after[0]), std::string::npos);
  EXPECT_TRUE(std::all_of(folded.note_after.begin() + 1, folded.note_after.end(),
                          [](const std::string& note) { return note.empty(); }));
  // Fewer alike than the threshold: nothing folds.
  EXPECT_EQ(FoldAlikeHunks(bare, *before, *after, "fx", 13).folded, 0u);
}

TEST(FoldedDiffTest, ADifferentConstantKeepsItsOwnHunk) {
  std::unique_ptr<Graph> before = bench::LlmGraph(4, 1);
  std::unique_ptr<Graph> after = before->Clone();
  int seen = 0;
  for (Node* node : after->Nodes()) {
    if (node->target() != "torch.ops.aten.mul.Tensor" || node->args().size() != 2 || node->args()[1].is_node())
      continue;
    if (node->args()[1].as_float() != 0.25) continue;
    // Every layer's attention scale becomes 0.5, layer 2's 0.125.
    after->SetArgs(node, {node->args()[0], Argument::Float(seen++ == 2 ? 0.125 : 0.5)});
  }
  ASSERT_EQ(seen, 4);
  std::string bare = UnifiedDiff(PrintFxText(*before), PrintFxText(*after), "a", "b", 0);
  FoldedDiff folded = FoldAlikeHunks(bare, *before, *after, "fx", 3);
  EXPECT_EQ(folded.hunks, 4u);
  EXPECT_EQ(folded.folded, 2u);
  EXPECT_NE(folded.text.find("0.125"), std::string::npos);
}

TEST(FoldedSpansTest, TheRepeatsOnEitherSideOfTheShownOneFold) {
  RepeatedBlock block;
  block.count = 94;
  FoldedSpans first = FoldedSpansOf(block);
  EXPECT_FALSE(first.before);
  ASSERT_TRUE(first.after);
  EXPECT_EQ(first.after->Label(), "repeats 1-93");
  block.reference = 1;
  FoldedSpans second = FoldedSpansOf(block);
  ASSERT_TRUE(second.before);
  EXPECT_EQ(second.before->Label(), "repeat 0");
  EXPECT_EQ(second.after->Label(), "repeats 2-93");
  block.count = 2;
  EXPECT_FALSE(FoldedSpansOf(block).after);
}

TEST(DrawingGroupsTest, FoldedRangesAreTheRepeatsBeforeAndAfterTheShownOne) {
  std::unique_ptr<Graph> graph = bench::LlmGraph(5, 4);
  FoldedGraph folded = FoldRepeats(*graph);
  std::vector<FoldedRange> ranges = FoldedRanges(*graph, folded);
  size_t nodes = 0;
  for (size_t i = 0; i < ranges.size(); ++i) {
    nodes += ranges[i].end - ranges[i].begin;
    if (i > 0) {
      EXPECT_LE(ranges[i - 1].end, ranges[i].begin);  // in order, never overlapping
    }
  }
  EXPECT_EQ(nodes, folded.FoldedNodes());
  // The layers after the shown one, and the experts after the shown expert inside it.
  auto layers = std::find_if(ranges.begin(), ranges.end(),
                             [](const FoldedRange& r) { return r.label.starts_with("repeats 1-4 of 5 folded\n4 x "); });
  ASSERT_NE(layers, ranges.end());
  EXPECT_NE(layers->label.find("%l1_attn_norm .. %"), std::string::npos) << layers->label;
  std::shared_ptr<NodeGroups> groups = FoldGroups(*graph, ranges);
  EXPECT_EQ(groups->labels.size(), ranges.size());
  EXPECT_EQ(groups->group_at[layers->begin], static_cast<uint32_t>(layers - ranges.begin()));
  EXPECT_EQ(groups->group_at[0], NodeGroups::kNone);
}

}  // namespace
}  // namespace airscope

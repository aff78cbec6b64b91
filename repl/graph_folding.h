// A graph's repeated blocks (core/analysis/repeated_blocks.h) as the shell
// shows them: `show` prints one repeat of each block and a line for the rest,
// `repeats` lists the blocks, and `diff` says which repeats a folded hunk
// stands for. One level of blocks inside the shown repeat is folded too (the
// experts inside an LLM layer), so a million-node MoE graph prints a few
// hundred lines.
//
// Folding never hides a difference: a repeat whose shapes or constants
// differ from the shown one is named under the block, with the first node
// that differs and both values.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <optional>
#include <vector>

#include "core/analysis/repeated_blocks.h"
#include "core/ir/graph.h"

namespace airscope {

struct FoldedGraph {
  std::vector<RepeatedBlock> blocks;               // top level, by start
  std::vector<std::vector<RepeatedBlock>> inside;  // per top block: blocks inside its reference repeat
  size_t FoldedNodes() const;                      // nodes the folded text leaves out
};

FoldedGraph FoldRepeats(const Graph& graph);

// "94 repeats of 10,631 nodes (%l0_attn_norm .. %add_204 is repeat 0)".
std::string BlockSummary(const std::vector<Node*>& nodes, const RepeatedBlock& block);
// One line per group of repeats differing from the reference at the same
// node in the same way, at most `max_lines` then "... N more"; empty when
// all repeats are alike.
std::vector<std::string> DifferenceLines(const std::vector<Node*>& nodes, const RepeatedBlock& block, size_t max_lines);
// "1-3, 7, 9-12" (runs of consecutive indices joined by `separator`).
std::string IndexRanges(const std::vector<size_t>& indices, std::string_view separator = ", ");

// Repeats first..last (inclusive) of a block.
struct RepeatSpan {
  size_t first = 0;
  size_t last = 0;
  std::string Label() const;  // "repeat 0", "repeats 2-93"
};
// The repeats of `block` that fold, on either side of the reference repeat
// (the one shown): every fold of a block, in text and in drawings, is these.
struct FoldedSpans {
  std::optional<RepeatSpan> before;
  std::optional<RepeatSpan> after;
};
FoldedSpans FoldedSpansOf(const RepeatedBlock& block);

// FX graph text (PrintFxText's) with each block printed as its reference
// repeat between comment lines saying what was left out.
std::string FoldedFxText(const Graph& graph, const FoldedGraph& folded);

}  // namespace airscope

// Repeated blocks: runs of consecutive nodes that repeat, back to back, with
// the same ops wired the same way (the 94 decoder layers of an LLM, the
// inverted-residual blocks of a MobileNet). What `show`, `diff` and the
// drawings fold.
//
// Two nodes d apart correspond when they have the same op kind and target,
// the same number of args and the same kwarg names, and each node argument of
// the later one is the earlier one's argument moved d on (the same wiring one
// repeat later), or the very same node (a mask all layers read), or either is
// a graph input (placeholders / get_attr: each layer's own weights, or the
// graph input the first layer reads where the others read the layer before). Constant
// arguments and shapes are not part of the structure: repeats that differ in
// them are still one block, and `differences` says where (the layer whose
// view is [64, 128] where the others' is [32, 128]).
//
// How it is found, in O(nodes x candidates): the gaps between the
// occurrences of each op (up to the fourth next one) vote for a period; for
// the most voted periods every node is compared with the node one period on,
// and each run of corresponding nodes at least one period long is a block of
// floor((run + period) / period) repeats starting at the run's first node.
// Blocks are picked greedily by the nodes they cover (the shorter period on a
// tie: a period of two layers covers what one layer's does), never
// overlapping. A repeat starts at the earliest node the structure allows;
// nothing here reads module names (torch's FX text has none).
//
// Contract: pure, reads the graph only, deterministic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/ir/graph.h"

namespace airscope {

// Where one repeat differs from the block's reference repeat: the first node
// (by offset in the repeat) whose shape or constant arguments differ.
struct RepeatDifference {
  size_t repeat = 0;  // index of the differing repeat
  size_t offset = 0;  // node offset inside the repeat
  enum class What : uint8_t { kShape, kConstants } what = What::kShape;
};

struct RepeatedBlock {
  size_t start = 0;   // graph position of repeat 0's first node
  size_t length = 0;  // nodes in one repeat (the period)
  size_t count = 0;   // repeats, >= 2
  // The repeat most others are alike to, in shapes and constants: repeat 0
  // unless more than half of the others differ from it.
  size_t reference = 0;
  // One entry per repeat that differs from the reference, in repeat order.
  std::vector<RepeatDifference> differences;

  size_t RepeatStart(size_t repeat) const { return start + repeat * length; }
  size_t end() const { return start + count * length; }  // one past the last repeat
};

struct RepeatOptions {
  size_t min_count = 2;   // repeats
  size_t min_length = 2;  // nodes in a repeat
  size_t min_nodes = 8;   // nodes covered by all repeats together
  size_t max_blocks = 16;
  size_t candidate_periods = 12;  // most voted periods compared
  // Only nodes at positions [begin, end) (the repeats inside one repeat).
  size_t begin = 0;
  size_t end = SIZE_MAX;
};

// The repeated blocks of `graph`, by start position.
std::vector<RepeatedBlock> FindRepeatedBlocks(const Graph& graph, const RepeatOptions& options = {});

}  // namespace airscope

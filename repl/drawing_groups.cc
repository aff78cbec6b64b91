#include "repl/drawing_groups.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

namespace airscope {
namespace {

// The repeats `span` of `block`, with the differences of those repeats.
FoldedRange RepeatRange(const std::vector<Node*>& nodes, const RepeatedBlock& block, const RepeatSpan& span) {
  FoldedRange range;
  range.begin = block.RepeatStart(span.first);
  range.end = block.RepeatStart(span.last + 1);
  range.label =
      fmt::format("{} of {} folded\n{} x {} nodes: %{} .. %{}", span.Label(), block.count, span.last - span.first + 1,
                  block.length, nodes[range.begin]->name(), nodes[range.end - 1]->name());
  RepeatedBlock these = block;
  these.differences.clear();
  for (const RepeatDifference& d : block.differences) {
    if (d.repeat >= span.first && d.repeat <= span.last) these.differences.push_back(d);
  }
  if (these.differences.empty()) {
    range.label += fmt::format("\nshapes and constants as in repeat {}", block.reference);
  }
  for (const std::string& line : DifferenceLines(nodes, these, 3)) range.label += "\n" + line;
  return range;
}

void AddBlockRanges(const std::vector<Node*>& nodes, const RepeatedBlock& block, std::vector<FoldedRange>& out) {
  const FoldedSpans spans = FoldedSpansOf(block);
  if (spans.before) out.push_back(RepeatRange(nodes, block, *spans.before));
  if (spans.after) out.push_back(RepeatRange(nodes, block, *spans.after));
}

}  // namespace

std::vector<FoldedRange> FoldedRanges(const Graph& graph, const FoldedGraph& folded) {
  const std::vector<Node*> nodes = graph.Nodes();
  std::vector<FoldedRange> ranges;
  for (size_t b = 0; b < folded.blocks.size(); ++b) {
    AddBlockRanges(nodes, folded.blocks[b], ranges);
    if (b < folded.inside.size()) {
      for (const RepeatedBlock& inner : folded.inside[b]) AddBlockRanges(nodes, inner, ranges);
    }
  }
  std::sort(ranges.begin(), ranges.end(), [](const FoldedRange& x, const FoldedRange& y) { return x.begin < y.begin; });
  return ranges;
}

std::shared_ptr<NodeGroups> FoldGroups(const Graph& graph, const std::vector<FoldedRange>& ranges) {
  auto groups = std::make_shared<NodeGroups>();
  groups->group_at.assign(graph.size(), NodeGroups::kNone);
  for (const FoldedRange& range : ranges) {
    const auto group = static_cast<uint32_t>(groups->labels.size());
    std::fill(groups->group_at.begin() + static_cast<std::ptrdiff_t>(range.begin),
              groups->group_at.begin() + static_cast<std::ptrdiff_t>(std::min(range.end, graph.size())), group);
    groups->labels.push_back(range.label);
  }
  return groups;
}

std::shared_ptr<NodeGroups> RunGroups(const Graph& graph, const std::vector<NodeRun>& runs, RunKey key) {
  auto groups = std::make_shared<NodeGroups>();
  groups->group_at.assign(graph.size(), NodeGroups::kNone);
  const std::vector<Node*> nodes = graph.Nodes();
  for (const NodeRun& run : runs) {
    if (run.key.empty() || run.end - run.begin < 2) continue;
    const auto group = static_cast<uint32_t>(groups->labels.size());
    std::fill(groups->group_at.begin() + static_cast<std::ptrdiff_t>(run.begin),
              groups->group_at.begin() + static_cast<std::ptrdiff_t>(run.end), group);
    std::string label = key == RunKey::kStream ? "stream " + run.key : run.key;
    if (!run.code.empty()) label += "\n" + run.code;
    label += fmt::format("\n{} nodes: %{} .. %{}", run.end - run.begin, nodes[run.begin]->name(),
                         nodes[run.end - 1]->name());
    groups->labels.push_back(std::move(label));
  }
  return groups;
}

}  // namespace airscope

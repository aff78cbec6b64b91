#include "repl/graph_folding.h"

#include <fmt/format.h>

#include <map>
#include <utility>

#include "core/fx/fx_text.h"
#include "core/fx/python_repr.h"
#include "repl/graph_views.h"

namespace airscope {

size_t FoldedGraph::FoldedNodes() const {
  size_t folded = 0;
  for (size_t b = 0; b < blocks.size(); ++b) {
    folded += (blocks[b].count - 1) * blocks[b].length;
    for (const RepeatedBlock& inner : inside[b]) folded += (inner.count - 1) * inner.length;
  }
  return folded;
}

std::string RepeatSpan::Label() const {
  return first == last ? fmt::format("repeat {}", first) : fmt::format("repeats {}-{}", first, last);
}

FoldedSpans FoldedSpansOf(const RepeatedBlock& block) {
  FoldedSpans spans;
  if (block.reference > 0) spans.before = RepeatSpan{0, block.reference - 1};
  if (block.reference + 1 < block.count) spans.after = RepeatSpan{block.reference + 1, block.count - 1};
  return spans;
}

FoldedGraph FoldRepeats(const Graph& graph) {
  FoldedGraph folded;
  folded.blocks = FindRepeatedBlocks(graph);
  for (const RepeatedBlock& block : folded.blocks) {
    RepeatOptions inside;
    inside.begin = block.RepeatStart(block.reference);
    inside.end = inside.begin + block.length;
    folded.inside.push_back(FindRepeatedBlocks(graph, inside));
  }
  return folded;
}

std::string BlockSummary(const std::vector<Node*>& nodes, const RepeatedBlock& block) {
  size_t first = block.RepeatStart(block.reference);
  return fmt::format("{} repeats of {} nodes (%{} .. %{} is repeat {})", block.count, block.length,
                     nodes[first]->name(), nodes[first + block.length - 1]->name(), block.reference);
}

std::string IndexRanges(const std::vector<size_t>& indices, std::string_view separator) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < indices.size();) {
    size_t j = i;
    while (j + 1 < indices.size() && indices[j + 1] == indices[j] + 1) ++j;
    parts.push_back(j == i ? fmt::format("{}", indices[i]) : fmt::format("{}-{}", indices[i], indices[j]));
    i = j + 1;
  }
  return fmt::format("{}", fmt::join(parts, separator));
}

namespace {

std::string ArgsText(const Node& node) {
  std::vector<Argument> args(node.args().begin(), node.args().end());
  return FormatFxArg(Argument::Tuple(std::move(args)));
}

}  // namespace

std::vector<std::string> DifferenceLines(const std::vector<Node*>& nodes, const RepeatedBlock& block,
                                         size_t max_lines) {
  // Repeats that differ at the same node in the same way form one line.
  std::map<std::pair<size_t, RepeatDifference::What>, std::vector<size_t>> groups;
  for (const RepeatDifference& difference : block.differences) {
    groups[{difference.offset, difference.what}].push_back(difference.repeat);
  }
  std::vector<std::string> lines;
  for (const auto& [where, repeats] : groups) {
    if (lines.size() == max_lines) {
      lines.push_back(fmt::format("... and {} more differences", groups.size() - max_lines));
      break;
    }
    const Node& reference = *nodes[block.RepeatStart(block.reference) + where.first];
    const Node& first = *nodes[block.RepeatStart(repeats.front()) + where.first];
    std::string label = repeats.size() == 1 ? fmt::format("repeat {} differs", repeats.front())
                                            : fmt::format("repeats {} differ", IndexRanges(repeats));
    if (where.second == RepeatDifference::What::kShape) {
      lines.push_back(fmt::format("{} in shape: %{} is {} where repeat {}'s %{} is {}", label, first.name(),
                                  ValueString(first), block.reference, reference.name(), ValueString(reference)));
    } else {
      lines.push_back(fmt::format("{} in constants: %{} reads {} where repeat {}'s %{} reads {}", label, first.name(),
                                  ArgsText(first), block.reference, reference.name(), ArgsText(reference)));
    }
  }
  return lines;
}

namespace {

// Appends `nodes[begin, end)` as FX lines, folding `blocks` (which lie in
// that range, by start) and, one level down, `inside` of each.
void AppendFolded(fmt::memory_buffer& out, const Graph& graph, const std::vector<Node*>& nodes, size_t begin,
                  size_t end, const std::vector<RepeatedBlock>& blocks,
                  const std::vector<std::vector<RepeatedBlock>>* inside, const std::string& indent) {
  auto line = [&](std::string_view text) { fmt::format_to(std::back_inserter(out), "\n    {}{}", indent, text); };
  size_t at = begin;
  for (size_t b = 0; b < blocks.size(); ++b) {
    const RepeatedBlock& block = blocks[b];
    for (; at < block.start; ++at) line(PrintFxNode(graph, *nodes[at]));
    line(fmt::format("# {}; the others fold (show --all prints every node)", BlockSummary(nodes, block)));
    for (const std::string& difference : DifferenceLines(nodes, block, 5)) line(fmt::format("#   {}", difference));
    size_t shown = block.RepeatStart(block.reference);
    const FoldedSpans spans = FoldedSpansOf(block);
    if (spans.before) {
      line(fmt::format("# {} fold: %{} .. %{}", spans.before->Label(), nodes[block.start]->name(),
                       nodes[shown - 1]->name()));
    }
    at = shown + block.length;
    if (inside && !(*inside)[b].empty()) {
      AppendFolded(out, graph, nodes, shown, at, (*inside)[b], nullptr, indent + "  ");
    } else {
      for (size_t k = shown; k < at; ++k) line(PrintFxNode(graph, *nodes[k]));
    }
    if (spans.after) {
      line(fmt::format("# {} fold: %{} .. %{}", spans.after->Label(), nodes[at]->name(),
                       nodes[block.end() - 1]->name()));
    }
    at = block.end();
  }
  for (; at < end; ++at) line(PrintFxNode(graph, *nodes[at]));
}

}  // namespace

std::string FoldedFxText(const Graph& graph, const FoldedGraph& folded) {
  const std::vector<Node*> nodes = graph.Nodes();
  fmt::memory_buffer out;
  fmt::format_to(std::back_inserter(out), "graph():");
  AppendFolded(out, graph, nodes, 0, nodes.size(), folded.blocks, &folded.inside, "");
  return std::string(out.data(), out.size());
}

}  // namespace airscope

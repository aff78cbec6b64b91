#include "core/analysis/repeated_blocks.h"

#include <algorithm>
#include <array>
#include <functional>
#include <optional>
#include <span>

#include "core/ir/flat_pointer_map.h"

namespace airscope {
namespace {

bool IsGraphInput(const Node* node) { return node->op() == OpKind::kPlaceholder || node->op() == OpKind::kGetAttr; }

uint64_t Mix(uint64_t hash, uint64_t value) {
  return hash ^ (value + 0x9E3779B97F4A7C15ULL + (hash << 6) + (hash >> 2));
}

// The structure test of the header, on a table made in one pass over the
// nodes, so that testing a period reads contiguous arrays, not nodes (a
// wrong period that keeps meeting alike ops cost 55 ms a period on a million
// nodes when each test read both nodes' arguments). Per node: a key (op kind,
// interned target, arity), a hash of its arguments' layout (kinds, sequence
// lengths, kwarg names: everything but which nodes and which constants), and
// the positions of the nodes it reads, in order (kInput for a graph input).
class Structure {
 public:
  Structure(const Graph& graph, std::span<Node* const> nodes) {
    const size_t n = nodes.size();
    keys_.resize(n);
    layouts_.resize(n);
    input_.resize(n);
    first_ref_.reserve(n + 1);
    first_ref_.push_back(0);
    for (size_t i = 0; i < n; ++i) {
      const Node& node = *nodes[i];
      input_[i] = IsGraphInput(&node);
      uint64_t target = input_[i] ? 0 : std::hash<const std::string*>{}(&node.target());  // interned
      keys_[i] = Mix(Mix(Mix(target, static_cast<uint64_t>(node.op())), node.args().size()), node.kwargs().size());
      uint64_t layout = 0;
      for (const Argument& arg : node.args()) layout = Layout(graph, arg, layout);
      for (const Kwarg& kwarg : node.kwargs()) {
        layout = Layout(graph, kwarg.value, Mix(layout, std::hash<std::string>{}(kwarg.name)));
      }
      layouts_[i] = layout;
      first_ref_.push_back(static_cast<uint32_t>(refs_.size()));
    }
  }

  uint64_t key(size_t i) const { return keys_[i]; }

  bool Correspond(size_t earlier, size_t period) const {
    const size_t later = earlier + period;
    if (keys_[earlier] != keys_[later]) return false;
    if (input_[earlier]) return true;  // each repeat's own weights, read in order
    if (layouts_[earlier] != layouts_[later]) return false;
    const uint32_t* a = refs_.data() + first_ref_[earlier];
    const uint32_t* b = refs_.data() + first_ref_[later];
    const size_t count = first_ref_[earlier + 1] - first_ref_[earlier];
    if (count != first_ref_[later + 1] - first_ref_[later]) return false;
    for (size_t j = 0; j < count; ++j) {
      // A graph input on either side: each repeat's own weights, or the
      // first layer reading the graph's input where later ones read the
      // layer before. The same node: one all repeats read (a mask).
      if (a[j] == kInput || b[j] == kInput || a[j] == b[j]) continue;
      if (b[j] != a[j] + period) return false;
    }
    return true;
  }

 private:
  static constexpr uint32_t kInput = UINT32_MAX;

  uint64_t Layout(const Graph& graph, const Argument& arg, uint64_t hash) {
    hash = Mix(hash, static_cast<uint64_t>(arg.kind()));
    if (arg.is_node()) {
      const Node* input = arg.as_node();
      refs_.push_back(IsGraphInput(input) ? kInput : graph.PositionOf(input));
    } else if (arg.is_sequence()) {
      hash = Mix(hash, arg.items().size());
      for (const Argument& item : arg.items()) hash = Layout(graph, item, hash);
    }
    return hash;  // a constant: its value is a difference, not structure
  }

  std::vector<uint64_t> keys_;
  std::vector<uint64_t> layouts_;
  std::vector<uint8_t> input_;
  std::vector<uint32_t> first_ref_;  // refs_ of node i: [first_ref_[i], first_ref_[i + 1])
  std::vector<uint32_t> refs_;
};

// The periods the op occurrences vote for, most voted first.
std::vector<size_t> CandidatePeriods(std::span<Node* const> nodes, const RepeatOptions& options) {
  const size_t n = nodes.size();
  const size_t longest = n / std::max<size_t>(options.min_count, 2);
  if (longest < options.min_length) return {};
  // A vote weighs 1 / (the op's occurrences): every op then has one vote in
  // all to give, and the layer length, which every op of a layer votes for,
  // wins over the short gaps a frequent op (a view in every head) votes for
  // many times.
  struct Recent {
    std::array<uint32_t, 4> at{};  // the last four positions: an op up to four times a layer still votes
    uint32_t seen = 0;
    uint32_t total = 0;
  };
  FlatPointerMap<std::string, Recent> recent;
  for (Node* node : nodes) {
    if (!IsGraphInput(node)) ++recent[&node->target()].total;
  }
  std::vector<float> votes(longest + 1, 0.0F);
  for (size_t i = 0; i < n; ++i) {
    if (IsGraphInput(nodes[i])) continue;
    Recent& r = *recent.Find(&nodes[i]->target());
    float weight = 1.0F / static_cast<float>(r.total);
    for (uint32_t k = 0; k < std::min<uint32_t>(r.seen, 4); ++k) {
      size_t gap = i - r.at[k];
      if (gap <= longest) votes[gap] += weight;
    }
    r.at[r.seen % 4] = static_cast<uint32_t>(i);
    ++r.seen;
  }
  std::vector<size_t> periods;
  for (size_t gap = std::max<size_t>(options.min_length, 1); gap <= longest; ++gap) {
    if (votes[gap] > 0) periods.push_back(gap);
  }
  size_t keep = std::min(periods.size(), options.candidate_periods);
  std::partial_sort(periods.begin(), periods.begin() + static_cast<std::ptrdiff_t>(keep), periods.end(),
                    [&votes](size_t a, size_t b) { return votes[a] != votes[b] ? votes[a] > votes[b] : a < b; });
  periods.resize(keep);
  return periods;
}

// Meta and constants equal, node references aside (they differ by design).
bool SameConstants(const Argument& a, const Argument& b) {
  if (a.is_node() && b.is_node()) return true;
  if (a.is_sequence() && b.is_sequence()) {
    if (a.kind() != b.kind() || a.items().size() != b.items().size()) return false;
    for (size_t i = 0; i < a.items().size(); ++i) {
      if (!SameConstants(a.items()[i], b.items()[i])) return false;
    }
    return true;
  }
  return a.SameAs(b);
}

std::optional<RepeatDifference::What> Differs(const Node& a, const Node& b) {
  const NodeMeta* x = a.meta();
  const NodeMeta* y = b.meta();
  if ((x == nullptr) != (y == nullptr)) return RepeatDifference::What::kShape;
  if (x && (x->kind != y->kind || x->tensors != y->tensors || x->annotation != y->annotation)) {
    return RepeatDifference::What::kShape;
  }
  for (size_t i = 0; i < a.args().size(); ++i) {
    if (!SameConstants(a.args()[i], b.args()[i])) return RepeatDifference::What::kConstants;
  }
  for (size_t i = 0; i < a.kwargs().size(); ++i) {
    if (!SameConstants(a.kwargs()[i].value, b.kwargs()[i].value)) return RepeatDifference::What::kConstants;
  }
  return std::nullopt;
}

std::vector<RepeatDifference> DifferencesFrom(std::span<Node* const> nodes, const RepeatedBlock& block,
                                              size_t reference) {
  std::vector<RepeatDifference> differences;
  for (size_t r = 0; r < block.count; ++r) {
    if (r == reference) continue;
    for (size_t k = 0; k < block.length; ++k) {
      auto what = Differs(*nodes[block.RepeatStart(reference) + k], *nodes[block.RepeatStart(r) + k]);
      if (!what) continue;
      differences.push_back({r, k, *what});
      break;
    }
  }
  return differences;
}

void FindDifferences(std::span<Node* const> nodes, RepeatedBlock& block) {
  block.differences = DifferencesFrom(nodes, block, 0);
  // Repeat 0 is the odd one out (a first layer unlike the rest): compare
  // with a repeat that differs from it instead, if most are like that one.
  if (block.differences.size() * 2 > block.count - 1) {
    size_t other = block.differences.front().repeat;
    std::vector<RepeatDifference> from_other = DifferencesFrom(nodes, block, other);
    if (from_other.size() < block.differences.size()) {
      block.reference = other;
      block.differences = std::move(from_other);
    }
  }
}

}  // namespace

std::vector<RepeatedBlock> FindRepeatedBlocks(const Graph& graph, const RepeatOptions& options) {
  const std::vector<Node*> all = graph.Nodes();
  const size_t begin = std::min(options.begin, all.size());
  const size_t end = std::clamp(options.end, begin, all.size());
  std::span<Node* const> nodes = std::span<Node* const>(all).subspan(begin, end - begin);
  const size_t n = nodes.size();
  const Structure structure(graph, nodes);
  std::vector<RepeatedBlock> runs;
  for (size_t period : CandidatePeriods(nodes, options)) {
    size_t run_start = 0;
    size_t run_length = 0;
    // A run of graph inputs alone (forward's parameter list) is not a block:
    // they all correspond to each other.
    auto has_op = [&](size_t first) {
      return std::any_of(nodes.begin() + static_cast<std::ptrdiff_t>(first),
                         nodes.begin() + static_cast<std::ptrdiff_t>(first + period),
                         [](const Node* node) { return !IsGraphInput(node); });
    };
    auto close_run = [&] {
      if (run_length >= period) {
        size_t count = (run_length + period) / period;
        if (count >= options.min_count && count * period >= options.min_nodes && has_op(run_start)) {
          runs.push_back(
              {.start = begin + run_start, .length = period, .count = count, .reference = 0, .differences = {}});
        }
      }
      run_length = 0;
    };
    for (size_t i = 0; i + period < n; ++i) {
      if (structure.Correspond(i, period)) {
        if (run_length == 0) run_start = i;
        ++run_length;
      } else if (run_length > 0) {
        close_run();
      }
    }
    close_run();
  }
  // Greedy: the most nodes covered first; on a tie the shorter period, then
  // the earlier start.
  std::sort(runs.begin(), runs.end(), [](const RepeatedBlock& a, const RepeatedBlock& b) {
    size_t covered_a = a.count * a.length;
    size_t covered_b = b.count * b.length;
    if (covered_a != covered_b) return covered_a > covered_b;
    if (a.length != b.length) return a.length < b.length;
    return a.start < b.start;
  });
  std::vector<RepeatedBlock> picked;
  for (RepeatedBlock& run : runs) {
    if (picked.size() == options.max_blocks) break;
    bool overlaps = std::any_of(picked.begin(), picked.end(), [&run](const RepeatedBlock& other) {
      return run.start < other.end() && other.start < run.end();
    });
    if (overlaps) continue;
    FindDifferences(all, run);
    picked.push_back(std::move(run));
  }
  std::sort(picked.begin(), picked.end(),
            [](const RepeatedBlock& a, const RepeatedBlock& b) { return a.start < b.start; });
  return picked;
}

}  // namespace airscope

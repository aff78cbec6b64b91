#include "core/analysis/graph_neighbourhood.h"

#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <unordered_map>

namespace airscope {
namespace {

// Calls fn(next) for every node one hop from `node` in `direction`.
template <typename Fn>
void ForEachNeighbour(const Node& node, Direction direction, Fn&& fn) {
  if (direction == Direction::kUsers) {
    for (const Node* user : node.users()) fn(user);
    return;
  }
  for (const Node* input : node.inputs()) fn(input);
}

bool ByPosition(const Graph& graph, const Node* a, const Node* b) { return graph.PositionOf(a) < graph.PositionOf(b); }

}  // namespace

Neighbourhood NodesAround(const Graph& graph, const Node& centre, int hops, size_t max_nodes) {
  Neighbourhood around;
  std::unordered_map<const Node*, int> found{{&centre, 0}};
  // One breadth-first walk per direction: the nearest nodes are found first,
  // so a cut at max_nodes keeps the closest ones.
  for (Direction direction : {Direction::kProducers, Direction::kUsers}) {
    int sign = direction == Direction::kProducers ? -1 : 1;
    std::deque<std::pair<const Node*, int>> queue{{&centre, 0}};
    while (!queue.empty()) {
      const Node* node = queue.front().first;
      const int distance = queue.front().second;  // not a structured binding: lambdas capture it
      queue.pop_front();
      if (distance == hops) continue;
      ForEachNeighbour(*node, direction, [&](const Node* next) {
        if (found.contains(next)) return;
        if (found.size() >= max_nodes) {
          around.truncated = true;
          return;
        }
        found.emplace(next, sign * (distance + 1));
        (direction == Direction::kProducers ? around.producers : around.users) += 1;
        queue.emplace_back(next, distance + 1);
      });
    }
  }
  around.nodes.reserve(found.size());
  for (const auto& [node, distance] : found) around.nodes.push_back({node, distance});
  std::sort(around.nodes.begin(), around.nodes.end(),
            [&graph](const NearNode& a, const NearNode& b) { return ByPosition(graph, a.node, b.node); });
  return around;
}

std::vector<const Node*> DataPath(const Graph& graph, const Node& from, const Node& to) {
  if (&from == &to) return {&from};
  const uint32_t first = graph.PositionOf(&from);
  const uint32_t last = graph.PositionOf(&to);
  if (first > last) return {};  // in topological order nothing before `from` depends on it
  // Breadth first from `to` up through its inputs, never above `from`: in
  // topological order every node on a chain from `from` to `to` lies
  // between the two. next[p] is the node one hop nearer `to` on a shortest
  // chain (so following it from `from` walks the chain forward).
  std::vector<const Node*> next(last - first + 1, nullptr);
  std::deque<const Node*> queue{&to};
  next[last - first] = &to;
  while (!queue.empty()) {
    const Node* node = queue.front();
    queue.pop_front();
    for (const Node* input : node->inputs()) {
      uint32_t position = graph.PositionOf(input);
      if (position < first || position > last || next[position - first]) continue;
      next[position - first] = node;
      if (input == &from) {
        std::vector<const Node*> path{&from};
        for (const Node* step = node; step != &to; step = next[graph.PositionOf(step) - first]) path.push_back(step);
        path.push_back(&to);
        return path;
      }
      queue.push_back(input);
    }
  }
  return {};
}

Closure TransitiveClosure(const Graph& graph, const Node& node, Direction direction) {
  Closure closure;
  std::vector<uint8_t> seen(graph.size(), 0);
  seen[graph.PositionOf(&node)] = 1;
  std::vector<const Node*> stack{&node};
  while (!stack.empty()) {
    const Node* at = stack.back();
    stack.pop_back();
    ForEachNeighbour(*at, direction, [&](const Node* next) {
      uint8_t& flag = seen[graph.PositionOf(next)];
      if (flag) return;
      flag = 1;
      closure.nodes.push_back(next);
      stack.push_back(next);
    });
  }
  std::sort(closure.nodes.begin(), closure.nodes.end(),
            [&graph](const Node* a, const Node* b) { return ByPosition(graph, a, b); });
  // The longest chain: in graph order for users (every input of a node comes
  // before it), in reverse for producers (every user comes after).
  std::vector<int32_t> depth(graph.size(), -1);
  depth[graph.PositionOf(&node)] = 0;
  const Direction back = direction == Direction::kUsers ? Direction::kProducers : Direction::kUsers;
  auto longest = [&](const Node* at) {
    int32_t best = 0;
    ForEachNeighbour(*at, back, [&](const Node* previous) {
      best = std::max(best, depth[graph.PositionOf(previous)] + 1);  // -1 + 1: not in the closure
    });
    depth[graph.PositionOf(at)] = best;
    closure.depth = std::max(closure.depth, static_cast<int>(best));
  };
  if (direction == Direction::kUsers) {
    std::for_each(closure.nodes.begin(), closure.nodes.end(), longest);
  } else {
    std::for_each(closure.nodes.rbegin(), closure.nodes.rend(), longest);
  }
  // The op key depends on the op kind and target only: count per interned
  // target first, so a million nodes build a handful of key strings.
  std::array<std::unordered_map<const std::string*, std::pair<const Node*, size_t>>, 6> per_target;
  for (const Node* found : closure.nodes) {
    auto& slot = per_target[static_cast<size_t>(found->op())][&found->target()];
    slot.first = found;
    ++slot.second;
  }
  std::map<std::string, size_t> counts;
  for (const auto& kind : per_target) {
    for (const auto& [target, seen_as] : kind) counts[OpHistogramKey(*seen_as.first)] += seen_as.second;
  }
  closure.by_op.assign(counts.begin(), counts.end());
  std::stable_sort(closure.by_op.begin(), closure.by_op.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return closure;
}

}  // namespace airscope

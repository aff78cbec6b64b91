#include "viz/inplace_writes.h"

#include <algorithm>
#include <unordered_map>

#include "core/analysis/alias_analysis.h"
#include "core/analysis/node_util.h"

namespace airscope {
namespace {

// A node that writes a tensor it was given: an in-place op (its first
// argument) or an op with an `out=` tensor (StorageMap's two sharing rules
// that are writes; a view shares without writing).
bool WritesInPlace(const Node& node, OpLookup& ops) {
  if (node.op() != OpKind::kCallFunction) return false;
  const OpInfo* info = ops.Find(node);
  if (info != nullptr && info->inplace && PositionalNodeArg(node, 0) != nullptr) return true;
  const Argument* out = node.kwarg("out");
  return out != nullptr && out->is_node();
}

}  // namespace

std::vector<InplaceWrite> InplaceWriteEdges(const Graph& graph, const OpRegistry& registry) {
  std::vector<InplaceWrite> edges;
  OpLookup ops(registry);
  std::vector<const Node*> writers;
  for (const Node* node : graph) {
    if (WritesInPlace(*node, ops)) writers.push_back(node);
  }
  if (writers.empty()) return edges;  // the common case: no storage analysis at all

  StorageMap storages = StorageMap::Compute(graph, registry);
  std::unordered_map<int, std::vector<size_t>> written;  // storage -> positions of the nodes that read it
  for (const Node* writer : writers) {
    if (int storage = storages.Of(writer); storage >= 0) written.try_emplace(storage);
  }
  std::vector<const Node*> order;  // position -> node
  order.reserve(graph.size());
  for (const Node* node : graph) {
    for (const Node* input : node->inputs()) {
      auto readers = written.find(storages.Of(input));
      if (readers == written.end()) continue;
      readers->second.push_back(order.size());  // once per node: stop at its first read of that storage
      if (readers->second.size() > 1 && readers->second[readers->second.size() - 2] == order.size()) {
        readers->second.pop_back();
      }
    }
    order.push_back(node);
  }
  const NodeSlotMap<size_t>& position = storages.positions();
  for (const Node* writer : writers) {
    auto readers = written.find(storages.Of(writer));
    if (readers == written.end()) continue;  // writes a value without tensor meta: no storage known
    const size_t* at = position.Find(writer);
    if (at == nullptr) continue;
    auto next = std::upper_bound(readers->second.begin(), readers->second.end(), *at);
    if (next == readers->second.end()) continue;  // nothing reads it afterwards
    const Node* reader = order[*next];
    const std::vector<Node*> inputs = reader->inputs();
    if (std::find(inputs.begin(), inputs.end(), writer) != inputs.end()) continue;  // the data edge says it
    edges.push_back({writer, reader});
  }
  return edges;
}

}  // namespace airscope

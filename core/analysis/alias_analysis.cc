#include "core/analysis/alias_analysis.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <utility>

#include "core/analysis/node_util.h"

namespace airscope {

bool IsViewOp(const Node& node, const OpRegistry& registry) {
  if (node.op() != OpKind::kCallFunction || IsTarget(node, "operator.getitem")) return false;
  if (IsTarget(node, "aten.view.dtype")) return true;  // a view the registry has no entry for
  const OpInfo* info = registry.Find(node.target());
  return info != nullptr && info->category == OpCategory::kView;
}

namespace {

// What Compute asks of a node's op, looked up once per distinct target:
// targets are interned per graph, so the string's address is the key and
// the registry's string hash runs once per op, not once per node.
class OpFacts {
 public:
  explicit OpFacts(const OpRegistry& registry) : registry_(registry) {}
  bool IsView(const Node& node) { return Of(node).view; }
  bool IsInplace(const Node& node) { return Of(node).inplace; }
  bool IsGetItem(const Node& node) { return Of(node).getitem; }

 private:
  struct Facts {
    bool known = false, view = false, inplace = false, getitem = false;
  };
  const Facts& Of(const Node& node) {
    Facts& facts = cache_[&node.target()];
    if (!facts.known) {
      const OpInfo* info = registry_.Find(node.target());
      facts = {true, IsViewOp(node, registry_), info != nullptr && info->inplace, IsTarget(node, "operator.getitem")};
    }
    return facts;
  }
  const OpRegistry& registry_;
  FlatPointerMap<std::string, Facts> cache_;
};

}  // namespace

StorageMap StorageMap::Compute(const Graph& graph, const OpRegistry& registry) {
  StorageMap map;
  map.position_ = NodeSlotMap<size_t>(graph);
  map.storage_ = NodeSlotMap<int>(graph);
  map.view_of_ = NodeSlotMap<Node*>(graph);
  OpFacts ops(registry);
  size_t position = 0;
  std::map<std::pair<const Node*, int64_t>, int> tuple_items;  // (producer, index) -> storage
  for (Node* node : graph) {
    map.position_[node] = position++;
    int storage = -1;
    const bool tensor = node->tensor() != nullptr;
    if (node->op() == OpKind::kPlaceholder || node->op() == OpKind::kGetAttr) {
      if (tensor) storage = map.Fresh();
    } else if (node->op() == OpKind::kCallFunction) {
      Node* arg0 = PositionalNodeArg(*node, 0);
      const Argument* out = node->kwarg("out");
      if (ops.IsGetItem(*node) && arg0 != nullptr) {
        if (arg0->op() == OpKind::kCallFunction && ops.IsView(*arg0) && PositionalNodeArg(*arg0, 0) != nullptr) {
          map.view_of_[node] = PositionalNodeArg(*arg0, 0);  // split/unbind: the item views the base
          storage = map.Of(PositionalNodeArg(*arg0, 0));
        } else if (tensor && node->args().size() > 1 && node->args()[1].kind() == Argument::Kind::kInt) {
          auto [it, fresh] = tuple_items.try_emplace({arg0, node->args()[1].as_int()}, -1);
          if (fresh) it->second = map.Fresh();
          storage = it->second;
        }
      } else if (ops.IsView(*node) && arg0 != nullptr) {
        map.view_of_[node] = arg0;
        storage = map.Of(arg0);
      } else if (ops.IsInplace(*node) && arg0 != nullptr) {
        storage = map.Of(arg0);
      } else if (out != nullptr && out->is_node()) {
        storage = map.Of(out->as_node());
      } else if (tensor) {
        storage = map.Fresh();
      }
    }
    map.storage_[node] = storage;
    if (storage >= 0) map.members_[map.Find(storage)].push_back(node);
  }
  return map;
}

int StorageMap::Fresh() {
  parent_.push_back(static_cast<int>(parent_.size()));
  members_.emplace_back();
  return parent_.back();
}

int StorageMap::Find(int storage) const {
  while (parent_[storage] != storage) storage = parent_[storage] = parent_[parent_[storage]];
  return storage;
}

int StorageMap::Of(const Node* node) const {
  const int* storage = storage_.Find(node);
  return storage == nullptr || *storage < 0 ? -1 : Find(*storage);
}

std::vector<Node*> StorageMap::NodesOf(int storage) const {
  std::vector<Node*> out;
  if (storage < 0) return out;
  const std::vector<Node*>& members = members_[Find(storage)];
  out.reserve(members.size());
  for (Node* node : members) {  // kept in graph order (see Merge)
    if (!node->erased()) out.push_back(node);
  }
  return out;
}

Node* StorageMap::ViewOf(const Node* node) const {
  Node* const* base = view_of_.Find(node);
  return base ? *base : nullptr;
}

void StorageMap::Merge(int a, int b) {
  if (a < 0 || b < 0) return;
  int from = Find(a), to = Find(b);
  if (from == to) return;
  parent_[from] = to;
  std::vector<Node*> moved = std::move(members_[from]);
  members_[from] = {};
  std::vector<Node*>& into = members_[to];
  // Both lists are in graph order and stay so, which spares NodesOf a sort
  // per call (reinplace asks once per candidate, and a chain of in-place
  // ops grows one storage to the whole chain). Merging a later node into a
  // storage, the usual case, is an append.
  auto earlier = [this](const Node* a, const Node* b) { return position_.At(a) < position_.At(b); };
  if (into.empty() || moved.empty() || earlier(into.back(), moved.front())) {
    into.insert(into.end(), moved.begin(), moved.end());
  } else {
    std::vector<Node*> merged;
    merged.reserve(into.size() + moved.size());
    std::merge(into.begin(), into.end(), moved.begin(), moved.end(), std::back_inserter(merged), earlier);
    into = std::move(merged);
  }
}

}  // namespace airscope

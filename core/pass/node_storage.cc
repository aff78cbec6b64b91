#include "core/pass/node_storage.h"

#include "core/pass/pass_util.h"

namespace airscope {
namespace {

bool IsViewOp(const Node& node, const OpRegistry& registry) {
  if (IsTarget(node, "aten.view.dtype")) return true;  // a view torch's registry entry may lack
  const OpInfo* info = registry.Find(node.target());
  return info && (info->category == OpCategory::kView || info->inplace);
}

Node* FirstNodeArg(const Node& node) {
  return !node.args().empty() && node.args()[0].is_node() ? node.args()[0].as_node() : nullptr;
}

}  // namespace

StorageMap ComputeStorages(const Graph& graph, const OpRegistry& registry) {
  StorageMap storages;
  // Graph order is topological, so a node's first argument is already mapped.
  // `root` also covers the tuple a getitem reads (it has no tensor storage of
  // its own, but a split's pieces live in the split input's storage).
  std::unordered_map<const Node*, const Node*> root;
  for (const Node* node : graph) {
    const Node* self = node;
    if (node->op() == OpKind::kCallFunction && IsViewOp(*node, registry)) {
      if (const Node* base = FirstNodeArg(*node)) {
        auto it = root.find(base);
        bool base_is_view = it != root.end() && it->second != base;
        // getitem of a non-view multi-output op: a fresh tensor of that op.
        if (!IsTarget(*node, "operator.getitem") || base_is_view) self = it != root.end() ? it->second : base;
      }
    }
    root[node] = self;
    if (TensorOf(node)) storages[node] = self;
  }
  return storages;
}

const Node* StorageIn(const StorageMap& storages, const Node* node) {
  auto it = storages.find(node);
  return it == storages.end() ? nullptr : it->second;
}

}  // namespace airscope

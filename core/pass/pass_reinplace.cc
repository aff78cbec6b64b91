// reinplace: TorchAir's reinplace (torch.fx.passes.reinplace plus
// _mutated_input_reinplace). An out-of-place op whose `self` is dead after it
// writes its result into self's storage instead (its in-place variant), which
// saves an allocation per op in a captured graph. It undoes what
// functionalize did wherever that is safe.
#include <fmt/format.h>

#include <deque>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/pass/builtin_passes.h"
#include "core/pass/pass_util.h"
#include "core/pass/stream_util.h"

namespace airscope {
namespace {

bool IsTensorView(const Node* node, const OpRegistry& registry) {
  if (node->op() != OpKind::kCallFunction || IsTarget(*node, "operator.getitem")) return false;
  const OpInfo* info = registry.Find(node->target());
  return info && info->category == OpCategory::kView && !node->args().empty() && node->args()[0].is_node();
}

// The tensor whose storage `node` shares: walk up views (bounded by the graph).
Node* StorageRoot(Node* node, const OpRegistry& registry) {
  while (IsTensorView(node, registry)) node = node->args()[0].as_node();
  return node;
}

// `root` and every view taken of it, transitively.
std::vector<Node*> Aliases(Node* root, const OpRegistry& registry) {
  std::vector<Node*> out = {root};
  std::unordered_set<Node*> seen = {root};
  for (size_t i = 0; i < out.size(); ++i) {
    for (Node* user : out[i]->users()) {
      if (IsTensorView(user, registry) && user->args()[0].as_node() == out[i] && seen.insert(user).second) {
        out.push_back(user);
      }
    }
  }
  return out;
}

bool IsEpilogueCopy(const Node* user, const Node* input, const Node* value) {
  return IsTarget(*user, "aten.copy_.default") && user->args().size() >= 2 && user->args()[0].is_node() &&
         user->args()[0].as_node() == input && user->args()[1].is_node() && user->args()[1].as_node() == value;
}

Result<bool> RunReinplace(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  std::unordered_map<const Node*, size_t> position = Positions(graph);
  // Streams are not resolved yet at this point of the pipeline, so they come
  // from the scope markers (or a stream already set on the node). TorchAir's
  // reinplace_with_multi_stream_check: no in-place rewrite when the storage
  // is produced or used on another stream, since the streams would race on it.
  Result<std::vector<std::string>> scope_streams = StreamsFromScopes(graph);
  auto stream_of = [&](const Node* n) -> std::string_view {
    if (!n->stream().empty() || !scope_streams.ok()) return n->stream();
    return (*scope_streams)[position.at(n)];
  };
  int reinplaced = 0, copies_removed = 0, cross_stream = 0;
  // Epilogue copies erased below come later in the snapshot: skip them.
  std::unordered_set<const Node*> erased;
  for (Node* node : graph.Nodes()) {
    if (erased.count(node) || node->op() != OpKind::kCallFunction) continue;
    const OpInfo* info = registry.Find(node->target());
    if (!info || info->inplace) continue;
    std::string inplace = InplaceTarget(node->target());
    const OpInfo* inplace_info = inplace.empty() ? nullptr : registry.Find(inplace);
    if (!inplace_info || !inplace_info->inplace) continue;
    if (node->args().empty() || !node->args()[0].is_node()) continue;
    Node* self = node->args()[0].as_node();
    // The result must fit self exactly (no broadcasting, no type promotion).
    const TensorMeta* out = TensorOf(node);
    const TensorMeta* in = TensorOf(self);
    if (!out || !in || out->sizes != in->sizes || out->dtype != in->dtype || out->dtype == DType::kUnknown) continue;
    Node* root = StorageRoot(self, registry);
    bool is_input = root->op() == OpKind::kPlaceholder || root->op() == OpKind::kGetAttr;
    if (is_input && (root != self || root->op() != OpKind::kPlaceholder)) continue;
    size_t at = position.at(node);
    Node* epilogue = nullptr;
    bool blocked = false;
    std::string_view here = stream_of(node);
    bool other_stream = stream_of(root) != here;
    for (Node* alias : Aliases(root, registry)) {
      other_stream = other_stream || stream_of(alias) != here;
      for (Node* user : alias->users()) {
        if (user != node && stream_of(user) != here && user->op() != OpKind::kOutput) other_stream = true;
        if (user == node || position.at(user) < at) continue;
        if (is_input && alias == root && !epilogue && IsEpilogueCopy(user, root, node)) {
          epilogue = user;
          continue;
        }
        blocked = true;  // self's storage is read (or written) later
      }
    }
    if (other_stream) {
      ++cross_stream;
      continue;
    }
    // A graph input may only be overwritten when its final value is this result.
    if (blocked || (is_input && !epilogue)) continue;
    Retarget(graph, node, inplace, registry);
    ++reinplaced;
    if (epilogue) {
      // copy_(input, value) now copies the input into itself.
      graph.ReplaceAllUsesWith(epilogue, root);
      AIRSCOPE_RETURN_IF_ERROR(graph.Erase(epilogue));
      erased.insert(epilogue);
      ++copies_removed;
    }
  }
  if (reinplaced > 0) {
    context.remarks.push_back(fmt::format("reinplaced {} op(s); removed {} copy_ epilogue(s)", reinplaced,
                                          copies_removed));
  }
  if (cross_stream > 0) {
    context.remarks.push_back(fmt::format("kept {} op(s) out-of-place: their input lives on another stream",
                                          cross_stream));
  }
  return reinplaced > 0;
}

}  // namespace

PassInfo ReinplaceInplaceableOpsPass() {
  return {"reinplace_inplaceable_ops_pass", "out-of-place ops whose input is dead afterwards become in-place",
          "Retargets an out-of-place call (add, hardtanh, relu, ...) to its in-place variant (add_, hardtanh_, "
          "...; registered in the op registry) when its self input has the result's exact sizes and dtype and "
          "neither self nor any view of self's storage is used after it. A graph input is overwritten only when "
          "the copy_(input, result) epilogue functionalize wrote copies this very result back; that copy_ then "
          "copies the input into itself and is removed. Leaves alone parameters (get_attr), views of graph "
          "inputs, nodes without meta, ops without an in-place variant, and ops whose input's storage is produced or "
          "used on another stream (from the scope markers: the streams would race on it). Models TorchAir's "
          "reinplace (torch.fx.passes.reinplace, _mutated_input_reinplace and "
          "reinplace_with_multi_stream_check).",
          PassKind::kPipeline, RunReinplace, {"reinplace"}};
}

}  // namespace airscope

// constant_fold: a subgraph that depends on no input (creation ops with
// static, small shapes and the pointwise/view ops applied to them, such as
// the causal mask `ones -> tril -> eq`) is replaced by one constant node.
//
// What folding means in a simulator: airscope computes no tensor values, so
// the folded node is a get_attr `_folded_constant_N` carrying the value's
// meta (shape, dtype, device), standing for a constant tensor that would be
// computed once at compile time. Its kernels no longer run in the captured
// graph; the constant's bytes are what remains.
#include <fmt/format.h>

#include <unordered_set>
#include <vector>

#include "core/analysis/node_util.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

constexpr int64_t kMaxFoldedElements = 1 << 16;  // bigger constants cost more memory than their kernels

bool SmallStatic(const Node* node) {
  const TensorMeta* tensor = TensorOf(node);
  if (!tensor || tensor->dtype == DType::kUnknown) return false;
  auto elements = tensor->NumElements();
  return elements && *elements <= kMaxFoldedElements;
}

// Whether `node`'s value is a compile-time constant, given which earlier nodes are.
bool IsConstant(const Node* node, const std::unordered_set<const Node*>& constants, const OpRegistry& registry) {
  if (node->op() != OpKind::kCallFunction || !SmallStatic(node) || HasSideEffects(*node, registry)) return false;
  std::string_view target = CallTarget(*node);
  if (target.find("empty") != std::string_view::npos) return false;  // uninitialised memory is no constant
  const OpInfo* info = registry.Find(target);
  if (!info) return false;
  bool has_input = false;
  bool all_constant = true;
  for (const Argument& a : node->args()) {
    a.ForEachNode([&](Node* n) {
      has_input = true;
      all_constant = all_constant && constants.count(n);
    });
  }
  for (const Kwarg& kw : node->kwargs()) {
    kw.value.ForEachNode([&](Node* n) {
      has_input = true;
      all_constant = all_constant && constants.count(n);
    });
  }
  if (info->category == OpCategory::kCreation) return !has_input;
  bool foldable = info->category == OpCategory::kPointwise || info->category == OpCategory::kView ||
                  info->category == OpCategory::kCopy || info->category == OpCategory::kReduction;
  return foldable && has_input && all_constant && !IsTarget(*node, "operator.getitem");
}

bool IsCreation(const Node* node, const OpRegistry& registry) {
  const OpInfo* info = registry.Find(node->target());
  return info && info->category == OpCategory::kCreation;
}

Result<bool> RunConstantFold(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  std::unordered_set<const Node*> constants;
  std::vector<Node*> order;  // constants in graph order
  for (Node* node : graph) {
    if (IsConstant(node, constants, registry)) {
      constants.insert(node);
      order.push_back(node);
    }
  }
  // Roots: constants read by a non-constant node. A creation op alone is
  // already as cheap as a constant; only computed values are worth folding.
  std::vector<Node*> roots;
  for (Node* node : order) {
    if (IsCreation(node, registry)) continue;
    for (const Node* user : node->users()) {
      if (!constants.count(user)) {
        roots.push_back(node);
        break;
      }
    }
  }
  for (Node* root : roots) {
    NodeSpec spec;
    spec.op = OpKind::kGetAttr;
    std::string name = graph.UniqueName("_folded_constant_0");
    spec.target = name;
    spec.name = name;
    Node* folded = graph.InsertBefore(root, std::move(spec));
    // InsertBefore derives a fresh name from the hint; the reserved one is free again, so take it back.
    if (folded->name() != name) AIRSCOPE_RETURN_IF_ERROR(graph.Rename(folded, name));
    graph.SetStream(folded, root->stream());
    folded->set_meta(*root->meta());
    // Only the non-constant users read the constant; constant users are folded away below.
    for (Node* user : root->users().ToVector()) {
      if (!constants.count(user)) graph.ReplaceInput(user, root, folded);
    }
  }
  // Constants nobody reads any more go, latest first (users before producers).
  size_t erased = 0;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    if ((*it)->users().empty()) {
      AIRSCOPE_RETURN_IF_ERROR(graph.Erase(*it));
      ++erased;
    }
  }
  if (!roots.empty()) {
    context.remarks.push_back(fmt::format("folded {} constant subgraph(s), {} node(s) erased", roots.size(), erased));
  }
  return !roots.empty();
}

}  // namespace

PassInfo ConstantFoldPass() {
  return {"constant_fold",
          "replace input-independent subgraphs by constant nodes",
          "Finds calls whose value depends on no graph input: creation ops (ones, zeros, full, arange, ...; not "
          "empty or random ones) with static shapes of at most 65536 elements and the pointwise, view, copy and "
          "reduction ops applied only to such values (e.g. the causal mask ones -> tril -> eq). Each such value "
          "read by a non-constant node becomes one get_attr node `_folded_constant_N` with the value's meta, and "
          "the constant nodes left without users are erased. In a simulator folding computes nothing: the node "
          "stands for a constant tensor computed once at compile time, so its kernels leave the captured graph. "
          "Leaves alone lone creation ops, big or symbolic shapes and anything reading an input. Models "
          "Inductor's constant folding (freezing).",
          PassKind::kOptional,
          RunConstantFold,
          {},
          EffectPolicy::kPreserveAliasing};
}

}  // namespace airscope

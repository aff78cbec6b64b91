// cse: common subexpression elimination. Two calls with the same target,
// stream and arguments (node references by identity) compute the same value
// when neither has side effects; the later one is replaced by the first.
// One forward walk with a hash table: O(n) in the number of nodes. Because
// uses are rewired as the walk goes, chains of duplicates collapse in the
// same walk (the users of a removed duplicate become duplicates themselves).
#include <fmt/format.h>

#include <bit>
#include <cstring>
#include <functional>
#include <unordered_map>
#include <vector>

#include "core/pass/builtin_passes.h"
#include "core/pass/pass_util.h"

namespace airscope {
namespace {

size_t Mix(size_t seed, size_t value) { return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2)); }

// Arguments nest as deep as the loaders allow (bounded), so recursion is safe.
size_t HashArgument(const Argument& arg) {
  size_t h = static_cast<size_t>(arg.kind());
  switch (arg.kind()) {
    case Argument::Kind::kNone: return h;
    case Argument::Kind::kBool: return Mix(h, arg.as_bool());
    case Argument::Kind::kInt: return Mix(h, std::hash<int64_t>()(arg.as_int()));
    case Argument::Kind::kFloat: return Mix(h, std::hash<uint64_t>()(std::bit_cast<uint64_t>(arg.as_float())));
    case Argument::Kind::kString:
    case Argument::Kind::kRaw: return Mix(h, std::hash<std::string>()(arg.as_string()));
    case Argument::Kind::kNode: return Mix(h, std::hash<const void*>()(arg.as_node()));
    case Argument::Kind::kList:
    case Argument::Kind::kTuple:
      for (const Argument& item : arg.items()) h = Mix(h, HashArgument(item));
      return h;
    case Argument::Kind::kDType: return Mix(h, static_cast<size_t>(arg.as_dtype()));
    case Argument::Kind::kDevice: return Mix(h, std::hash<std::string>()(arg.as_device().ToString()));
    case Argument::Kind::kMemoryFormat: return Mix(h, static_cast<size_t>(arg.as_memory_format()));
    case Argument::Kind::kLayout: return Mix(h, static_cast<size_t>(arg.as_layout()));
  }
  return h;
}

// Node references by identity: Argument::SameAs compares them by name, and
// names are unique within one graph, so that is identity here.
struct Key {
  const Node* node;
};
struct KeyHash {
  size_t operator()(const Key& key) const {
    const Node& n = *key.node;
    size_t h = std::hash<const void*>()(&n.target());  // interned: equal targets share storage
    h = Mix(h, std::hash<const void*>()(&n.stream()));
    for (const Argument& a : n.args()) h = Mix(h, HashArgument(a));
    for (const Kwarg& kw : n.kwargs()) h = Mix(Mix(h, std::hash<std::string>()(kw.name)), HashArgument(kw.value));
    return h;
  }
};
struct KeyEqual {
  bool operator()(const Key& a, const Key& b) const {
    const Node& x = *a.node;
    const Node& y = *b.node;
    if (&x.target() != &y.target() || &x.stream() != &y.stream()) return false;
    if (x.args().size() != y.args().size() || x.kwargs().size() != y.kwargs().size()) return false;
    for (size_t i = 0; i < x.args().size(); ++i) {
      if (!x.args()[i].SameAs(y.args()[i])) return false;
    }
    for (size_t i = 0; i < x.kwargs().size(); ++i) {
      if (x.kwargs()[i].name != y.kwargs()[i].name || !x.kwargs()[i].value.SameAs(y.kwargs()[i].value)) return false;
    }
    return true;
  }
};

Result<bool> RunCse(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  std::unordered_map<Key, Node*, KeyHash, KeyEqual> first;
  first.reserve(graph.size());
  size_t removed = 0;
  // Side effects depend only on the target, and targets are interned per
  // graph: one registry lookup per distinct op, not per node.
  std::unordered_map<const std::string*, bool> pure_by_target;
  auto is_pure = [&](const Node& node) {
    auto [it, inserted] = pure_by_target.try_emplace(&node.target(), false);
    if (inserted) it->second = !HasSideEffects(node, registry);
    return it->second;
  };
  for (Node* node = graph.front(); node;) {
    Node* next = node->next();
    if (node->op() == OpKind::kCallFunction && is_pure(*node)) {
      auto [it, inserted] = first.try_emplace(Key{node}, node);
      if (!inserted) {
        graph.ReplaceAllUsesWith(node, it->second);
        AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
        ++removed;
      }
    }
    node = next;
  }
  if (removed > 0) context.remarks.push_back(fmt::format("removed {} duplicate node(s)", removed));
  return removed > 0;
}

}  // namespace

PassInfo CsePass() {
  return {"cse", "merge calls that compute the same value (common subexpression elimination)",
          "Replaces every call_function that has the same target, stream, args and kwargs (node references by "
          "identity, values structurally) as an earlier one by that earlier node, and erases it; one hash-based "
          "walk, so chains of duplicates collapse at once. Leaves alone calls with side effects (in-place ops, "
          "copy_, air.* stream/event ops, host syncs, random ops, unknown ops) and everything that is not a "
          "call_function. Models torch.fx's CSEPass / Inductor's post-grad CSE.",
          PassKind::kOptional, RunCse};
}

}  // namespace airscope

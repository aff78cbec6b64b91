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
#include <span>
#include <string>
#include <vector>

#include "core/analysis/node_util.h"
#include "core/pass/builtin_passes.h"

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

// Node references by identity (Argument::SameAs compares them by name,
// which within one graph means the same, at the cost of a string compare);
// everything else structurally.
bool SameArgument(const Argument& a, const Argument& b) {
  if (a.is_node() || b.is_node()) return a.is_node() && b.is_node() && a.as_node() == b.as_node();
  if (a.is_sequence() && b.is_sequence() && a.kind() == b.kind()) {
    std::span<const Argument> x = a.items(), y = b.items();
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (!SameArgument(x[i], y[i])) return false;
    }
    return true;
  }
  return a.SameAs(b);
}

size_t HashCall(const Node& n) {
  size_t h = std::hash<const void*>()(&n.target());  // interned: equal targets share storage
  h = Mix(h, std::hash<const void*>()(&n.stream()));
  for (const Argument& a : n.args()) h = Mix(h, HashArgument(a));
  for (const Kwarg& kw : n.kwargs()) h = Mix(Mix(h, std::hash<std::string>()(kw.name)), HashArgument(kw.value));
  return h;
}

bool SameCall(const Node& x, const Node& y) {
  if (&x.target() != &y.target() || &x.stream() != &y.stream()) return false;
  if (x.args().size() != y.args().size() || x.kwargs().size() != y.kwargs().size()) return false;
  for (size_t i = 0; i < x.args().size(); ++i) {
    if (!SameArgument(x.args()[i], y.args()[i])) return false;
  }
  for (size_t i = 0; i < x.kwargs().size(); ++i) {
    if (x.kwargs()[i].name != y.kwargs()[i].name || !SameArgument(x.kwargs()[i].value, y.kwargs()[i].value)) {
      return false;
    }
  }
  return true;
}

// The first node of each distinct call: open addressing over one array of
// {hash, node} (no allocation per entry, as std::unordered_map makes), sized
// once for the whole graph; entries are never removed during the walk.
class FirstCalls {
 public:
  explicit FirstCalls(size_t nodes) : slots_(std::bit_ceil(nodes * 2 + 16)), mask_(slots_.size() - 1) {}

  // The earlier node computing what `node` computes, or nullptr after recording `node` as the first.
  Node* FindOrAdd(Node* node) {
    size_t hash = HashCall(*node);
    for (size_t i = hash & mask_;; i = (i + 1) & mask_) {
      Slot& slot = slots_[i];
      if (slot.node == nullptr) {
        slot = {hash, node};
        return nullptr;
      }
      if (slot.hash == hash && SameCall(*slot.node, *node)) return slot.node;
    }
  }

 private:
  struct Slot {
    size_t hash = 0;
    Node* node = nullptr;
  };
  std::vector<Slot> slots_;
  size_t mask_;
};

Result<bool> RunCse(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  FirstCalls first(graph.size());
  size_t removed = 0;
  // Side effects depend only on the target, and targets are interned per
  // graph: one registry lookup per distinct op, not per node.
  FlatPointerMap<std::string, int8_t> pure_by_target;  // 0 unknown, 1 pure, -1 not
  auto is_pure = [&](const Node& node) {
    int8_t& pure = pure_by_target[&node.target()];
    if (pure == 0) pure = HasSideEffects(node, registry) ? -1 : 1;
    return pure > 0;
  };
  for (Node* node = graph.front(); node;) {
    Node* next = node->next();
    if (node->op() == OpKind::kCallFunction && is_pure(*node)) {
      if (Node* earlier = first.FindOrAdd(node)) {
        graph.ReplaceAllUsesWith(node, earlier);
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

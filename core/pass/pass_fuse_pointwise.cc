// fuse_pointwise: a chain of pointwise ops, each read only by the next one on
// the same stream, becomes one `airscope.fused_pointwise.default` node (what
// Inductor's scheduler would emit as one fused kernel). The fused node reads
// the chain's external inputs, lists the fused targets in kwarg `ops`, states
// the chain's result dtype in `dtype` and its flops per element in
// `flops_per_element` (the sum over the chain), and takes the last node's
// meta. The op registry knows the op (core/ops/ops_misc.cc): pointwise,
// inferable from its inputs and kwargs, costed as one kernel that reads its
// inputs and writes its output once. Scalar arguments of the fused ops are
// not kept: a simulator needs the shapes and the cost, not the arithmetic.
#include <fmt/format.h>

#include <unordered_set>
#include <vector>

#include "core/analysis/node_util.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

constexpr std::string_view kFusedPointwise = "airscope.fused_pointwise.default";

bool Fusable(const Node* node, const OpRegistry& registry) {
  if (node->op() != OpKind::kCallFunction) return false;
  const OpInfo* info = registry.Find(node->target());
  return info && info->category == OpCategory::kPointwise && !info->inplace && TensorOf(node);
}

// The chain's flops per element of its output, when every member's cost is known.
std::optional<double> FlopsPerElement(const std::vector<Node*>& chain, const OpRegistry& registry) {
  double total = 0;
  for (const Node* member : chain) {
    const OpInfo* info = registry.Find(member->target());
    if (!info || !info->cost) return std::nullopt;
    auto cost = info->cost(*member);
    auto elements = TensorOf(member)->NumElements();
    if (!cost || !elements || *elements == 0) return std::nullopt;
    total += cost->flops / static_cast<double>(*elements);
  }
  return total;
}

// One greedy round over the graph; returns the number of chains fused.
Result<size_t> FuseRound(Graph& graph, const OpRegistry& registry, size_t* fused_nodes) {
  std::unordered_set<const Node*> taken;
  std::vector<std::vector<Node*>> chains;
  for (Node* node : graph) {
    if (taken.count(node) || !Fusable(node, registry)) continue;
    std::vector<Node*> chain = {node};
    for (Node* last = node; last->users().size() == 1;) {
      Node* next = last->users().front();
      if (taken.count(next) || !Fusable(next, registry) || next->stream() != node->stream()) break;
      chain.push_back(next);
      last = next;
    }
    if (chain.size() < 2) continue;
    for (Node* member : chain) taken.insert(member);
    chains.push_back(std::move(chain));
  }
  for (const std::vector<Node*>& chain : chains) {
    std::unordered_set<const Node*> members(chain.begin(), chain.end());
    std::vector<Argument> inputs;
    std::unordered_set<const Node*> seen;
    std::vector<Argument> ops;
    for (const Node* member : chain) {
      // A fused node joining a longer chain contributes the ops it fused.
      const Argument* fused_ops = IsTarget(*member, kFusedPointwise) ? member->kwarg("ops") : nullptr;
      if (fused_ops && fused_ops->is_sequence()) {
        for (const Argument& op : fused_ops->items()) ops.push_back(op);
      } else {
        ops.push_back(Argument::String(std::string(CallTarget(*member))));
      }
      for (Node* input : member->inputs()) {
        if (!members.count(input) && seen.insert(input).second) inputs.push_back(Argument::NodeRef(input));
      }
    }
    Node* last = chain.back();
    // Built by push_back, not an initializer list: GCC 12 at -O3 reports a
    // false -Warray-bounds/-Wstringop-overflow inside std::variant when it
    // inlines the list's copies (GCC bug 106199).
    std::vector<Kwarg> kwargs;
    kwargs.reserve(3);
    kwargs.push_back({"ops", Argument::List(std::move(ops))});
    kwargs.push_back({"dtype", Argument::OfDType(TensorOf(last)->dtype)});
    if (auto flops = FlopsPerElement(chain, registry)) kwargs.push_back({"flops_per_element", Argument::Float(*flops)});
    Node* fused =
        graph.InsertBefore(last, CallSpec(kFusedPointwise, std::move(inputs), std::move(kwargs), "fused_pointwise"));
    graph.SetStream(fused, last->stream());
    fused->set_meta(*last->meta());  // the chain's value, whatever inference would say
    graph.ReplaceAllUsesWith(last, fused);
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) AIRSCOPE_RETURN_IF_ERROR(graph.Erase(*it));
    *fused_nodes += chain.size();
  }
  return chains.size();
}

Result<bool> RunFusePointwise(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  // Greedy chains can leave two fused chains back to back (a chain that
  // ended at a node another chain had taken); later rounds merge those, so
  // one run leaves nothing a second run could fuse. Every round that fuses
  // removes nodes, so the loop ends.
  size_t fused_nodes = 0, rounds_fused = 0;
  for (;;) {
    AIRSCOPE_ASSIGN_OR_RETURN(size_t chains, FuseRound(graph, registry, &fused_nodes));
    if (chains == 0) break;
    rounds_fused += chains;
  }
  if (rounds_fused > 0) {
    context.remarks.push_back(fmt::format("fused {} pointwise node(s) in {} step(s)", fused_nodes, rounds_fused));
  }
  return rounds_fused > 0;
}

}  // namespace

PassInfo FusePointwisePass() {
  return {"fuse_pointwise",
          "fuse chains of single-user pointwise ops into one node",
          "Finds chains of pointwise calls (add, mul, exp, gelu, masked_fill, eq, ...; not in-place) where each "
          "node's only user is the next one, on the same stream, all with known meta, and replaces each chain of "
          "two or more by one airscope.fused_pointwise.default node placed where the chain ended: args are the "
          "chain's external inputs, kwargs `ops` (the fused targets in order), `dtype` and `flops_per_element` "
          "(the chain's summed flops), meta the last node's. Its cost is one kernel reading its inputs and "
          "writing its output once. Scalar arguments of the fused ops are not kept. Leaves alone branching "
          "pointwise graphs (a node with several users ends a chain), reductions, views and in-place ops. Models "
          "Inductor's pointwise fusion.",
          PassKind::kOptional,
          RunFusePointwise,
          {},
          EffectPolicy::kPreserveAliasing};
}

}  // namespace airscope

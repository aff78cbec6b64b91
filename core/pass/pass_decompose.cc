// decompose: applies the decomposition table to every call whose target has
// an entry (PrimTorch / torch._decomp, which AOT autograd runs before
// TorchAir sees the graph).
#include <fmt/format.h>

#include <map>
#include <string>
#include <vector>

#include "core/analysis/node_util.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/decomposition.h"

namespace airscope {
namespace {

constexpr int kMaxRounds = 16;
constexpr size_t kMaxGrowth = 10;          // times the nodes the pass started with,
constexpr size_t kGrowthAllowance = 1000;  // plus this, so a small graph has room

}  // namespace

Result<bool> ApplyDecompositions(Graph& graph, const DecompositionTable& table, const OpRegistry& registry,
                                 std::vector<std::string>& remarks) {
  std::map<std::string, int> done;  // target -> count, for the remark (sorted)
  int declined = 0;
  // Rounds: the ops a rule emits may have entries too (layer norm emits
  // mean.dim, which decomposes to sum and div), and torch decomposes until
  // nothing in the table is left. Each round takes its candidates up front,
  // since a round must not chase its own output; a rule may erase other
  // candidates (layer norm's getitems), which are then skipped.
  bool progress = true;
  int round = 0;
  // A rule whose output contains its own target (neg -> neg(neg(x))) doubles
  // the graph each round, where torch would recurse until RecursionError.
  // Real tables grow a graph a few times at most; past this it is an error.
  const size_t start_size = graph.size();
  const size_t size_limit = start_size * kMaxGrowth + kGrowthAllowance;
  for (; progress && round < kMaxRounds; ++round) {
    progress = false;
    std::vector<Node*> candidates;
    for (Node* node : graph) {
      if (node->op() == OpKind::kCallFunction && table.Find(node->target())) {
        candidates.push_back(node);
      }
    }
    declined = 0;
    for (Node* node : candidates) {
      // Looked up again: an earlier rewrite may have erased or changed it.
      if (node->erased() || node->op() != OpKind::kCallFunction) continue;
      const Decomposition* entry = table.Find(node->target());
      if (!entry || !entry->rewrite) continue;
      const std::string& target = entry->target;
      Result<bool> rewrote = entry->rewrite(graph, node, registry);
      if (!rewrote.ok()) return rewrote.status().WithPrefix(fmt::format("decomposing '{}'", node->name()));
      if (*rewrote) {
        ++done[target];
        progress = true;
        if (graph.size() > size_limit) {
          return Status::Errorf(
              "decompositions grew the graph from {} to {} nodes (more than {}x + {}) in {} round(s); "
              "the last rule applied, for {}, keeps producing ops that have entries",
              start_size, graph.size(), kMaxGrowth, kGrowthAllowance, round + 1, target);
        }
      } else {
        ++declined;
      }
    }
  }
  if (progress && round == kMaxRounds) {
    remarks.push_back(
        fmt::format("stopped after {} rounds: a decomposition keeps producing ops that have entries", kMaxRounds));
  }
  for (const auto& [target, count] : done) remarks.push_back(fmt::format("decomposed {} {}", count, target));
  if (declined > 0) remarks.push_back(fmt::format("left {} node(s) a rule could not handle", declined));
  return !done.empty();
}

namespace {

Result<bool> RunDecompose(Graph& graph, PassContext& context) {
  if (!context.decompositions) return false;
  return ApplyDecompositions(graph, *context.decompositions, RegistryOf(context), context.remarks);
}

}  // namespace

PassInfo DecomposePass() {
  return {"decompose",
          "apply the decomposition table (builtin + user entries) to aten ops",
          "Rewrites every call_function whose target has an entry in the decomposition table into simpler aten "
          "ops inserted before it (new nodes are named after their op and get inferred meta), then erases it; "
          "native_layer_norm's getitem users are rewired to the new out/mean/rstd values. Builtin entries: addmm, "
          "gelu, _softmax, _log_softmax, native_layer_norm, silu, hardtanh, t, mean.dim; `decomp add` adds "
          "templates. Leaves alone ops without an entry and instances a rule declines (e.g. a symbolic size it "
          "needs). This is airscope's own Inductor-like table, NOT TorchAir's: TorchAir hands AOT only "
          "npu_define.allgather and _c10d_functional.all_to_all_single (TORCHAIR.md §6), so gelu, softmax, "
          "layer_norm and addmm reach TorchAir's passes whole; insert this pass to see what an Inductor-style "
          "decomposition would make of the graph.",
          PassKind::kOptional,
          RunDecompose,
          {},
          EffectPolicy::kPreserveAliasing};
}

}  // namespace airscope

// optimize_noop_ops: TorchAir's _optimize_noop_ops (npu_fx_compiler.py:350-356)
// runs Inductor's remove_noop_ops(gm.graph) (torch/_inductor/fx_passes/
// post_grad.py). Every call in Inductor's noop table (inductor_noop_table.h)
// whose condition holds, whose value has the same meta as its source, and
// whose removal creates no new input/output aliasing is replaced by its
// source and erased. Switch: config.remove_noop_ops (experimental_config).
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <vector>
#include <string>

#include "core/analysis/alias_analysis.h"
#include "core/analysis/node_util.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/inductor_noop_table.h"

namespace airscope {
namespace {

// get_fake_args_kwargs(node) is valid: every node it reads has a value.
bool ArgsHaveValues(const Node& node) {
  for (const Node* input : node.inputs()) {
    if (!input->meta()) return false;
  }
  return true;
}

// Inductor skips copy(dst, src) when dst was made with pin_memory=True.
bool CopyIntoPinnedMemory(const Node& node) {
  if (!IsTarget(node, "aten.copy.default") || node.args().empty() || !node.args()[0].is_node()) return false;
  const Node* dst = node.args()[0].as_node();
  const Argument* pin = dst->op() == OpKind::kCallFunction ? dst->kwarg("pin_memory") : nullptr;
  return pin && pin->kind() == Argument::Kind::kBool && pin->as_bool();
}

// Storages (StorageMap's numbers, merged or not), -1 standing for Inductor's
// None: a flag per storage, where a std::set of a 1M-node graph's 200k
// parameter storages was a tenth of the pass.
class StorageSet {
 public:
  explicit StorageSet(size_t storages) : members_(storages) {}
  void insert(int storage) {
    if (storage < 0) {
      none_ = true;
    } else {
      members_[static_cast<size_t>(storage)] = true;
    }
  }
  bool contains(int storage) const { return storage < 0 ? none_ : members_[static_cast<size_t>(storage)]; }

 private:
  std::vector<bool> members_;
  bool none_ = false;
};

Result<bool> RunOptimizeNoopOps(Graph& graph, PassContext& context) {
  if (!context.config.remove_noop_ops) {
    context.remarks.push_back(fmt::format("skipped: {} ({} does not run the pass)",
                                          SwitchedOff(context.config, &TorchAirConfig::remove_noop_ops),
                                          context.config.npugraph_ex ? "npugraph_ex" : "TorchAir"));
    return false;
  }
  const Node* output = graph.output();
  if (!output) return false;
  const StorageMap storages = StorageMap::Compute(graph, RegistryOf(context));

  StorageSet input_storages(storages.storage_count()), output_storages(storages.storage_count());
  for (const Node* p : graph.Placeholders()) input_storages.insert(storages.Of(p));
  // outputs = output.args[0] (a tuple/list, or one node in nested graphs).
  std::vector<const Node*> outputs;
  if (!output->args().empty()) output->args()[0].ForEachNode([&](const Node* n) { outputs.push_back(n); });
  for (const Node* out : outputs) output_storages.insert(storages.Of(out));
  // `node in output_node.args`: output.args is `(outputs,)`, so only a node
  // returned bare (not in a tuple) is found there, exactly as in Inductor.
  auto in_output_args = [&](const Node* n) {
    return std::any_of(output->args().begin(), output->args().end(),
                       [n](const Argument& a) { return a.is_node() && a.as_node() == n; });
  };

  std::map<std::string, int> removed;
  for (Node* node : graph.Nodes()) {
    if (node->erased() || node->op() != OpKind::kCallFunction) continue;
    const NoopRule* rule = FindNoopRule(node->target());
    if (!rule) continue;
    Node* src = const_cast<Node*>(rule->source(*node));
    if (!src || CopyIntoPinnedMemory(*node)) continue;

    // Don't introduce new aliasing between inputs and outputs.
    int node_storage = storages.Of(node);
    int src_storage = storages.Of(src);
    bool node_is_view = node_storage == src_storage;
    if (!node_is_view && output_storages.contains(node_storage) &&
        (input_storages.contains(src_storage) || output_storages.contains(src_storage))) {
      continue;
    }
    // Even if inputs and outputs are expected to alias, don't make "node is src" true.
    // (Inductor's `src in inputs`: the graph's placeholders.)
    bool src_is_input = src->op() == OpKind::kPlaceholder;
    if (node_is_view && in_output_args(node) && (src_is_input || in_output_args(src))) continue;

    if (!ArgsHaveValues(*node) || !SameMeta(*node, *src) || !rule->holds(*node)) continue;
    ++removed[std::string(CallTarget(*node))];
    graph.ReplaceAllUsesWith(node, src);
    AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
  }
  for (const auto& [target, count] : removed) context.remarks.push_back(fmt::format("removed {} {}", count, target));
  return !removed.empty();
}

}  // namespace

PassInfo OptimizeNoopOpsPass() {
  return {"optimize_noop_ops",
          "Inductor's remove_noop_ops: drop calls that return an input unchanged",
          "TorchAir's _optimize_noop_ops (npu_fx_compiler.py:350-356, called from _optimize_fx nfc:321-322) runs\n"
          "Inductor's remove_noop_ops (torch/_inductor/fx_passes/post_grad.py); airscope's table is torch's at\n"
          "pytorch/pytorch@000699cc (2.10 development line; the list differs between torch versions). A call is\n"
          "replaced by its source and erased when it is one of: slice.Tensor with start 0, end >= size or\n"
          "2**63-1, step 1 (start or end None: kept); slice_scatter of a same-shape src over the full range\n"
          "(source: src); repeat by all 1; constant_pad_nd with all-0 padding; prims.convert_element_type to\n"
          "the same dtype; prims.device_put to the same device; ceil/floor/round/trunc (.default) of an integer\n"
          "dtype; pow.Tensor_Scalar(x, 1) with the int 1; cat of one tensor (source: that tensor); view.default\n"
          "to sizes statically equal to the input's (-1 never is); view.dtype to the same dtype; copy.default\n"
          "(source: src, not when dst was made with pin_memory=True); alias; clone. Each also needs\n"
          "same_meta(node, source): equal sizes, dtype, device and strides. It is skipped when it would alias\n"
          "a graph output with an input or another output (a non-view whose storage is an output's while the\n"
          "source's storage is an input's or an output's), or when a view returned bare is replaced by an\n"
          "input or another bare output (Inductor's `node in output_node.args`, which a returned tuple never\n"
          "matches). Switch: config.experimental_config.remove_noop_ops (default true); when false the pass\n"
          "does nothing and says so in a remark. airscope simplifies: storages are derived from the graph\n"
          "(alias_analysis.h: views and in-place ops share their first argument's, everything else is fresh);\n"
          "strides are the stated ones, else derived where torch's are certain (inputs contiguous; see\n"
          "inductor_noop_table.cc), and unknown strides or meta never match; conj/neg bits are not\n"
          "modelled; a SymInt argument equals a size only when both name the same symbol.",
          PassKind::kPipeline,
          RunOptimizeNoopOps,
          {"remove_noop"},
          EffectPolicy::kPreserveAliasing,
          PassOrigin::kTorchAir};
}

}  // namespace airscope

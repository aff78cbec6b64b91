// replace_dynamic_workspace_ops: TorchAir's pass (_acl_concrete_graph/
// acl_graph.py:685-728 with the table at ag:98-161). An op whose workspace
// size depends on its inputs' values cannot be replayed from a captured
// graph with new values; TorchAir therefore allocates the op's largest
// workspace and its outputs up front and calls the op's `.out` overload.
#include <algorithm>
#include <cctype>
#include <map>

#include <fmt/format.h>

#include "core/analysis/node_util.h"
#include "core/analysis/stream_util.h"
#include "core/fx/python_repr.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

// One row of _REPLACE_FUNC_MAP with output_keys (the paged-attention rows have
// none, so the pass skips them).
struct StaticWorkspaceReplace {
  std::string_view op;
  std::string_view get_workspace;
  std::string_view out_operator;
  size_t outputs;  // len(output_keys): attention_out, softmax_lse
};

constexpr StaticWorkspaceReplace kReplaceTable[] = {
    {"npu.npu_fused_infer_attention_score.default", "npu._npu_fused_infer_attention_score_get_max_workspace.default",
     "npu.npu_fused_infer_attention_score.out", 2},
    {"npu.npu_fused_infer_attention_score_v2.default",
     "npu._npu_fused_infer_attention_score_v2_get_max_workspace.default", "npu.npu_fused_infer_attention_score_v2.out",
     2},
};

const StaticWorkspaceReplace* RowOf(const Node& node) {
  for (const StaticWorkspaceReplace& row : kReplaceTable) {
    if (IsTarget(node, row.op)) return &row;
  }
  return nullptr;
}

// construct_fx_node_shape (ag:606-643): an int stays an int, a single symbol
// becomes the SymInt placeholder that defines it.
Result<Argument> ShapeDim(const Dim& dim, const std::map<std::string, Node*>& sym_inputs, const Graph& graph) {
  if (dim.is_static()) return Argument::Int(dim.value());
  auto it = sym_inputs.find(dim.symbol());
  if (it != sym_inputs.end()) return Argument::NodeRef(it->second);
  bool single_symbol = !dim.symbol().empty() && std::isalpha(static_cast<unsigned char>(dim.symbol()[0])) &&
                       std::all_of(dim.symbol().begin(), dim.symbol().end(),
                                   [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
  if (single_symbol) {
    std::vector<std::string> known;
    for (const auto& [sym, node] : sym_inputs) known.push_back(fmt::format("{}: {}", sym, node->name()));
    return Status::Errorf(
        "RuntimeError: Unexpected sym output shape {} which is not in all sym inputs dict {{{}}} of graph[{}].",
        dim.symbol(), fmt::join(known, ", "), graph.name());
  }
  return Status::Errorf(
      "output size '{}' is a symbolic expression: TorchAir builds it from the SymInt inputs with arithmetic nodes "
      "(ag:620-638); airscope does not model that",
      dim.symbol());
}

Result<bool> ReplaceDynamicWorkspaceOps(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  std::map<std::string, Node*> sym_inputs = SymIntPlaceholders(graph);
  bool changed = false;
  for (Node* node : graph.Nodes()) {
    const StaticWorkspaceReplace* row = RowOf(*node);
    if (!row || !node->meta()) continue;  // TorchAir: no meta['val'] -> skip
    const NodeMeta& meta = *node->meta();
    std::vector<TensorMeta> outputs = meta.tensors;
    if (meta.kind != ValueKind::kTuple && meta.kind != ValueKind::kTensor) continue;
    if (outputs.size() != row->outputs) {
      return Status::Errorf(
          "RuntimeError: The lengths of the meta output {} and the register output keys {} do not match.",
          outputs.size(), row->outputs);
    }
    std::vector<Kwarg> kwargs = node->kwargs();
    Node* workspace = InsertCall(
        graph, node, CallSpec(row->get_workspace, node->args(), node->kwargs(), FxOverloadName(row->get_workspace)),
        node->stream(), registry);
    kwargs.push_back({"workspace", Argument::NodeRef(workspace)});
    std::vector<Argument> empties;
    for (const TensorMeta& out : outputs) {
      std::vector<Argument> shape;
      for (const Dim& dim : out.sizes) {
        Result<Argument> d = ShapeDim(dim, sym_inputs, graph);
        if (!d.ok()) return Status::Errorf("{} '{}': {}", row->op, node->name(), d.status().message());
        shape.push_back(*d);
      }
      Device device;
      Argument device_arg = Device::Parse(out.device, &device) ? Argument::OfDevice(device) : Argument::None();
      Node* empty = InsertCall(graph, node,
                               NodeSpec{OpKind::kCallFunction,
                                        "torch.empty",
                                        {Argument::List(std::move(shape))},
                                        {{"dtype", Argument::OfDType(out.dtype)}, {"device", device_arg}},
                                        "empty"},
                               node->stream(), registry);
      empties.push_back(Argument::NodeRef(empty));
    }
    // One output: out=tensor; several: out=[...] (ag:676-682).
    kwargs.push_back({"out", empties.size() == 1 ? empties[0] : Argument::List(std::move(empties))});
    Node* run = InsertCall(
        graph, node, CallSpec(row->out_operator, node->args(), std::move(kwargs), FxOverloadName(row->out_operator)),
        node->stream(), registry);
    if (!run->meta()) run->set_meta(meta);  // the same values, now written into the empties
    graph.ReplaceAllUsesWith(node, run);
    AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
    changed = true;
  }
  return changed;
}

}  // namespace

PassInfo ReplaceDynamicWorkspaceOpsPass() {
  return {
      "replace_dynamic_workspace_ops",
      "FIA ops -> get_max_workspace + empty outputs + .out (replace_dynamic_workspace_ops)",
      "TorchAir's replace_dynamic_workspace_ops (_acl_concrete_graph/acl_graph.py:685-728; table ag:98-161;\n"
      "called at fx2acl_converter.py:290-292). Each npu.npu_fused_infer_attention_score(.default) or\n"
      "npu.npu_fused_infer_attention_score_v2(.default) node with meta (TorchAir: meta['val']) becomes, before it:\n"
      "ws = npu._npu_fused_infer_attention_score[_v2]_get_max_workspace.default(*args, **kwargs); for each of\n"
      "its 2 outputs (attention_out, softmax_lse) torch.empty(shape, dtype=..., device=...) from its meta; and\n"
      "npu.npu_fused_infer_attention_score[_v2].out(*args, **kwargs, workspace=ws, out=[empty, empty_1]),\n"
      "which takes over the node's uses; the node is erased. Nodes without meta are skipped; meta with another\n"
      "number of outputs is TorchAir's RuntimeError. A size that is one symbol becomes the SymInt placeholder\n"
      "annotated Sym(<symbol>) (TorchAir: the SymInt input of that symbol); an unknown symbol is TorchAir's\n"
      "RuntimeError. airscope simplifies: a size that is a symbolic expression (TorchAir builds it with\n"
      "arithmetic nodes, ag:620-638) is an error; an unknown device is device=None; the paged-attention rows of\n"
      "the table have no outputs to replace and are skipped, as in TorchAir.",
      PassKind::kPipeline,
      ReplaceDynamicWorkspaceOps,
      {},
      EffectPolicy::kPreserveAliasing,
      PassOrigin::kTorchAir};
}

}  // namespace airscope

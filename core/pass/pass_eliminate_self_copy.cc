// eliminate_self_copy: the npugraph_ex package's pass (npugraph_ex/
// _acl_concrete_graph/graph_pass.py:1480-1503 at fced8842), which its
// AclConcreteGraph runs right after the reinplace passes
// (npugraph_ex/_acl_concrete_graph/fx2acl_converter.py:277-280).
// python/torchair's pipeline (mode reduce-overhead) has no such pass, so it is
// optional here, and in the pipeline under `mode npugraph_ex`
// (NpugraphExPipeline).
//
// decompose_auto_functionalized writes `copy_(x, x)` for a mutable argument
// that reinplace_input_mutated_ops already reinplaced; the copy is a no-op,
// but DCE keeps it because copy_ writes. TorchAir's rule, exactly: a
// call_function of aten.copy_.default with at least two arguments, the first
// two the same node, and no users.
#include <fmt/format.h>

#include "core/analysis/node_util.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

bool IsUnusedSelfCopy(const Node& node) {
  if (!IsTarget(node, "aten.copy_.default") || node.args().size() < 2 || !node.users().empty()) return false;
  const Argument& dst = node.args()[0];
  const Argument& src = node.args()[1];
  return dst.is_node() && src.is_node() && dst.as_node() == src.as_node();
}

Result<bool> RunEliminateSelfCopy(Graph& graph, PassContext& context) {
  // Collected first, erased after, as TorchAir does (erasing while walking
  // the list would skip the node after each erased one in FX).
  std::vector<Node*> self_copies;
  for (Node* node : graph) {
    if (IsUnusedSelfCopy(*node)) self_copies.push_back(node);
  }
  for (Node* node : self_copies) {
    context.remarks.push_back(fmt::format("Eliminating self-copy node: {}", node->name()));
    AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
  }
  if (!self_copies.empty()) context.remarks.push_back(fmt::format("Eliminated {} self-copy nodes", self_copies.size()));
  return !self_copies.empty();
}

}  // namespace

PassInfo EliminateSelfCopyPass() {
  return {"eliminate_self_copy",
          "npugraph_ex's pass: erase unused copy_(x, x)",
          "Erases every aten.copy_.default whose destination and source are the same node and whose result "
          "nobody uses: the no-op copy decompose_auto_functionalized leaves for a mutable argument that "
          "reinplace_input_mutated_ops reinplaced, which DCE keeps because copy_ writes. This is the npugraph_ex "
          "package's pass (torch.compile(backend=\"npugraph_ex\"); npugraph_ex/_acl_concrete_graph/"
          "graph_pass.py:1480-1503), run after the reinplace passes (fx2acl_converter.py:277-280); TorchAir's "
          "reduce-overhead pipeline (python/torchair), which airscope's default pipeline models, does not run it: "
          "it is in the pipeline under `set mode npugraph_ex`; elsewhere, pipeline insert eliminate_self_copy "
          "after decompose_auto_functionalized.",
          PassKind::kOptional,
          RunEliminateSelfCopy,
          {},
          EffectPolicy::kPreserveValues,
          PassOrigin::kTorchAir};
}

}  // namespace airscope

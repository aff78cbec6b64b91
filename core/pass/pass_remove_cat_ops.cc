// remove_cat_ops: TorchAir's AclConcreteGraph runs a pass of this name whose
// exact rules are not public; airscope defines it as two safe rewrites (see
// the help text) rather than guess at more.
#include "core/pass/builtin_passes.h"
#include "core/pass/stream_util.h"

namespace airscope {
namespace {

constexpr std::string_view kCat = "aten.cat.default";

// cat's dim: args[1] or kwarg `dim`, default 0. nullopt if not a plain int.
std::optional<int64_t> CatDim(const Node& cat) {
  const Argument* dim = cat.args().size() > 1 ? &cat.args()[1] : cat.kwarg("dim");
  if (!dim) return 0;
  if (dim->kind() != Argument::Kind::kInt) return std::nullopt;
  return dim->as_int();
}

// A negative dim only equals another when both are spelled the same; without
// ranks we do not normalise, so -1 and 1 are treated as different (safe).
Result<bool> RemoveCatOps(Graph& graph, PassContext& context) {
  bool changed = false;
  for (Node* node : graph.Nodes()) {
    if (!IsTarget(*node, kCat) || node->args().empty() || !node->args()[0].is_sequence()) continue;
    std::optional<int64_t> dim = CatDim(*node);
    if (!dim) continue;
    // Flatten inputs that are cats along the same dim used only here.
    std::vector<Argument> inputs;
    std::vector<Node*> flattened;
    for (const Argument& item : node->args()[0].items()) {
      Node* inner = item.is_node() ? item.as_node() : nullptr;
      if (inner && IsTarget(*inner, kCat) && inner->users().size() == 1 && !inner->args().empty() &&
          inner->args()[0].is_sequence() && CatDim(*inner) == dim && inner != node) {
        for (const Argument& x : inner->args()[0].items()) inputs.push_back(x);
        flattened.push_back(inner);
      } else {
        inputs.push_back(item);
      }
    }
    if (!flattened.empty()) {
      std::vector<Argument> args = node->args();
      args[0] = Argument::List(inputs);
      graph.SetArgs(node, std::move(args));
      for (Node* inner : flattened) {
        if (inner->users().empty()) AIRSCOPE_RETURN_IF_ERROR(graph.Erase(inner));
      }
      changed = true;
    }
    // A cat of one tensor is that tensor.
    if (inputs.size() == 1 && inputs[0].is_node()) {
      graph.ReplaceAllUsesWith(node, inputs[0].as_node());
      AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
      changed = true;
    }
  }
  return changed;
}

}  // namespace

PassInfo RemoveCatOpsPass() {
  return {"remove_cat_ops", "drop single-input cats and flatten nested cats along one dim",
          "Models the remove_cat_ops step of TorchAir's AclConcreteGraph optimisation\n"
          "(torchair/_acl_concrete_graph/graph_pass.py), whose exact rules are not public. airscope defines it\n"
          "as two rewrites that never change results: an aten.cat of a single input tensor is replaced by that\n"
          "tensor, and an aten.cat whose input is another aten.cat along the same dim, used only by it, takes\n"
          "that cat's inputs in its place (the inner cat is erased).",
          PassKind::kPipeline, RemoveCatOps};
}

}  // namespace airscope

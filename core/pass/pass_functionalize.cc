// functionalize: in-place ops become out-of-place. TorchAir's reduce-overhead
// mode compiles with keep_inference_input_mutations=False, so a mutation of a
// graph input is written back once, by an `aten.copy_.default(input, value)`
// epilogue before the output, as AOT autograd's functionalization does.
#include <fmt/format.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "core/pass/builtin_passes.h"
#include "core/pass/pass_util.h"

namespace airscope {
namespace {

// A value that aliases another tensor's storage (mutating it would mutate
// that tensor too); getitem of a tuple-valued op is a plain value.
bool IsViewOfAnother(const Node* node, const OpRegistry& registry) {
  if (node->op() != OpKind::kCallFunction || IsTarget(*node, "operator.getitem")) return false;
  const OpInfo* info = registry.Find(node->target());
  return info && info->category == OpCategory::kView;
}

Result<bool> RunFunctionalize(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  std::unordered_map<const Node*, size_t> position = Positions(graph);
  // For values that stand for a graph input's current contents: that input.
  std::unordered_map<const Node*, Node*> input_of;
  std::vector<Node*> mutated_inputs;  // in first-mutation order
  std::unordered_map<Node*, Node*> latest;  // input -> its final value
  int functionalized = 0, on_views = 0;
  for (Node* node : graph.Nodes()) {
    if (node->op() != OpKind::kCallFunction || IsTarget(*node, "aten.copy_.default")) continue;
    const OpInfo* info = registry.Find(node->target());
    if (!info || !info->inplace) continue;
    std::string functional = OutOfPlaceTarget(node->target());
    if (functional.empty() || !registry.Find(functional)) continue;
    if (node->args().empty() || !node->args()[0].is_node()) continue;
    Node* self = node->args()[0].as_node();
    if (IsViewOfAnother(self, registry)) {
      ++on_views;  // would need view replay (torch's FunctionalTensor); left as it is
      continue;
    }
    size_t at = position.at(node);
    std::vector<Node*> later_users;
    for (Node* user : self->users()) {
      if (user != node && position.at(user) > at) later_users.push_back(user);
    }
    Retarget(graph, node, functional, registry);
    Node* value = node;  // the out-of-place op now computes self's new contents
    // After the mutation, reads of `self` see the new contents: they read `value`.
    for (Node* user : later_users) graph.ReplaceInput(user, self, value);
    Node* input = self->op() == OpKind::kPlaceholder ? self : nullptr;
    if (auto it = input_of.find(self); it != input_of.end()) input = it->second;
    if (input) {
      input_of[value] = input;
      if (!latest.count(input)) mutated_inputs.push_back(input);
      latest[input] = value;
    }
    ++functionalized;
  }
  Node* output = graph.output();
  for (Node* input : mutated_inputs) {
    if (!output) return Status::Error("graph has no output node to put the copy_ epilogue before");
    InsertCall(graph, output,
               CallSpec("aten.copy_.default", {Argument::NodeRef(input), Argument::NodeRef(latest[input])}),
               latest[input]->stream(), registry);
  }
  if (functionalized > 0) {
    context.remarks.push_back(fmt::format("functionalized {} in-place op(s); {} graph input(s) copied back",
                                          functionalized, mutated_inputs.size()));
  }
  if (on_views > 0) context.remarks.push_back(fmt::format("left {} in-place op(s) on views", on_views));
  return functionalized > 0;
}

}  // namespace

PassInfo FunctionalizePass() {
  return {"functionalize", "in-place ops become out-of-place; graph-input mutations are copied back",
          "Rewrites every in-place call (hardtanh_, add_, relu_, ...: OpInfo::inplace) into its out-of-place "
          "form (the name minus the trailing underscore), keeping the node's name; later reads of the mutated "
          "value read the new node instead. When the mutated tensor is a graph input, an "
          "aten.copy_.default(input, value) epilogue before the output writes the final value back, as "
          "reduce-overhead mode sets keep_inference_input_mutations=False. Leaves alone copy_ itself, ops "
          "without an out-of-place form in the registry and mutations of views of other tensors. Models AOT "
          "autograd's functionalization as TorchAir sees it.",
          PassKind::kOptional, RunFunctionalize, {}, EffectPolicy::kPreserveAliasing};
}

}  // namespace airscope

// Functionalization as AOT autograd's inference path leaves it (aot.h): every
// in-place call becomes its out-of-place form, keeping the node's place;
// later reads of the mutated tensor read the new value. A mutated graph input
// is written back by `aten.copy_.default(input, final value)` before the
// output when keep_input_mutations (torch keeps data-only input mutations in
// the graph), else its final value is returned in front of the user outputs
// (fn_input_mutations_to_outputs: `return *mutated_inputs_to_return, *outs`).
#include <unordered_map>
#include <vector>

#include "core/aot/aot.h"
#include "core/pass/alias_analysis.h"
#include "core/pass/pass_util.h"

namespace airscope {
namespace {

// Only copy_ calls follow `node` up to the output: AOT's write-back epilogue.
bool InEpilogue(const Node* node) {
  for (const Node* next = node->next(); next; next = next->next()) {
    if (next->op() == OpKind::kOutput) return true;
    if (!IsTarget(*next, "aten.copy_.default")) return false;
  }
  return false;
}

// The output's values with `front` put before them, as one tuple.
Argument WithFront(const Argument& returned, const std::vector<Node*>& front) {
  std::vector<Argument> items;
  for (Node* node : front) items.push_back(Argument::NodeRef(node));
  if (returned.is_sequence()) {
    items.insert(items.end(), returned.items().begin(), returned.items().end());
  } else {
    items.push_back(returned);
  }
  return Argument::Tuple(std::move(items));
}

}  // namespace

Result<FunctionalizeStats> Functionalize(Graph& graph, const OpRegistry& registry, bool keep_input_mutations) {
  FunctionalizeStats stats;
  FlatNodeMap<size_t> position = Positions(graph);
  // For values that stand for a graph input's current contents: that input.
  std::unordered_map<const Node*, Node*> input_of;
  std::vector<Node*> mutated_inputs;  // in first-mutation order
  std::unordered_map<Node*, Node*> latest;  // input -> its final value
  for (Node* node : graph.Nodes()) {
    if (node->op() != OpKind::kCallFunction) continue;
    const OpInfo* info = registry.Find(node->target());
    if (!info || !info->inplace) continue;
    if (node->args().empty() || !node->args()[0].is_node()) continue;
    Node* self = node->args()[0].as_node();
    bool is_copy = IsTarget(*node, "aten.copy_.default");
    // A copy_ that already writes a graph input back is AOT's own epilogue.
    if (is_copy && self->op() == OpKind::kPlaceholder && node->users().empty() && InEpilogue(node)) {
      continue;
    }
    std::string functional = is_copy ? "" : OutOfPlaceTarget(node->target());
    if (!is_copy && (functional.empty() || !registry.Find(functional))) continue;
    if (IsViewOp(*self, registry)) {
      ++stats.left_on_views;  // would need view replay (torch's FunctionalTensor); left as it is
      continue;
    }
    size_t at = position.At(node);
    std::vector<Node*> later_users;
    for (Node* user : self->users()) {
      if (user != node && position.At(user) > at) later_users.push_back(user);
    }
    Node* value = node;
    if (is_copy) {
      // x.copy_(src): x's new contents are src's (torch's functional copy is
      // aten.copy.default(x, src), which broadcasts src into x's shape).
      if (node->args().size() < 2 || !node->args()[1].is_node()) continue;
      Retarget(graph, node, "aten.copy.default", registry);
    } else {
      Retarget(graph, node, functional, registry);
    }
    // After the mutation, reads of `self` see the new contents: they read `value`.
    for (Node* user : later_users) graph.ReplaceInput(user, self, value);
    Node* input = self->op() == OpKind::kPlaceholder ? self : nullptr;
    if (auto it = input_of.find(self); it != input_of.end()) input = it->second;
    if (input) {
      input_of[value] = input;
      if (!latest.count(input)) mutated_inputs.push_back(input);
      latest[input] = value;
    }
    ++stats.functionalized;
  }
  stats.mutated_inputs = mutated_inputs.size();
  if (mutated_inputs.empty()) return stats;
  Node* output = graph.output();
  if (!output) return Status::Error("graph has no output node to write mutated inputs back before");
  if (keep_input_mutations) {
    for (Node* input : mutated_inputs) {
      InsertCall(graph, output,
                 CallSpec("aten.copy_.default", {Argument::NodeRef(input), Argument::NodeRef(latest[input])}),
                 latest[input]->stream(), registry);
    }
  } else {
    std::vector<Node*> front;
    for (Node* input : mutated_inputs) front.push_back(latest[input]);
    graph.SetArgs(output, {WithFront(output->args().empty() ? Argument::Tuple({}) : output->args()[0], front)});
  }
  return stats;
}

}  // namespace airscope

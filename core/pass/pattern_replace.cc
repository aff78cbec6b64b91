#include "core/pass/pattern_replace.h"

#include <cassert>

#include "core/analysis/node_util.h"
#include "core/pass/inductor_noop_table.h"

namespace airscope {

ReplacementBuilder::ReplacementBuilder(Graph& graph, Node* position, const OpRegistry& registry)
    : graph_(graph), position_(position), registry_(registry) {}

Node* ReplacementBuilder::Call(std::string_view target, std::vector<Argument> args, std::vector<Kwarg> kwargs) {
  Node* node = InsertCall(graph_, position_, CallSpec(target, std::move(args), std::move(kwargs)), position_->stream(),
                          registry_);
  made_.push_back(node);
  return node;
}

Node* ReplacementBuilder::Getitem(Node* tuple, int64_t index) {
  return Call("operator.getitem", {Argument::NodeRef(tuple), Argument::Int(index)});
}

Node* ReplacementBuilder::View(Node* x, std::vector<Argument> sizes) {
  Node* view = Call("aten.view.default", {Argument::NodeRef(x), Argument::List(std::move(sizes))});
  const NoopRule* rule = FindNoopRule("aten.view.default");
  if (rule && rule->holds(*view)) {
    made_.pop_back();
    (void)graph_.Erase(view);
    return x;
  }
  return view;
}

bool ReplaceWithGraph(Graph& graph, const PatternMatch& match, const BuildReplacement& build,
                      const OpRegistry& registry, std::string& why) {
  // last_node: the earliest output in graph order (min over the outputs' indices).
  Node* position = nullptr;
  for (Node* out : match.outputs) {
    if (out && (!position || graph.PositionOf(out) < graph.PositionOf(position))) position = out;
  }
  assert(position);
  ReplacementBuilder builder(graph, position, registry);
  std::optional<std::vector<Node*>> values = build(builder, why);
  if (!values || values->size() != match.outputs.size()) {
    std::vector<Node*> made = builder.made();
    for (auto it = made.rbegin(); it != made.rend(); ++it) (void)graph.Erase(*it);
    return false;
  }
  for (size_t i = 0; i < match.outputs.size(); ++i) {
    Node* old = match.outputs[i];
    Node* now = (*values)[i];
    if (!old || old->erased()) continue;  // FX warns "erase_node on an already erased node"
    if (!now->meta() && old->meta()) now->set_meta(*old->meta());
    graph.ReplaceAllUsesWith(old, now);
    (void)graph.Erase(old);
  }
  // Match.erase_nodes: reversed(match.nodes), each not yet erased and unused.
  for (auto it = match.nodes.rbegin(); it != match.nodes.rend(); ++it) {
    if (!(*it)->erased() && (*it)->users().empty()) (void)graph.Erase(*it);
  }
  return true;
}

}  // namespace airscope

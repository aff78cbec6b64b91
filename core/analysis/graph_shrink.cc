#include "core/analysis/graph_shrink.h"

#include <cstdint>
#include <string>
#include <utility>

#include "core/ops/op_registry.h"

namespace airscope {
namespace {

bool IsShrinkable(const Node& node) { return node.op() != OpKind::kPlaceholder && node.op() != OpKind::kOutput; }

bool IsGetitem(const Node& node) {
  return node.op() == OpKind::kCallFunction && StripTorchOps(node.target()) == "operator.getitem";
}

}  // namespace

std::vector<const Node*> ShrinkableNodes(const Graph& graph) {
  std::vector<const Node*> nodes;
  for (const Node* node : graph) {
    if (IsShrinkable(*node)) nodes.push_back(node);
  }
  return nodes;
}

size_t ComputeNodeCount(const Graph& graph) {
  size_t count = 0;
  for (const Node* node : graph) {
    count += node->op() != OpKind::kPlaceholder && node->op() != OpKind::kGetAttr && node->op() != OpKind::kOutput;
  }
  return count;
}

std::unique_ptr<Graph> KeepOnly(const Graph& graph, const std::vector<uint32_t>& keep) {
  const size_t size = graph.size();
  // What each original node becomes, by position.
  enum Role : uint8_t { kGone, kKept, kInput };
  std::vector<uint8_t> role(size, kGone);
  for (uint32_t position : keep) role[position] = kKept;
  std::vector<Node*> nodes = graph.Nodes();
  const Node* original_output = graph.output();
  // A kept getitem of a removed producer is an input itself; every other
  // kept node's removed (or placeholder) inputs become inputs.
  for (uint32_t position : keep) {
    const Node* node = nodes[position];
    if (IsGetitem(*node) && !node->args().empty() && node->args()[0].is_node() &&
        role[graph.PositionOf(node->args()[0].as_node())] != kKept) {
      role[position] = kInput;
    }
  }
  for (uint32_t position : keep) {
    if (role[position] != kKept) continue;
    for (const Node* input : nodes[position]->inputs()) {
      uint32_t p = graph.PositionOf(input);
      if (role[p] == kGone) role[p] = kInput;
    }
  }
  auto out = std::make_unique<Graph>(graph.name());
  out->mutable_style() = graph.style();
  std::vector<Node*> copies(size, nullptr);
  for (size_t i = 0; i < size; ++i) {
    if (role[i] != kInput) continue;
    const Node* node = nodes[i];
    NodeSpec spec;
    spec.op = OpKind::kPlaceholder;
    spec.target = node->name();
    spec.name = node->name();
    if (node->op() == OpKind::kPlaceholder) spec.args = node->args();  // its default value, if any
    // Names come from a graph where they were unique and legal: this cannot fail.
    Node* copy = *out->AppendNamed(std::move(spec));
    if (node->meta()) copy->set_meta(*node->meta());
    copies[i] = copy;
  }
  auto remap = [&](Node* n) { return copies[graph.PositionOf(n)]; };
  for (size_t i = 0; i < size; ++i) {
    if (role[i] != kKept) continue;
    const Node* node = nodes[i];
    NodeSpec spec;
    spec.op = node->op();
    spec.target = node->target();
    spec.name = node->name();
    spec.args.reserve(node->args().size());
    for (const Argument& a : node->args()) spec.args.push_back(a.MapNodes(remap));
    for (const Kwarg& kw : node->kwargs()) spec.kwargs.push_back({kw.name, kw.value.MapNodes(remap)});
    Node* copy = *out->AppendNamed(std::move(spec));
    if (node->meta()) copy->set_meta(*node->meta());
    if (!node->stream().empty()) out->SetStream(copy, node->stream());
    copies[i] = copy;
  }
  std::vector<Argument> returned;
  for (size_t i = 0; i < size; ++i) {
    if (role[i] != kKept || !nodes[i]->meta()) continue;
    bool read_by_kept = false;
    for (const Node* user : nodes[i]->users()) {
      if (user != original_output && role[graph.PositionOf(user)] == kKept) {
        read_by_kept = true;
        break;
      }
    }
    if (!read_by_kept) returned.push_back(Argument::NodeRef(copies[i]));
  }
  NodeSpec output;
  output.op = OpKind::kOutput;
  output.target = "output";
  output.name = original_output ? original_output->name() : "output";
  output.args.push_back(Argument::Tuple(std::move(returned)));
  if (!out->Find(output.name)) {
    (void)out->AppendNamed(std::move(output));
  } else {
    output.name = "output";
    out->Append(std::move(output));
  }
  return out;
}

}  // namespace airscope

// Chain-shaped graphs for tests and benches that need size, not realism: a
// long relu chain (huge inputs, snapshot memory) and a chain with a side
// branch every fifth node (DOT layout, rendering). Every node carries its
// tensor meta, as a loaded graph with annotations would. Header-only, no test
// framework: the unit tests (tests/unit) and the benches (bench/) share it.
// Realistic graphs are bench/transformer_graph.h's.
#pragma once

#include <cstddef>
#include <memory>
#include <string_view>
#include <utility>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/tensor_meta.h"

namespace airscope {

namespace chain_graphs_detail {

inline NodeMeta TensorOfShape(std::string_view annotation) {
  NodeMeta meta;
  meta.tensors.push_back(*TensorMeta::ParseAnnotation(annotation));
  return meta;
}

inline Node* Input(Graph& g, const NodeMeta& meta) {
  NodeSpec input;
  input.op = OpKind::kPlaceholder;
  input.target = input.name = "x";
  Node* x = *g.AppendNamed(std::move(input));
  x->set_meta(meta);
  return x;
}

inline void Output(Graph& g, Node* value) {
  NodeSpec out;
  out.op = OpKind::kOutput;
  out.target = out.name = "output";
  out.args.push_back(Argument::Tuple({Argument::NodeRef(value)}));
  g.Append(std::move(out));
}

}  // namespace chain_graphs_detail

// x -> relu -> relu_1 -> ... (`relus` of them) -> output, every value of
// `shape` ("f32[4]"): relus + 2 nodes.
inline std::unique_ptr<Graph> ReluChain(size_t relus, std::string_view shape = "f32[8, 8]") {
  using namespace chain_graphs_detail;
  auto g = std::make_unique<Graph>("chain");
  NodeMeta meta = TensorOfShape(shape);
  Node* prev = Input(*g, meta);
  for (size_t i = 0; i < relus; ++i) {
    NodeSpec spec;
    spec.target = "torch.ops.aten.relu.default";
    spec.args.push_back(Argument::NodeRef(prev));
    prev = g->Append(std::move(spec));
    prev->set_meta(meta);
  }
  Output(*g, prev);
  return g;
}

// `nodes` nodes in all, like a deep network's forward graph: a chain of relus
// in which every fifth node is an add of the chain and the previous add (the
// side branch), all f32[8, 8].
inline std::unique_ptr<Graph> ChainWithBranches(size_t nodes) {
  using namespace chain_graphs_detail;
  auto g = std::make_unique<Graph>("chain");
  NodeMeta meta = TensorOfShape("f32[8, 8]");
  Node* prev = Input(*g, meta);
  Node* branch = prev;
  for (size_t i = 1; i + 1 < nodes; ++i) {
    bool add = i % 5 == 0;
    NodeSpec spec;
    spec.target = add ? "torch.ops.aten.add.Tensor" : "torch.ops.aten.relu.default";
    // push_back, not an initializer list: GCC 12 at -O3 reports a false
    // -Warray-bounds inside std::variant for the list (GCC bug 106199).
    spec.args.push_back(Argument::NodeRef(prev));
    if (add) spec.args.push_back(Argument::NodeRef(branch));
    Node* node = g->Append(std::move(spec));
    node->set_meta(meta);
    if (add) branch = node;
    prev = node;
  }
  Output(*g, prev);
  return g;
}

}  // namespace airscope

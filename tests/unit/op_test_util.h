// Helpers for op-registry and shape-inference tests: build small graphs
// programmatically (the FX loaders live elsewhere) and run one node's rule.
#pragma once

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"
#include "core/ops/shape_inference.h"

namespace airscope::testing {

inline TensorMeta T(std::string_view annotation) {
  auto parsed = TensorMeta::ParseAnnotation(annotation);
  EXPECT_TRUE(parsed.ok()) << annotation;
  return parsed.ok() ? *parsed : TensorMeta{};
}

inline NodeMeta Annotated(std::string_view annotation) {
  NodeMeta meta;
  meta.tensors.push_back(T(annotation));
  return meta;
}

inline Argument N(Node* node) { return Argument::NodeRef(node); }
inline Argument I(int64_t v) { return Argument::Int(v); }
inline Argument F(double v) { return Argument::Float(v); }
inline Argument B(bool v) { return Argument::Bool(v); }
inline Argument None() { return Argument::None(); }
inline Argument Ints(std::vector<int64_t> values) {
  std::vector<Argument> items;
  for (int64_t v : values) items.push_back(Argument::Int(v));
  return Argument::List(std::move(items));
}
inline Argument Strs(std::vector<std::string> values) {
  std::vector<Argument> items;
  for (std::string& v : values) items.push_back(Argument::String(std::move(v)));
  return Argument::List(std::move(items));
}
inline Argument Nodes(std::vector<Node*> nodes) {
  std::vector<Argument> items;
  for (Node* n : nodes) items.push_back(Argument::NodeRef(n));
  return Argument::List(std::move(items));
}
inline Argument Bools(std::vector<bool> values) {
  std::vector<Argument> items;
  for (bool v : values) items.push_back(Argument::Bool(v));
  return Argument::List(std::move(items));
}

class GraphBuilder {
 public:
  // A placeholder; annotation "" leaves it without meta.
  Node* Input(const std::string& name, std::string_view annotation = "") {
    return Leaf(OpKind::kPlaceholder, name, annotation);
  }
  Node* Attr(const std::string& name, std::string_view annotation = "") {
    return Leaf(OpKind::kGetAttr, name, annotation);
  }
  // `target` as FX prints it (aten ops get the `torch.ops.` prefix added).
  Node* Call(const std::string& target, std::vector<Argument> args, std::vector<Kwarg> kwargs = {},
             const std::string& name = "") {
    NodeSpec spec;
    spec.op = OpKind::kCallFunction;
    bool torch_op = target.rfind("aten.", 0) == 0 || target.rfind("air.", 0) == 0;
    spec.target = torch_op ? "torch.ops." + target : target;
    spec.args = std::move(args);
    spec.kwargs = std::move(kwargs);
    if (name.empty()) return graph.Append(std::move(spec));
    spec.name = name;
    auto node = graph.AppendNamed(std::move(spec));
    EXPECT_TRUE(node.ok()) << node.status().message();
    return node.ok() ? *node : nullptr;
  }
  Node* Output(std::vector<Argument> values) {
    NodeSpec spec;
    spec.op = OpKind::kOutput;
    spec.target = "output";
    spec.name = "output";
    spec.args = {Argument::Tuple(std::move(values))};
    return *graph.AppendNamed(std::move(spec));
  }

  Graph graph;

 private:
  Node* Leaf(OpKind op, const std::string& name, std::string_view annotation) {
    NodeSpec spec;
    spec.op = op;
    spec.target = name;
    spec.name = name;
    auto node = graph.AppendNamed(std::move(spec));
    EXPECT_TRUE(node.ok()) << node.status().message();
    if (!annotation.empty()) (*node)->set_meta(Annotated(annotation));
    return *node;
  }
};

// Runs the builtin rule for `node` and, on success, stores the result as its meta.
inline Result<NodeMeta> Infer(Node* node) {
  const OpInfo* info = OpRegistry::Builtin().Find(node->target());
  if (!info || !info->infer) return Status::Errorf("no rule for {}", node->target());
  auto meta = info->infer(*node);
  if (meta.ok()) node->set_meta(*meta);
  return meta;
}

// The inferred shape as an annotation (`f32[2, 3]`), or the error message.
inline std::string Shape(Node* node) {
  auto meta = Infer(node);
  if (!meta.ok()) return "error: " + meta.status().message();
  return meta->ShapeString();
}

inline std::optional<OpCost> Cost(const Node* node) {
  const OpInfo* info = OpRegistry::Builtin().Find(node->target());
  if (!info || !info->cost) return std::nullopt;
  return info->cost(*node);
}

// The builtin op registry (short, as the other builders here are).
inline const OpRegistry& R() { return OpRegistry::Builtin(); }

// Shapes of every node of `graph`, through the builtin registry.
inline void Infer(Graph& graph) { InferShapes(graph, OpRegistry::Builtin()); }

// How many call_function nodes of `graph` call `target` (written without torch.ops.).
inline size_t CountCalls(const Graph& graph, std::string_view target) {
  size_t n = 0;
  for (const Node* node : graph) n += node->op() == OpKind::kCallFunction && StripTorchOps(node->target()) == target;
  return n;
}

}  // namespace airscope::testing

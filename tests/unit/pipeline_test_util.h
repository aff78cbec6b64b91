// Small graphs and test passes for the pass manager / pipeline tests: the
// builtin passes live elsewhere, so these tests bring their own.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "core/fx/fx_text.h"
#include "core/pass/pass.h"

namespace airscope::testing_passes {

// x -> relu -> add(relu, x) -> clone -> output
inline std::unique_ptr<Graph> SmallGraph() {
  auto parsed = ParseFxText(
      "graph():\n"
      "    %x : [num_users=2] = placeholder[target=x]\n"
      "    %relu : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%x,), kwargs = {})\n"
      "    %add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%relu, %x), kwargs = {})\n"
      "    %clone : [num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%add,), kwargs = {})\n"
      "    return (clone,)",
      "small.graph.txt");
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  return std::move(parsed).value();
}

// Inserts a neg after the first relu-like node it finds and routes its users through it.
inline Result<bool> InsertNeg(Graph& graph, PassContext& context) {
  Node* relu = graph.Find("relu");
  if (!relu) return false;
  std::vector<Node*> users = relu->users().ToVector();
  NodeSpec spec;
  spec.target = "torch.ops.aten.neg.default";
  spec.args = {Argument::NodeRef(relu)};
  Node* neg = graph.InsertAfter(relu, std::move(spec));
  for (Node* user : users) graph.ReplaceInput(user, relu, neg);
  context.remarks.push_back(fmt::format("inserted {}", neg->name()));
  return true;
}

// Removes clone nodes (remove_noop in miniature).
inline Result<bool> RemoveClone(Graph& graph, PassContext&) {
  bool changed = false;
  for (Node* node : graph.Nodes()) {
    if (node->target() != "torch.ops.aten.clone.default") continue;
    graph.ReplaceAllUsesWith(node, node->args()[0].as_node());
    if (!graph.Erase(node).ok()) return Status::Error("could not erase clone");
    changed = true;
  }
  return changed;
}

inline Result<bool> Nothing(Graph&, PassContext&) { return false; }

// Renames a node, then fails half way: the manager must undo the rename.
inline Result<bool> FailHalfWay(Graph& graph, PassContext&) {
  if (Node* relu = graph.Find("relu")) (void)graph.Rename(relu, "renamed");
  return Status::Error("cannot handle node 'add'");
}

// Moves the output node before the last compute node: lint must catch it.
inline Result<bool> BreakLint(Graph& graph, PassContext&) {
  graph.MoveBefore(graph.output(), graph.output()->prev());
  return true;
}

// Sets a node's args to what they already are: the graph is touched (its
// version moves) but not changed; the pass claims it changed it.
inline Result<bool> TouchOnly(Graph& graph, PassContext&) {
  Node* add = graph.Find("add");
  graph.SetArgs(add, add->args());
  return true;
}

// Changes only a node's meta, and says nothing changed.
inline Result<bool> MetaOnly(Graph& graph, PassContext&) {
  NodeMeta meta;
  meta.tensors.push_back(*TensorMeta::ParseAnnotation("f32[7]"));
  graph.Find("relu")->set_meta(std::move(meta));
  return false;
}

inline Result<bool> Throws(Graph& graph, PassContext&) {
  graph.set_name(graph.name());
  throw std::out_of_range("map::at");
}

// A user-kind PassInfo around a function.
inline PassInfo Info(std::string name, PassFn fn) {
  PassInfo info;
  info.name = std::move(name);
  info.summary = "test pass";
  info.kind = PassKind::kUser;
  info.effects = EffectPolicy::kPreserveAliasing;  // user passes may change the math (insert_neg does)
  info.run = std::move(fn);
  return info;
}

inline PassRegistry TestRegistry() {
  PassRegistry registry;
  EXPECT_TRUE(registry.Register(Info("insert_neg", InsertNeg)).ok());
  EXPECT_TRUE(registry.Register(Info("remove_clone", RemoveClone)).ok());
  EXPECT_TRUE(registry.Register(Info("nothing", Nothing)).ok());
  EXPECT_TRUE(registry.Register(Info("fail_half_way", FailHalfWay)).ok());
  EXPECT_TRUE(registry.Register(Info("break_lint", BreakLint)).ok());
  EXPECT_TRUE(registry.Register(Info("throws", Throws)).ok());
  EXPECT_TRUE(registry.Register(Info("touch_only", TouchOnly)).ok());
  EXPECT_TRUE(registry.Register(Info("meta_only", MetaOnly)).ok());
  return registry;
}

}  // namespace airscope::testing_passes

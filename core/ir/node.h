// Node: one operation in a Graph, shaped like torch.fx.Node.
//
// Contract: a Node is created, mutated and destroyed only through its Graph,
// which keeps `users` consistent with every node's args/kwargs (a node appears
// at most once in another node's users, in first-use order, as in FX's
// ordered dict). Readers get const views; `meta` is free-form knowledge and
// may be set directly.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/argument.h"
#include "core/ir/tensor_meta.h"
#include "core/ir/user_list.h"

namespace airscope {

class Graph;

enum class OpKind : uint8_t {
  kPlaceholder,
  kGetAttr,
  kCallFunction,
  kCallMethod,
  kCallModule,
  kOutput,
};

// FX's spelling: "placeholder", "call_function", ...
std::string_view OpKindName(OpKind op);
bool ParseOpKind(std::string_view text, OpKind* out);

// The key torch uses when counting ops: str(node.target) for call_function
// (`aten.mm.default`, `<built-in function getitem>`), else the op kind
// (`placeholder`, `get_attr`, `output`) and, for call_method/call_module, the target.
std::string OpHistogramKey(const Node& node);

class Node {
 public:
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  const std::string& name() const { return name_; }
  OpKind op() const { return op_; }
  // The target as FX prints it: `torch.ops.aten.mm.default`, `operator.getitem`,
  // a placeholder's name, a get_attr's attribute path, a method name.
  const std::string& target() const { return target_ ? *target_ : name_; }
  const std::vector<Argument>& args() const { return args_; }
  const std::vector<Kwarg>& kwargs() const { return kwargs_ ? *kwargs_ : NoKwargs(); }
  // nullptr if there is no kwarg of that name.
  const Argument* kwarg(std::string_view name) const;
  // In first-use order; iterate it, or ToVector() for a snapshot to mutate by.
  const UserList& users() const { return users_; }
  // Distinct nodes this node reads, in first-use order (args then kwargs).
  std::vector<Node*> inputs() const;

  // The stream the node runs on; "" is the default stream.
  const std::string& stream() const { return *stream_; }

  const NodeMeta* meta() const { return meta_; }
  // The tensor this node makes, when its meta says it makes exactly one.
  const TensorMeta* tensor() const { return meta_ ? meta_->tensor() : nullptr; }
  // Meta is part of the graph's content: both bump the graph's version().
  // Not for an erased node (ignored).
  void set_meta(NodeMeta meta);
  // The meta `like` has, shared, not copied: a loader that meets one
  // annotation a million times parses it once. `like` must be a node of
  // this graph (another graph's meta may not outlive it): else ignored.
  void share_meta(const Node& like);
  void clear_meta();

  Node* prev() const { return prev_; }      // nullptr at the front
  Node* next() const { return next_; }      // nullptr at the back
  Graph& graph() const { return *graph_; }  // not for an erased node
  // Erased from its graph (FX's node._erased). The Node stays readable until
  // the graph is destroyed, so a pass may hold pointers across erasures and
  // skip the erased ones.
  bool erased() const { return graph_ == nullptr; }

 private:
  friend class Graph;
  Node(Graph* graph, OpKind op, const std::string* target, std::string name);

  std::string name_;
  // Interned in the graph's string pool; null for a placeholder whose target
  // is its name (FX's usual case): a million-node graph's 200k parameter
  // names were each copied into the pool, and made its index slow for every
  // other target's lookup. Graph::Rename interns the target before the name
  // changes.
  const std::string* target_;
  const std::string* stream_;  // interned in the graph's string pool
  std::vector<Argument> args_;
  // Most nodes have no kwargs: a pointer (null for none) costs 8 bytes a
  // node where an empty vector costs 24, 16 MB on a 1M-node graph.
  std::unique_ptr<std::vector<Kwarg>> kwargs_;
  static const std::vector<Kwarg>& NoKwargs();
  void SetKwargs(std::vector<Kwarg> kwargs) {
    kwargs_ = kwargs.empty() ? nullptr : std::make_unique<std::vector<Kwarg>>(std::move(kwargs));
  }
  UserList users_;
  // Immutable once set and stored in the graph's meta blocks (see
  // Graph::StoreMeta), so a clone shares it without copying or counting.
  const NodeMeta* meta_ = nullptr;
  Node* prev_ = nullptr;
  Node* next_ = nullptr;
  Graph* graph_;
  // The node's place in the list as of the graph's last Renumber(): a cache
  // for whole-graph algorithms (lint, clone), valid only while the graph's
  // order_valid_ says so (LLVM's Instruction::Order is the model).
  mutable uint32_t order_ = 0;
  OpKind op_;
};

}  // namespace airscope

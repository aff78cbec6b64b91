// AtenBuilder: appends aten calls to the graph `aot` is building, the way
// make_fx records dispatched ops: each call is one node named after its op
// (FX's namespace: `mul`, `mul_1`), with meta from the op registry and the
// source comment of the Dynamo node being lowered. Internal to core/aot.
//
// Lowering rules (torch_functions.cc) see the Dynamo node and read its
// arguments through In(): Dynamo node references become the aten values that
// stand for them.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"

namespace airscope {

class AtenBuilder {
 public:
  AtenBuilder(Graph& out, const OpRegistry& registry) : out_(out), registry_(registry) {}

  Graph& graph() { return out_; }
  const OpRegistry& registry() const { return registry_; }

  // The Dynamo node being lowered and its source comment. The comment goes on
  // the first call made after it changes (TraceForNext): torch's readable
  // printer writes `# File: ...` only when a node's stack trace differs from
  // the one before (torch/fx/graph.py append_stacktrace_summary), and
  // airscope's reader gives a comment to the node below it.
  void Begin(const Node* source, std::string stack_trace) {
    source_ = source;
    stack_trace_ = std::move(stack_trace);
  }
  const std::string& stack_trace() const { return stack_trace_; }
  // The comment the next node made should carry: the current one if no node
  // carries it yet, else "".
  std::string TraceForNext();

  // Appends `target` (without `torch.ops.`) called with `args`/`kwargs`.
  Node* Call(std::string_view target, std::vector<Argument> args, std::vector<Kwarg> kwargs = {});

  // What a Dynamo value stands for in the aten graph.
  void Bind(const Node* dynamo, Argument value) { values_[dynamo] = std::move(value); }
  const Argument* Lookup(const Node* dynamo) const;
  // `arg` with every Dynamo node reference replaced by its aten value
  // (unbound references stay as they are: the caller checks with Bound()).
  Argument In(const Argument& arg) const;
  bool Bound(const Argument& arg) const;

 private:
  Graph& out_;
  const OpRegistry& registry_;
  const Node* source_ = nullptr;
  std::string stack_trace_;
  std::string attached_;  // the comment the last node given one carries
  std::unordered_map<const Node*, Argument> values_;
};

// The tensor meta of an aten value (nullptr: not a node, or unknown).
const TensorMeta* MetaOf(const Argument& value);

}  // namespace airscope

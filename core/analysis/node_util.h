// Helpers shared by the graph passes (core/pass), aot's tracing and
// functionalization (core/aot) and lowering (core/lower): target
// tests that accept either spelling, building call_function nodes that carry
// inferred meta, retargeting a node in place (as FX passes set node.target),
// side-effect and in-place knowledge, and positions for "is this use later?".
//
// Contract: helpers never print; they keep the Graph's invariants (they only
// mutate through Graph's API). Nodes they create get meta from the op
// registry's inference, or none when inference fails (never a guess).
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/ir/flat_pointer_map.h"
#include "core/ir/graph.h"
#include "core/ops/op_registry.h"

namespace airscope {

// The target without `torch.ops.` ("" for nodes that are not call_function).
// Both inline: every pass asks them of every node.
inline std::string_view CallTarget(const Node& node) {
  if (node.op() != OpKind::kCallFunction) return {};
  return StripTorchOps(node.target());
}
// A call_function whose target is `target` (given without `torch.ops.`);
// the node's target may be spelled either way.
inline bool IsTarget(const Node& node, std::string_view target) {
  return node.op() == OpKind::kCallFunction && CallTarget(node) == StripTorchOps(target);
}
// How graphs spell op targets: "aten.add.Tensor" -> "torch.ops.aten.add.Tensor";
// `operator.*` and already prefixed targets are unchanged.
std::string TorchTarget(std::string_view target);

// A call_function spec; the name hint defaults to the op ("add" for aten.add.Tensor).
NodeSpec CallSpec(std::string_view target, std::vector<Argument> args, std::vector<Kwarg> kwargs = {},
                  std::string hint = "");

// Runs the registry's inference for `node`; on success sets its meta (source
// kInferred) and returns true; on failure leaves the node without meta.
bool InferMeta(Node* node, const OpRegistry& registry);

// Inserts `spec` before `position`, on `stream`, and infers its meta.
Node* InsertCall(Graph& graph, Node* position, NodeSpec spec, std::string_view stream, const OpRegistry& registry);

// Gives `node` another target (FX's `node.target = ...`), keeping its name,
// position, stream, args and users; meta is inferred, else the old meta kept
// when `keep_meta_on_failure` (the value is the same one).
void Retarget(Graph& graph, Node* node, std::string_view target, const OpRegistry& registry,
              bool keep_meta_on_failure = true);

// In-place <-> out-of-place by torch's naming rule (the op name minus/plus a
// trailing underscore): "aten.hardtanh_.default" <-> "aten.hardtanh.default".
// Returns "" when the name has no such form. Targets without `torch.ops.`.
std::string OutOfPlaceTarget(std::string_view inplace_target);
std::string InplaceTarget(std::string_view target);

// Whether erasing (or deduplicating) this call changes behaviour beyond its
// value: in-place ops (copy_ included), TorchAir stream/event ops, host
// syncs, random ops, and ops the registry does not know (conservative).
bool HasSideEffects(const Node& node, const OpRegistry& registry);
// FX's Graph.eliminate_dead_code: erases every call_function without users
// and without side effects, in one reverse walk (a node's users all come
// after it, so its dead users are gone by the time the walk reaches it).
// Returns how many nodes it erased.
Result<size_t> EliminateDeadCode(Graph& graph, const OpRegistry& registry);

// Index of every node in graph order (a snapshot: nodes inserted later are absent).
FlatNodeMap<size_t> Positions(const Graph& graph);

// The tensor a node makes, or nullptr when it is unknown or not one tensor.
const TensorMeta* TensorOf(const Node* node);
// TensorOf the node an argument refers to; nullptr when it refers to none.
const TensorMeta* TensorArgOf(const Argument& arg);
// The node at args()[i], or nullptr when there is none or it is not a node
// (positional only: op_helpers.h's FindNodeArg also looks at keywords).
Node* PositionalNodeArg(const Node& node, size_t i);
// The graph's SymInt placeholders (annotated `Sym(s0)`) by symbol, as
// TorchAir's _build_sym_inputs_from_placeholders (cat:17-28) builds its dict:
// a later placeholder of the same symbol replaces an earlier one.
std::map<std::string, Node*> SymIntPlaceholders(const Graph& graph);
// Strides stated and equal to the contiguous ones, or unstated on a value
// made by a computing op (which allocates a fresh, contiguous result).
bool KnownContiguous(const Node* node);

// A creation op that gives its result its input's layout by default:
// `*_like` and aten.zero (zeros_like), whose memory_format defaults to
// preserve_format.
bool TakesItsInputsLayout(const Node& node);

}  // namespace airscope

// Inductor's noop table (torch/_inductor/fx_passes/post_grad.py, the
// `register_noop_decomp` rules and `same_meta`, pytorch/pytorch @000699cc,
// torch 2.10 development line): for each op, which argument the op returns
// unchanged when its condition holds.
//
// Contract: rules read only the node's arguments and the meta of the nodes
// they name (Inductor evaluates them on the FakeTensor args); a rule whose
// inputs are unknown answers false. Nothing here edits the graph.
#pragma once

#include <string_view>

#include "core/ir/node.h"

namespace airscope {

struct NoopRule {
  // The source argument `node` would be replaced by (nullptr: not a node).
  const Node* (*source)(const Node& node);
  // The rule's condition (slice_noop, repeat_noop, ...).
  bool (*holds)(const Node& node);
};

// The rule for a target (with or without `torch.ops.`), nullptr when the
// op is not in Inductor's table.
const NoopRule* FindNoopRule(std::string_view target);

// Inductor's same_meta(node1, node2): both make one tensor with equal sizes,
// dtype, device and strides. Unstated strides are derived where torch's are
// certain (see StridesOf in the .cc) and otherwise unknown, which never matches;
// an unknown dtype never matches; conj/neg bits are not modelled.
bool SameMeta(const Node& a, const Node& b);

}  // namespace airscope

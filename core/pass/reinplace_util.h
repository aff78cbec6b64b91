// What TorchAir's two reinplace passes share (graph_pass.py, torch's
// torch/fx/passes/reinplace.py = PT-ri):
//   - inplaceable_npu_ops (gp:132-170): functional NPU multi-inplace ops, the
//     in-place op each becomes and the arg indices it mutates. TorchAir
//     registers an entry only when torch.ops.npu has both ops; airscope has
//     all three (the simulated torch_npu has them);
//   - MaybeInplaceOp: PT-ri _maybe_get_inplace_op: `ns.foo.overload` ->
//     `ns.foo_.overload`, never for view ops. PT-ri accepts any overload of
//     `foo_` whose schema has the same argument types; airscope has no
//     schemas, so it requires the same overload name and an op registry entry
//     for `foo_` marked in-place;
//   - LeafCount: how many tensors pytree.tree_leaves(fake_result) gives.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/node.h"
#include "core/ops/op_registry.h"

namespace airscope {

struct InplaceableNpuOp {
  std::string functional;  // "npu.npu_add_rms_norm_v2_functional.default"
  std::string inplace;     // "npu.npu_add_rms_norm_v2.default"
  std::vector<size_t> mutated_args;
};

// The entry for `node`'s target, or nullptr.
const InplaceableNpuOp* FindInplaceableNpuOp(const Node& node);

// "" when there is none (see above).
std::string MaybeInplaceOp(const Node& node, const OpRegistry& registry);

// 1 for a tensor, the element count for a tuple, nullopt when unknown.
std::optional<size_t> LeafCount(const Node& node);

// A call of an op overload (`torch.ops.ns.op.overload`), not of operator.*
// or a higher-order op.
bool IsOpOverloadCall(const Node& node);

}  // namespace airscope

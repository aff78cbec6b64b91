// What TorchAir's two reinplace passes share (graph_pass.py, torch's
// torch/fx/passes/reinplace.py = PT-ri):
//   - inplaceable_npu_ops (gp:132-170): functional NPU multi-inplace ops, the
//     in-place op each becomes and the arg indices it mutates. TorchAir
//     registers an entry only when torch.ops.npu has both ops; airscope has
//     all three (the simulated torch_npu has them). A session adds entries
//     with `op inplaceable`, as TorchAir's tests update the dict
//     (tests/st/torchair_st_stub_aclgraph_utils.py:562-574);
//   - MaybeInplaceOp: PT-ri _maybe_get_inplace_op: the overload of `ns.foo_`
//     whose schema has foo's argument types, never for view ops. For aten
//     and the torch_npu ops airscope knows, core/ops/inplace_variants.h's
//     table (from the ops' schemas); for another namespace (a session's
//     custom op) `ns.foo_.overload` when the registry has it in-place;
//   - LeafCount: how many tensors pytree.tree_leaves(fake_result) gives
//     (from the node's meta, else from its op's schema).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/node.h"
#include "core/ops/op_registry.h"
#include "core/ops/op_schema.h"
#include "core/pass/pass.h"
#include "core/status.h"

namespace airscope {

struct InplaceableNpuOp {
  std::string functional;  // "npu.npu_add_rms_norm_v2_functional.default"
  std::string inplace;     // "npu.npu_add_rms_norm_v2.default"
  std::vector<size_t> mutated_args;
};

// TorchAir's inplaceable_npu_ops: the builtin entries (gp:158-170, in
// TorchAir's order) and a session's own.
class InplaceableNpuOps {
 public:
  static const InplaceableNpuOps& Builtin();
  // Adds or replaces (a dict update) the entry for `functional`. Targets
  // without `torch.ops.`; indices must be distinct.
  Status Register(InplaceableNpuOp op);
  const InplaceableNpuOp* Find(std::string_view target) const;
  // The entry whose in-place op is `target` (the last one registered, as
  // more than one functional form may name it), or nullptr.
  const InplaceableNpuOp* FindByInplace(std::string_view target) const;
  const std::vector<InplaceableNpuOp>& All() const { return ops_; }
  bool IsBuiltin(const InplaceableNpuOp& op) const { return &op < ops_.data() + builtin_count_; }

 private:
  std::vector<InplaceableNpuOp> ops_;
  size_t builtin_count_ = 0;
};

// The context's tables, else the builtin ones.
const OpSchemaTable& SchemasOf(const PassContext& context);
const InplaceableNpuOps& InplaceableOf(const PassContext& context);

// The entry for `node`'s target, or nullptr; `table` null means the builtin one.
const InplaceableNpuOp* FindInplaceableNpuOp(const Node& node, const InplaceableNpuOps* table);

// What MaybeInplaceOp found: `target` is "" when torch has no in-place form
// (see above); `registered` is false when it has one the op registry does not
// know (an op airscope has no entry for), which airscope cannot retarget to.
struct InplaceLookup {
  std::string target;
  bool registered = false;
};
InplaceLookup MaybeInplaceOp(const Node& node, const OpRegistry& registry);

// 1 for a tensor, the element count for a tuple; without meta, the return
// count of the op's schema in `schemas` (may be null); nullopt when unknown.
std::optional<size_t> LeafCount(const Node& node, const OpSchemaTable* schemas = nullptr);

// A call of an op overload (`torch.ops.ns.op.overload`), not of operator.*
// or a higher-order op.
bool IsOpOverloadCall(const Node& node);

}  // namespace airscope

#include "core/pass/reinplace_util.h"

#include "core/pass/alias_analysis.h"
#include "core/pass/pass_util.h"

namespace airscope {

const InplaceableNpuOp* FindInplaceableNpuOp(const Node& node) {
  // gp:158-170, in TorchAir's order.
  static const std::vector<InplaceableNpuOp> kOps = {
      {"npu.npu_kv_rmsnorm_rope_cache_v2_functional.default", "npu.npu_kv_rmsnorm_rope_cache_v2.default", {5, 6}},
      {"npu.npu_mla_prolog_v3_functional.default", "npu.npu_mla_prolog_v3.default", {9, 10}},
      {"npu.npu_add_rms_norm_v2_functional.default", "npu.npu_add_rms_norm_v2.default", {0, 1}},
  };
  if (node.op() != OpKind::kCallFunction) return nullptr;
  for (const InplaceableNpuOp& op : kOps) {
    if (IsTarget(node, op.functional)) return &op;
  }
  return nullptr;
}

bool IsOpOverloadCall(const Node& node) {
  std::string_view target = CallTarget(node);
  return node.op() == OpKind::kCallFunction && node.target().starts_with("torch.ops.") &&
         !target.starts_with("higher_order.");
}

std::string MaybeInplaceOp(const Node& node, const OpRegistry& registry) {
  if (!IsOpOverloadCall(node) || IsViewOp(node, registry)) return "";
  std::string inplace = InplaceTarget(CallTarget(node));
  if (inplace.empty()) return "";
  const OpInfo* info = registry.Find(inplace);
  return info != nullptr && info->inplace ? inplace : "";
}

std::optional<size_t> LeafCount(const Node& node) {
  const NodeMeta* meta = node.meta();
  if (meta == nullptr) return std::nullopt;
  if (meta->kind == ValueKind::kTensor && !meta->tensors.empty()) return 1;
  if (meta->kind == ValueKind::kTuple) return meta->tensors.size();
  return std::nullopt;
}

}  // namespace airscope

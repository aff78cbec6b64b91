#include "core/pass/reinplace_util.h"

#include "core/analysis/alias_analysis.h"
#include "core/analysis/node_util.h"
#include "core/ops/inplace_variants.h"

namespace airscope {

const InplaceableNpuOps& InplaceableNpuOps::Builtin() {
  static const InplaceableNpuOps table = [] {
    InplaceableNpuOps t;
    // gp:158-170, in TorchAir's order.
    t.ops_ = {
        {"npu.npu_kv_rmsnorm_rope_cache_v2_functional.default", "npu.npu_kv_rmsnorm_rope_cache_v2.default", {5, 6}},
        {"npu.npu_mla_prolog_v3_functional.default", "npu.npu_mla_prolog_v3.default", {9, 10}},
        {"npu.npu_add_rms_norm_v2_functional.default", "npu.npu_add_rms_norm_v2.default", {0, 1}},
    };
    t.builtin_count_ = t.ops_.size();
    return t;
  }();
  return table;
}

Status InplaceableNpuOps::Register(InplaceableNpuOp op) {
  if (op.mutated_args.empty()) return Status::Error("an inplaceable op mutates at least one argument");
  for (size_t i = 0; i < op.mutated_args.size(); ++i) {
    for (size_t j = 0; j < i; ++j) {
      if (op.mutated_args[i] == op.mutated_args[j]) {
        return Status::Errorf("argument index {} is given twice", op.mutated_args[i]);
      }
    }
  }
  for (InplaceableNpuOp& old : ops_) {
    if (old.functional == op.functional) {
      old = std::move(op);
      return Status::Ok();
    }
  }
  ops_.push_back(std::move(op));
  return Status::Ok();
}

const InplaceableNpuOp* InplaceableNpuOps::Find(std::string_view target) const {
  target = StripTorchOps(target);
  for (const InplaceableNpuOp& op : ops_) {
    if (op.functional == target) return &op;
  }
  return nullptr;
}

const InplaceableNpuOp* InplaceableNpuOps::FindByInplace(std::string_view target) const {
  target = StripTorchOps(target);
  for (auto op = ops_.rbegin(); op != ops_.rend(); ++op) {
    if (op->inplace == target) return &*op;
  }
  return nullptr;
}

const OpSchemaTable& SchemasOf(const PassContext& context) {
  return context.schemas ? *context.schemas : OpSchemaTable::Builtin();
}

const InplaceableNpuOps& InplaceableOf(const PassContext& context) {
  return context.inplaceable ? *context.inplaceable : InplaceableNpuOps::Builtin();
}

const InplaceableNpuOp* FindInplaceableNpuOp(const Node& node, const InplaceableNpuOps* table) {
  if (node.op() != OpKind::kCallFunction) return nullptr;
  return (table ? *table : InplaceableNpuOps::Builtin()).Find(CallTarget(node));
}

bool IsOpOverloadCall(const Node& node) {
  std::string_view target = CallTarget(node);
  return node.op() == OpKind::kCallFunction && node.target().starts_with("torch.ops.") &&
         !target.starts_with("higher_order.");
}

InplaceLookup MaybeInplaceOp(const Node& node, const OpRegistry& registry) {
  if (!IsOpOverloadCall(node) || IsViewOp(node, registry)) return {};
  std::string_view target = CallTarget(node);
  std::string inplace;
  if (InplaceVariantKnown(target)) {
    inplace = std::string(InplaceVariant(target));
  } else {
    // A namespace the table does not cover (a session's custom ops): the
    // same overload name of `foo_`, when the registry has it in-place.
    inplace = InplaceTarget(target);
  }
  if (inplace.empty()) return {};
  const OpInfo* info = registry.Find(inplace);
  if (info != nullptr && info->inplace) return {inplace, true};
  return {inplace, false};
}

std::optional<size_t> LeafCount(const Node& node, const OpSchemaTable* schemas) {
  if (const NodeMeta* meta = node.meta()) {
    if (meta->kind == ValueKind::kTensor && !meta->tensors.empty()) return 1;
    if (meta->kind == ValueKind::kTuple && !meta->tensors.empty()) return meta->tensors.size();
  }
  if (schemas != nullptr && node.op() == OpKind::kCallFunction) {
    if (const OpSchema* schema = schemas->Find(CallTarget(node))) {
      size_t tensors = 0;
      for (const SchemaArgument& ret : schema->returns) tensors += ret.IsTensor();
      return tensors;
    }
  }
  return std::nullopt;
}

}  // namespace airscope

#include "core/ops/op_registry.h"

#include <algorithm>

#include "core/ops/inplace_variants.h"
#include "core/ops/op_families.h"

namespace airscope {

std::string_view OpCategoryName(OpCategory category) {
  switch (category) {
    case OpCategory::kPointwise: return "pointwise";
    case OpCategory::kReduction: return "reduction";
    case OpCategory::kMatmul: return "matmul";
    case OpCategory::kConvolution: return "convolution";
    case OpCategory::kNormalization: return "normalization";
    case OpCategory::kView: return "view";
    case OpCategory::kCopy: return "copy";
    case OpCategory::kCreation: return "creation";
    case OpCategory::kStreamControl: return "stream_control";
    case OpCategory::kOther: return "other";
  }
  return "other";
}

const OpInfo* OpRegistry::Find(std::string_view target) const {
  std::string_view key = StripTorchOps(target);
  auto it = ops_.find(key);
  if (it != ops_.end()) return &it->second;
  // FX prints Python's operator module as `_operator.getitem` in some versions.
  constexpr std::string_view kPrivateOperator = "_operator.";
  if (key.substr(0, kPrivateOperator.size()) == kPrivateOperator) {
    it = ops_.find(std::string("operator.") + std::string(key.substr(kPrivateOperator.size())));
    if (it != ops_.end()) return &it->second;
  }
  return nullptr;
}

void OpRegistry::Register(OpInfo info) {
  std::string key = info.name;
  ops_.insert_or_assign(std::move(key), std::move(info));
  ++version_;
}

std::vector<std::string> OpRegistry::Names() const {
  std::vector<std::string> names;
  names.reserve(ops_.size());
  for (const auto& [name, info] : ops_) names.push_back(name);
  std::sort(names.begin(), names.end());
  return names;
}

const OpRegistry& OpRegistry::Builtin() {
  // Built once, on first use, and never mutated afterwards (thread-safe
  // initialisation of a function-local static).
  static const OpRegistry registry = [] {
    OpRegistry r;
    RegisterPointwiseOps(r);
    RegisterMatmulOps(r);
    RegisterConvNormOps(r);
    RegisterViewOps(r);
    RegisterReductionOps(r);
    RegisterBackwardOps(r);
    RegisterMiscOps(r);
    RegisterNpuOps(r);
    RegisterIndexingOps(r);
    RegisterPoolingOps(r);
    RegisterCollectiveOps(r);
    // Last: the in-place forms torch's reinplace picks for the ops above.
    RegisterInplaceVariants(r);
    return r;
  }();
  return registry;
}

}  // namespace airscope

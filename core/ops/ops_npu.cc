// torch_npu ops (namespace npu) that TorchAir's passes name: the scatter ops
// recover_view_inplace_pattern turns into their in-place forms
// (patterns/_recover_view_inplace_pattern.py:27-48). Each returns a tensor
// shaped like its first argument (`self`); the `_` forms write it in place.
#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

Result<NodeMeta> InferLikeSelf(const Node& node) {
  Result<const TensorMeta*> self = TensorArg(node, 0, "self");
  if (!self.ok()) return self.status();
  return TensorResult(*self.value());
}

}  // namespace

void RegisterNpuOps(OpRegistry& r) {
  for (const char* name : {"npu.scatter_update.default", "npu.npu_scatter_nd_update.default",
                           "npu.npu_quant_scatter.default"}) {
    AddOp(r, name, OpCategory::kOther, InferLikeSelf, CopyCost());
  }
  for (const char* name : {"npu.scatter_update_.default", "npu.npu_scatter_nd_update_.default",
                           "npu.npu_quant_scatter_.default"}) {
    AddOp(r, name, OpCategory::kOther, InferLikeSelf, CopyCost(), /*inplace=*/true);
  }
}

}  // namespace airscope

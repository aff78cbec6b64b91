// The builtin op table, split by family: each function registers the ops of
// one family (shape rule + cost) into the registry OpRegistry::Builtin()
// builds. Internal to core/ops.
#pragma once

#include "core/ops/op_registry.h"

namespace airscope {

void RegisterPointwiseOps(OpRegistry& registry);   // ops_pointwise.cc: unary, binary, comparisons, where
void RegisterMatmulOps(OpRegistry& registry);      // ops_matmul.cc: mm, bmm, addmm, matmul
void RegisterConvNormOps(OpRegistry& registry);    // ops_conv_norm.cc: convolution, batch/layer norm
void RegisterViewOps(OpRegistry& registry);        // ops_views.cc: view, transpose, split, slice, getitem...
void RegisterReductionOps(OpRegistry& registry);   // ops_reduction.cc: sum, mean, amax, softmax
void RegisterBackwardOps(OpRegistry& registry);    // ops_backward.cc: the *_backward ops of training graphs
void RegisterMiscOps(OpRegistry& registry);        // ops_misc.cc: creation, copies, cat, embedding, host sync, air.*
void RegisterNpuOps(OpRegistry& registry);         // ops_npu.cc: torch_npu ops TorchAir's passes name
void RegisterIndexingOps(OpRegistry& registry);    // ops_indexing.cc: index, index_put, zero, fill
void RegisterPoolingOps(OpRegistry& registry);     // ops_pooling.cc: max/avg/adaptive pooling
void RegisterCollectiveOps(OpRegistry& registry);  // ops_collective.cc: c10d functional and TorchAir npu_define

}  // namespace airscope

// Which in-place op torch's reinplace pass turns an out-of-place op into:
// PT-ri _maybe_get_inplace_op, which TorchAir's
// reinplace_with_multi_stream_check calls unchanged (gp:1227). For
// `ns.foo.overload` it looks up the overload packet `torch.ops.ns.foo_` and
// keeps the one overload whose schema has the same argument types
// (_schemas_match), so the overload name may differ (pow.Tensor_Scalar ->
// pow_.Scalar) and a packet with no matching overload gives none
// (pow.Scalar(Scalar self, Tensor exponent) has no in-place form). View ops
// give none even when `foo_` exists (t_, transpose_, as_strided_).
//
// airscope has no aten schemas, so the answers are a table, worked out once
// from the schemas of torch's aten/src/ATen/native/native_functions.yaml
// (and op-plugin's yaml for the torch_npu ops) by that rule.
#pragma once

#include <string_view>
#include <utility>
#include <vector>

#include "core/ops/op_registry.h"

namespace airscope {

// The in-place op for `target` (with or without `torch.ops.`), "" when torch
// has none or `target` is not in the table (an op of another namespace).
std::string_view InplaceVariant(std::string_view target);

// Whether the table answers for `target`: every aten op (one it lacks has no
// in-place form), and the torch_npu ops it lists. Not the other torch_npu
// ops, nor a session's custom ops.
bool InplaceVariantKnown(std::string_view target);

// The table: (out-of-place, in-place) pairs, sorted by the first.
const std::vector<std::pair<std::string_view, std::string_view>>& InplaceVariants();

// Registers, for each pair whose out-of-place op `registry` knows and whose
// in-place op it does not, the in-place op: marked in-place, the out-of-place
// op's category and cost, and its inference checked against self (torch's
// in-place ops write self: the result has self's shape and dtype).
void RegisterInplaceVariants(OpRegistry& registry);

}  // namespace airscope

// The `Const` operator TorchAir's converters make for a Python scalar
// (`dtype_promote` -> `ge.Const(v, dtype=...)`, ge/_ge_graph.py Const):
//   attr `value`: a TensorDef: desc {dtype, layout "ND", shape = the value's
//     shape (a 0-d scalar has none)} and data = the tensor's storage bytes
//     (little-endian, torch.tensor(v, dtype=...)),
//   attr `_readable_value`: repr(v),
//   one output desc equal to the value's desc (it has no name).
// Name and inputs are the caller's. nullopt when `scalar` is not a bool,
// int or float, or `dtype` is one airscope does not encode (complex, fp8).
// Simplification: float -> fp16/bf16 goes through float32 (torch rounds a
// Python float to half from double; the two differ only on double-rounding
// ties).
#pragma once

#include <optional>
#include <string>

#include "core/ir/argument.h"
#include "core/ir/dtype.h"
#include "formats/ge_ops.h"

namespace airscope {

std::optional<GeOp> ScalarConstOp(const Argument& scalar, DType dtype);
// The little-endian bytes of `value` as one element of `dtype`.
std::optional<std::string> ScalarBytes(const Argument& value, DType dtype);

}  // namespace airscope

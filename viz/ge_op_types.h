// The aten -> GE op type table: which GE operator type (CamelCase, as in
// GE's op library and TorchAir's converters) stands for an FX call_function
// target, and back.
//
// Contract: one row per aten op packet (`aten.add`, any overload). Several
// packets may share a GE type (view/reshape/_unsafe_view -> Reshape); exactly
// one of them is the canonical source of that type (the reverse mapping).
// Targets the table does not know get a CamelCase of their op name
// (`aten.native_dropout.default` -> `NativeDropout`) and mapped == false, so
// writers record the full target in an `_aten_op` attribute.
// Facts checked against TorchAir's converters: aten.mm -> MatMul (not
// MatMulV2), aten.bmm -> BatchMatMul.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace airscope {

struct GeOpType {
  std::string type;     // "MatMul"
  bool mapped = false;  // false: derived from the target's name, not from the table
  bool canonical = false;  // true: the reverse mapping of `type` gives back exactly this target
};

// `torch.ops.aten.mm.default` (or `aten.mm.default`) -> MatMul.
GeOpType GeTypeForTarget(std::string_view target);
// MatMul -> `torch.ops.aten.mm.default`; nullopt for a type the table does not produce.
std::optional<std::string> TargetForGeType(std::string_view type);
// `native_dropout` -> `NativeDropout`, `air.record` -> `AirRecord`.
std::string CamelCase(std::string_view snake);

}  // namespace airscope

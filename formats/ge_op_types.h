// The aten -> GE op type table: which GE operator type (CamelCase, as in
// GE's op library and TorchAir's converters) stands for an FX call_function
// target, and back.
//
// Contract: one row per aten op packet (`aten.add`, any overload). Several
// packets may share a GE type (view/reshape/_unsafe_view -> Reshape); exactly
// one of them is the canonical source of that type (the reverse mapping).
// A target with no row, or whose TorchAir converter is not one GE operator
// (addmm -> MatMulV2 + Add, ...) or raises NotImplementedError
// (native_batch_norm, amax, _reshape_alias), is not given an invented GE
// type: `type` is the target as FX prints it, mapped == false, and `note`
// says why, for writers to record (attr `_airscope_unconverted`).
// Facts checked against TorchAir's converters (ge_converter/aten/*.py, the
// `ge.X(...)` each returns): aten.mm -> MatMul (not MatMulV2), aten.bmm ->
// BatchMatMul, aten.where -> SelectV2.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace airscope {

struct GeOpType {
  std::string type;        // "MatMul"
  bool mapped = false;     // false: derived from the target's name, not from the table
  bool canonical = false;  // true: the reverse mapping of `type` gives back exactly this target
  std::string note;        // !mapped: why no GE type is given
};

// `torch.ops.aten.mm.default` (or `aten.mm.default`) -> MatMul;
// `torch.ops.aten.native_dropout.default` -> itself, mapped == false.
GeOpType GeTypeForTarget(std::string_view target);
// MatMul -> `torch.ops.aten.mm.default`; nullopt for a type the table does not produce.
std::optional<std::string> TargetForGeType(std::string_view type);
// `native_dropout` -> `NativeDropout`, `air.record` -> `AirRecord`.
std::string CamelCase(std::string_view snake);

}  // namespace airscope

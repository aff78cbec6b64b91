// DType: tensor element types as torch names them, with the three spellings
// airscope reads and writes: torch's (`torch.float32`), the FX annotation
// abbreviation (`f32`, torch.fx.graph's dtype_abbrs) and GE's (`DT_FLOAT`).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace airscope {

enum class DType : uint8_t {
  kUnknown,
  kFloat32,
  kFloat16,
  kBFloat16,
  kFloat64,
  kFloat8E4M3Fn,
  kFloat8E5M2,
  kInt8,
  kInt16,
  kInt32,
  kInt64,
  kUInt8,
  kUInt16,
  kUInt32,
  kUInt64,
  kBool,
  kComplex32,
  kComplex64,
  kComplex128,
};

// `torch.float32`; `torch.unknown` for kUnknown.
std::string_view TorchName(DType dtype);
// `f32` as in readable annotations `"f32[2, 2]"`; `?` for kUnknown.
std::string_view ShortName(DType dtype);
// `DT_FLOAT` as in GE/TorchAir pbtxt; `DT_UNDEFINED` for kUnknown.
std::string_view GeName(DType dtype);
// Bytes per element (bool is 1 byte, as in torch); 0 for kUnknown.
int ItemSize(DType dtype);
bool IsFloatingPoint(DType dtype);
// torch's is_integer_dtype: the signed and unsigned integer types, not bool.
bool IsIntegral(DType dtype);
bool IsComplex(DType dtype);

// Accept `torch.float32`, `float32` and torch's aliases (`torch.float`, `torch.half`, `torch.long`...).
std::optional<DType> ParseTorchDType(std::string_view text);
// Accept the annotation abbreviation (`f32`, `bf16`, `b8`, ...).
std::optional<DType> ParseShortDType(std::string_view text);
// Accept GE's `DT_FLOAT` spelling.
std::optional<DType> ParseGeDType(std::string_view text);

}  // namespace airscope

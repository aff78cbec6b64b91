#include "core/ir/dtype.h"

#include <array>

namespace airscope {
namespace {

struct DTypeInfo {
  DType dtype;
  std::string_view torch_name;
  std::string_view short_name;
  std::string_view ge_name;
  int item_size;
  bool floating;
};

// One row per dtype; the row index equals the enum value.
constexpr std::array<DTypeInfo, 19> kDTypes = {{
    {DType::kUnknown, "torch.unknown", "?", "DT_UNDEFINED", 0, false},
    {DType::kFloat32, "torch.float32", "f32", "DT_FLOAT", 4, true},
    {DType::kFloat16, "torch.float16", "f16", "DT_FLOAT16", 2, true},
    {DType::kBFloat16, "torch.bfloat16", "bf16", "DT_BF16", 2, true},
    {DType::kFloat64, "torch.float64", "f64", "DT_DOUBLE", 8, true},
    {DType::kFloat8E4M3Fn, "torch.float8_e4m3fn", "f8e4m3fn", "DT_FLOAT8_E4M3FN", 1, true},
    {DType::kFloat8E5M2, "torch.float8_e5m2", "f8e5m2", "DT_FLOAT8_E5M2", 1, true},
    {DType::kInt8, "torch.int8", "i8", "DT_INT8", 1, false},
    {DType::kInt16, "torch.int16", "i16", "DT_INT16", 2, false},
    {DType::kInt32, "torch.int32", "i32", "DT_INT32", 4, false},
    {DType::kInt64, "torch.int64", "i64", "DT_INT64", 8, false},
    {DType::kUInt8, "torch.uint8", "u8", "DT_UINT8", 1, false},
    {DType::kUInt16, "torch.uint16", "u16", "DT_UINT16", 2, false},
    {DType::kUInt32, "torch.uint32", "u32", "DT_UINT32", 4, false},
    {DType::kUInt64, "torch.uint64", "u64", "DT_UINT64", 8, false},
    {DType::kBool, "torch.bool", "b8", "DT_BOOL", 1, false},
    {DType::kComplex32, "torch.complex32", "c32", "DT_COMPLEX32", 4, true},
    {DType::kComplex64, "torch.complex64", "c64", "DT_COMPLEX64", 8, true},
    {DType::kComplex128, "torch.complex128", "c128", "DT_COMPLEX128", 16, true},
}};

const DTypeInfo& Info(DType dtype) { return kDTypes[static_cast<size_t>(dtype)]; }

struct Alias {
  std::string_view name;
  DType dtype;
};
constexpr std::array<Alias, 9> kTorchAliases = {{
    {"torch.float", DType::kFloat32},
    {"torch.half", DType::kFloat16},
    {"torch.double", DType::kFloat64},
    {"torch.long", DType::kInt64},
    {"torch.int", DType::kInt32},
    {"torch.short", DType::kInt16},
    {"torch.cfloat", DType::kComplex64},
    {"torch.cdouble", DType::kComplex128},
    {"torch.chalf", DType::kComplex32},
}};

}  // namespace

std::string_view TorchName(DType dtype) { return Info(dtype).torch_name; }
std::string_view ShortName(DType dtype) { return Info(dtype).short_name; }
std::string_view GeName(DType dtype) { return Info(dtype).ge_name; }
int ItemSize(DType dtype) { return Info(dtype).item_size; }
bool IsFloatingPoint(DType dtype) { return Info(dtype).floating; }

bool IsIntegral(DType dtype) {
  switch (dtype) {
    case DType::kInt8:
    case DType::kInt16:
    case DType::kInt32:
    case DType::kInt64:
    case DType::kUInt8:
    case DType::kUInt16:
    case DType::kUInt32:
    case DType::kUInt64: return true;
    default: return false;
  }
}

bool IsComplex(DType dtype) {
  return dtype == DType::kComplex32 || dtype == DType::kComplex64 || dtype == DType::kComplex128;
}

std::optional<DType> ParseTorchDType(std::string_view text) {
  std::string_view bare = text;
  if (bare.substr(0, 6) == "torch.") bare.remove_prefix(6);
  for (size_t i = 1; i < kDTypes.size(); ++i) {
    if (kDTypes[i].torch_name.substr(6) == bare) return kDTypes[i].dtype;
  }
  for (const Alias& alias : kTorchAliases) {
    if (alias.name.substr(6) == bare) return alias.dtype;
  }
  return std::nullopt;
}

std::optional<DType> ParseShortDType(std::string_view text) {
  for (size_t i = 1; i < kDTypes.size(); ++i) {
    if (kDTypes[i].short_name == text) return kDTypes[i].dtype;
  }
  return std::nullopt;
}

std::optional<DType> ParseGeDType(std::string_view text) {
  for (size_t i = 1; i < kDTypes.size(); ++i) {
    if (kDTypes[i].ge_name == text) return kDTypes[i].dtype;
  }
  return std::nullopt;
}

}  // namespace airscope

#include "formats/ge_const.h"

#include <bit>
#include <cstring>

#include "core/fx/python_repr.h"

namespace airscope {
namespace {

template <typename T>
std::string Bytes(T value) {
  static_assert(std::endian::native == std::endian::little, "GE Const data is little-endian");
  std::string out(sizeof(T), '\0');
  std::memcpy(out.data(), &value, sizeof(T));
  return out;
}

// IEEE binary16, round to nearest even.
uint16_t HalfBits(float value) {
  uint32_t f = std::bit_cast<uint32_t>(value);
  uint32_t sign = (f >> 16) & 0x8000u;
  uint32_t abs = f & 0x7fffffffu;
  if (abs >= 0x7f800000u) return static_cast<uint16_t>(sign | (abs > 0x7f800000u ? 0x7e00u : 0x7c00u));
  if (abs >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to inf
  if (abs < 0x38800000u) {                                               // subnormal half (or zero)
    float magnitude = std::bit_cast<float>(abs);
    // 2^-24 is the smallest half subnormal; adding 0.5 (2^-1) aligns the rounding in float.
    float shifted = magnitude + 0.5f;
    return static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(shifted) - 0x3f000000u));
  }
  uint32_t mantissa_odd = (abs >> 13) & 1u;
  abs += 0xc8000fffu + mantissa_odd;  // rebias exponent (-112 << 23) and round to nearest even
  return static_cast<uint16_t>(sign | (abs >> 13));
}

// bfloat16, round to nearest even (c10::BFloat16's round_to_nearest_even).
uint16_t BFloat16Bits(float value) {
  uint32_t f = std::bit_cast<uint32_t>(value);
  if ((f & 0x7fffffffu) > 0x7f800000u) return 0x7fc0;
  uint32_t rounding_bias = 0x7fffu + ((f >> 16) & 1u);
  return static_cast<uint16_t>((f + rounding_bias) >> 16);
}

}  // namespace

std::optional<std::string> ScalarBytes(const Argument& value, DType dtype) {
  double d = 0;
  int64_t i = 0;
  switch (value.kind()) {
    case Argument::Kind::kBool:
      i = value.as_bool() ? 1 : 0;
      d = static_cast<double>(i);
      break;
    case Argument::Kind::kInt:
      i = value.as_int();
      d = static_cast<double>(i);
      break;
    case Argument::Kind::kFloat:
      d = value.as_float();
      i = static_cast<int64_t>(d);
      break;
    default: return std::nullopt;
  }
  switch (dtype) {
    case DType::kFloat32: return Bytes(static_cast<float>(d));
    case DType::kFloat64: return Bytes(d);
    case DType::kFloat16: return Bytes(HalfBits(static_cast<float>(d)));
    case DType::kBFloat16: return Bytes(BFloat16Bits(static_cast<float>(d)));
    case DType::kInt8: return Bytes(static_cast<int8_t>(i));
    case DType::kInt16: return Bytes(static_cast<int16_t>(i));
    case DType::kInt32: return Bytes(static_cast<int32_t>(i));
    case DType::kInt64: return Bytes(i);
    case DType::kUInt8: return Bytes(static_cast<uint8_t>(i));
    case DType::kBool: return Bytes(static_cast<uint8_t>(d != 0 ? 1 : 0));
    default: return std::nullopt;
  }
}

std::optional<GeOp> ScalarConstOp(const Argument& scalar, DType dtype) {
  std::optional<std::string> data = ScalarBytes(scalar, dtype);
  if (!data) return std::nullopt;
  GeOp op;
  op.type = "Const";
  GeDesc desc;
  desc.dtype = dtype;
  desc.layout = "ND";
  GeAttr value;
  value.key = "value";
  value.kind = GeAttr::Kind::kT;
  value.tensor_desc = desc;
  value.s = std::move(*data);
  GeAttr readable;
  readable.key = "_readable_value";
  readable.s = FormatPythonArg(scalar);
  op.attrs.push_back(std::move(value));
  op.attrs.push_back(std::move(readable));
  op.output_desc.push_back(std::move(desc));
  return op;
}

}  // namespace airscope

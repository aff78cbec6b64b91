// TorchAir's dim gears (torchair.inference.set_dim_gears and
// guard_gears_shape, python/torchair/inference/_gear_utils.py): a tensor's
// dict {dim: [gear, ...]} saying which sizes a dynamic dim may take.
//
// The dict is kept as the user wrote it, Python types and all, because
// TorchAir's checks and messages depend on them: a dim index or gear that is
// not an int, gears that are not a list or tuple, a gear of 0, a list of
// fewer than 2 or more than 100 gears are refused by set_dim_gears
// (gear:13-40) with its AssertionError texts, and guard_gears_shape's
// message prints the list as given ("[8, 4]"). Python's bool is an int.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace airscope {

// One Python scalar as a command line can write it.
struct PyScalar {
  enum class Type : uint8_t { kInt, kBool, kFloat, kStr };
  Type type = Type::kInt;
  int64_t value = 0;  // kInt; kBool: 1 or 0
  std::string repr;   // as Python prints it: 8, True, 1.5, 'a'

  bool IsInt() const { return type == Type::kInt || type == Type::kBool; }  // isinstance(x, int)
  std::string_view TypeRepr() const;                                        // <class 'float'>
  bool operator==(const PyScalar& other) const;                             // Python ==
};

// Reads a bare word as Python would read the literal: 8, -2, True, 1.5, 'a'
// (anything else is taken as a str).
PyScalar ParsePyScalar(std::string_view word);

// The value of one dim of the dict: a list, a tuple or (refused later) a scalar.
struct GearsValue {
  enum class Kind : uint8_t { kList, kTuple, kScalar };
  Kind kind = Kind::kList;
  std::vector<PyScalar> items;  // kScalar: exactly one

  std::string Repr() const;  // [8, 4], (8, 4), (8,), 1
  bool operator==(const GearsValue& other) const;
};

// `8,4` or `[8,4]` (a list), `(8,4)` (a tuple), `8` (a scalar, refused).
Result<GearsValue> ParseGearsValue(std::string_view word);

struct DimGearsItem {
  PyScalar dim;
  GearsValue gears;
};
// A dim_gears dict in the order its keys were given.
using DimGears = std::vector<DimGearsItem>;

// Python's dict ==.
bool SameDimGears(const DimGears& a, const DimGears& b);

// set_dim_gears' checks (gear:17-37) in their order, for a tensor of `ndim`
// dims; the error is TorchAir's AssertionError text.
Status CheckDimGears(const DimGears& gears, size_t ndim);

// The gear dims of a checked dict: dim index -> the gears as given.
const GearsValue* GearsOfDim(const DimGears& gears, size_t dim);

// _guard_dynamic_dim (gear:47-61): nullopt when `size` is one of the gears,
// else TorchAir's AssertionError text.
std::optional<std::string> GearRejection(int64_t size, const GearsValue& gears);

// sorted(set(gears)): the sizes the guards admit, ascending.
std::vector<int64_t> AdmittedGears(const GearsValue& gears);

}  // namespace airscope

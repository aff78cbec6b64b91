// Guards: what a compiled cache entry assumes about its inputs, as Dynamo
// states it. Per input a TensorGuard (dtype, device, requires_grad, rank,
// sizes, strides; each dim static, symbolic or restricted to TorchAir dim
// gears) and, for symbolic dims, shape-env guards (`2 <= L['x'].size()[0]`,
// `L['y'].size()[0] == L['x'].size()[0]`; for TorchAir dim gears the range
// `4 <= L['x'].size()[0] <= 8` and, per adjacent pair of gears,
// `(L['x'].size()[0] <= 4) | (8 <= L['x'].size()[0])`: the guards
// _guard_dynamic_dim adds with guard_bool, inference/_gear_utils.py:47-61).
//
// A GuardSet is built once per entry and compiled into a flat list of checks
// (one packed header compare per tensor, then one compare per static dim or
// stride), so evaluating a hit costs a few dozen integer compares and no
// allocation. Check() answers pass/fail; FirstFailure() re-evaluates slowly
// and says why in Dynamo's words (`tensor 'x' size mismatch at index 0.
// expected 2, actual 4`).
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/dynamo/call_spec.h"
#include "core/dynamo/dim_gears.h"
#include "core/ir/tensor_meta.h"

namespace airscope {

enum class DimKind : uint8_t { kStatic, kSymbolic, kGears };
std::string_view DimKindName(DimKind kind);

struct DimGuard {
  DimKind kind = DimKind::kStatic;
  int64_t value = 0;   // kStatic: the size
  std::string symbol;  // kSymbolic/kGears: s0, s1, ...
  int64_t min = 2;     // kSymbolic: range (Dynamo specializes 0 and 1)
  int64_t max = std::numeric_limits<int64_t>::max();
  std::vector<int64_t> gears;  // kGears: allowed sizes, ascending (sorted(set(gears)))
  // kStatic: a dim that was dynamic when Dynamo wrapped the input and that
  // the backend then specialized (guard_int in TorchAir's guard_gears_shape):
  // check_tensor has None for it and the shape env `L['x'].size()[1] == 8`.
  bool specialized = false;
};

// A Python scalar input (torch/_dynamo/variables/builder.py,
// VariableBuilder.wrap_literal and wrap_symint; guards.py CONSTANT_MATCH):
// a constant int or float is guarded by its type and value (TYPE_MATCH
// `___check_type_id(L['s'], <id(int)>)` and EQUALS_MATCH `L['s'] == 4`), a
// bool by identity (ID_MATCH `___check_obj_id(L['flag'], <id(True)>)`), a
// SymInt by its type alone (an unspecified symbol: no range, 0 and 1 not
// specialized). `<id(int)>` stands for the address CPython gives the object,
// which no log can predict.
struct ScalarGuard {
  PyScalar::Type type = PyScalar::Type::kInt;
  bool symbolic = false;  // a SymInt: any int passes
  PyScalar value;         // the constant (and the value it was compiled at)
  std::string symbol;     // symbolic: s0, s1, ...
};

struct TensorGuard {
  std::string name;
  std::optional<ScalarGuard> scalar;  // a Python scalar input: the rest is unused
  DType dtype = DType::kUnknown;
  std::string device;
  bool requires_grad = false;
  std::vector<DimGuard> sizes;
  std::vector<std::optional<int64_t>> strides;  // nullopt: depends on a symbol, not checked

  // The placeholder meta a compile sees: symbols where dims are dynamic.
  TensorMeta ToMeta() const;
};

class GuardSet {
 public:
  GuardSet() = default;
  explicit GuardSet(std::vector<TensorGuard> tensors);

  // Fast path: true when every guard holds. `inputs` are in placeholder order.
  bool Check(std::span<const CallInput> inputs) const;
  // Slow path for a miss: the first failing guard in Dynamo's words, or nullopt.
  std::optional<std::string> FirstFailure(std::span<const CallInput> inputs) const;

  // The guard lines, as Dynamo's TREE_GUARD_MANAGER lists them (without the tree).
  std::vector<std::string> TensorLines() const;  // TENSOR_MATCH: check_tensor(...); a scalar's joined
  // The guards of input `i` under its GuardManager: {"TENSOR_MATCH", "check_tensor(...)"}, or a scalar's
  // {"TYPE_MATCH", ...}, {"EQUALS_MATCH", ...} / {"ID_MATCH", ...}.
  std::vector<std::pair<std::string, std::string>> InputGuards(size_t i) const;
  std::vector<std::string> ShapeEnvLines() const;  // SHAPE_ENV: 2 <= L['x'].size()[0]
  // Dynamo's guard_count analogue: tensor checks + shape env guards.
  size_t count() const;
  size_t check_count() const { return checks_.size(); }
  const std::vector<TensorGuard>& tensors() const { return tensors_; }

 private:
  enum class Op : uint8_t { kHeader, kSize, kStride, kRange, kGears, kEqual, kScalar };
  struct FlatCheck {
    Op op;
    uint16_t input;
    uint16_t dim;
    uint16_t other_input;  // kEqual
    uint16_t other_dim;
    int64_t a;  // header / size / stride / min / gears offset
    int64_t b;  // max / gears count
  };
  void Compile();
  std::vector<TensorGuard> tensors_;
  std::vector<FlatCheck> checks_;
  std::vector<int64_t> gears_;  // all gear lists, concatenated
};

// torch's scalar type name in guard failures: Float, Half, BFloat16, Long, ...
std::string_view ScalarTypeName(DType dtype);
// `DispatchKeySet(PrivateUse1, BackendSelect, ADInplaceOrView, AutogradPrivateUse1)` for npu.
std::string DispatchKeySetFor(std::string_view device);
// `L['x'].size()[0]`
std::string SizeSource(std::string_view input, size_t dim);

}  // namespace airscope

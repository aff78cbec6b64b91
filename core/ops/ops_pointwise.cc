// Pointwise ops: one output element per broadcast input element.
//
// Shapes broadcast (numpy rules, see Broadcast); dtypes follow
// torch.result_type, with comparisons giving bool and true division /
// transcendental functions giving the default float for integer inputs.
// Cost: ~1 flop per output element for arithmetic and comparisons; a few for
// functions whose kernels do more (noted per op).
#include <array>

#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

enum class UnaryDType {
  kSame,        // abs, neg, relu: the input's dtype
  kFloatOrSame  // exp, sqrt, sigmoid: integer/bool inputs compute in the default float
};

InferFn UnaryInfer(UnaryDType rule) {
  return [rule](const Node& node) -> Result<NodeMeta> {
    AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
    DType dtype = self->dtype;
    if (rule == UnaryDType::kFloatOrSame && dtype != DType::kUnknown && !IsFloatingPoint(dtype)) {
      dtype = DType::kFloat32;
    }
    return TensorResult(Like(*self, self->sizes, dtype));
  };
}

enum class BinaryDType {
  kPromote,  // add, mul, ...: torch.result_type
  kTrueDiv,  // div: result_type, but integers divide into the default float
  kCompare,  // eq, lt, ...: bool
};

// Result of an elementwise op over the operands at `indices` (tensors or
// Python scalars): broadcast shape, dtype per `rule` over the operands at
// `dtype_indices`.
Result<NodeMeta> InferElementwise(const Node& node, std::span<const size_t> indices,
                                  std::span<const std::string_view> names, std::span<const size_t> dtype_indices,
                                  BinaryDType rule) {
  std::vector<Operand> operands;
  const TensorMeta* first_tensor = nullptr;
  std::vector<Dim> sizes;
  for (size_t i = 0; i < indices.size(); ++i) {
    AIRSCOPE_ASSIGN_OR_RETURN(auto op, OperandArg(node, indices[i], names[i]));
    if (op.tensor) {
      if (!first_tensor) {
        first_tensor = op.tensor;
        sizes = op.tensor->sizes;
      } else {
        AIRSCOPE_ASSIGN_OR_RETURN(auto b, Broadcast(node, sizes, op.tensor->sizes));
        sizes = std::move(b);
      }
    }
    operands.push_back(op);
  }
  if (!first_tensor) return OpError(node, "no tensor operand");
  std::vector<Operand> typed;
  for (size_t i : dtype_indices) typed.push_back(operands[i]);
  DType dtype = ResultType(typed);
  if (rule == BinaryDType::kCompare) dtype = DType::kBool;
  if (rule == BinaryDType::kTrueDiv && dtype != DType::kUnknown && !IsFloatingPoint(dtype)) dtype = DType::kFloat32;
  return TensorResult(Like(*first_tensor, std::move(sizes), dtype));
}

InferFn BinaryInfer(BinaryDType rule) {
  return [rule](const Node& node) -> Result<NodeMeta> {
    constexpr std::array<size_t, 2> kIdx = {0, 1};
    constexpr std::array<std::string_view, 2> kNames = {"self", "other"};
    return InferElementwise(node, kIdx, kNames, kIdx, rule);
  };
}

// add_, mul_ ...: the result is `self`, which must already have the
// broadcast shape (torch refuses to grow an in-place output).
Result<NodeMeta> InferInplaceBinary(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto other, OperandArg(node, 1, "other"));
  if (other.tensor) {
    AIRSCOPE_ASSIGN_OR_RETURN(auto b, Broadcast(node, self->sizes, other.tensor->sizes));
    if (b != self->sizes) {
      return OpError(node, "in-place output {} cannot hold broadcast shape {}", FormatDims(self->sizes), FormatDims(b));
    }
  }
  return TensorResult(Like(*self, self->sizes));
}

Result<NodeMeta> InferWhere(const Node& node) {
  constexpr std::array<size_t, 3> kIdx = {0, 1, 2};
  constexpr std::array<std::string_view, 3> kNames = {"condition", "self", "other"};
  constexpr std::array<size_t, 2> kTyped = {1, 2};
  auto result = InferElementwise(node, kIdx, kNames, kTyped, BinaryDType::kPromote);
  if (!result.ok()) return result;
  // The condition only shapes the result; its device is not the output's.
  auto self = OperandArg(node, 1, "self");
  if (self.ok() && self->tensor) result->tensors[0].device = self->tensor->device;
  return result;
}

// masked_fill(self, mask, value): self's shape and dtype; mask must
// broadcast to self.
Result<NodeMeta> InferMaskedFill(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto mask, TensorArg(node, 1, "mask"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto b, Broadcast(node, self->sizes, mask->sizes));
  if (b != self->sizes) {
    return OpError(node, "mask {} does not broadcast to self {}", FormatDims(mask->sizes), FormatDims(self->sizes));
  }
  return TensorResult(Like(*self, self->sizes));
}

Result<NodeMeta> InferPowScalar(const Node& node) {
  constexpr std::array<size_t, 2> kIdx = {0, 1};
  constexpr std::array<std::string_view, 2> kNames = {"self", "exponent"};
  return InferElementwise(node, kIdx, kNames, kIdx, BinaryDType::kPromote);
}

// native_dropout(x, p, train) -> (out, mask) with TorchAir's NPU meta
// (torchair/_utils/__init__.py meta_native_dropout): when training with p != 0
// the mask is a bit mask, uint8[ceil(numel/128)*128/8]; otherwise (x, bool like x).
Result<NodeMeta> InferNativeDropout(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "input"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto train, BoolArg(node, 2, "train", true));
  const Argument* p = FindArg(node, 1, "p");
  bool zero = p && ((p->kind() == Argument::Kind::kFloat && p->as_float() == 0) ||
                    (p->kind() == Argument::Kind::kInt && p->as_int() == 0));
  const TensorMeta& in = *self;
  if (!train || zero) return TupleResult({Like(in, in.sizes), Like(in, in.sizes, DType::kBool)});
  std::optional<int64_t> numel = in.NumElements();
  if (!numel) return OpError(node, "mask size needs static sizes, input is {}", FormatDims(in.sizes));
  int64_t mask = (*numel + 127) / 128 * 128 / 8;
  return TupleResult({Like(in, in.sizes), Like(in, {Dim(mask)}, DType::kUInt8)});
}

}  // namespace

void RegisterPointwiseOps(OpRegistry& r) {
  constexpr auto P = OpCategory::kPointwise;
  // Unary ops that keep the dtype; ~1 flop each.
  for (const char* name :
       {"aten.abs.default", "aten.neg.default", "aten.relu.default", "aten.tril.default", "aten.triu.default",
        "aten.clamp.default", "aten.hardtanh.default", "aten.sign.default", "aten.bitwise_not.default"}) {
    AddOp(r, name, P, UnaryInfer(UnaryDType::kSame), ElementwiseCost(1));
  }
  for (const char* name : {"aten.relu_.default", "aten.hardtanh_.default", "aten.clamp_.default"}) {
    AddOp(r, name, P, UnaryInfer(UnaryDType::kSame), ElementwiseCost(1), /*inplace=*/true);
  }
  // Transcendentals: a few flops each (exp/log/sqrt ~1 kernel instruction
  // sequence; sigmoid/tanh/silu ~4: exp, add, divide; gelu ~8: erf or the
  // tanh approximation plus the scaling around it).
  struct Unary {
    const char* name;
    double flops;
  };
  for (const Unary& u :
       {Unary{"aten.exp.default", 1}, Unary{"aten.log.default", 1}, Unary{"aten.sqrt.default", 1},
        Unary{"aten.rsqrt.default", 2}, Unary{"aten.reciprocal.default", 1}, Unary{"aten.sin.default", 1},
        Unary{"aten.cos.default", 1}, Unary{"aten.erf.default", 4}, Unary{"aten.sigmoid.default", 4},
        Unary{"aten.tanh.default", 4}, Unary{"aten.silu.default", 5}, Unary{"aten.gelu.default", 8}}) {
    AddOp(r, u.name, P, UnaryInfer(UnaryDType::kFloatOrSame), ElementwiseCost(u.flops));
  }
  AddOp(r, "aten.pow.Tensor_Scalar", P, InferPowScalar, ElementwiseCost(1));

  for (const char* base : {"add", "sub", "mul", "rsub"}) {
    for (const char* overload : {"Tensor", "Scalar"}) {
      AddOp(r, fmt::format("aten.{}.{}", base, overload), P, BinaryInfer(BinaryDType::kPromote), ElementwiseCost(1));
    }
  }
  AddOp(r, "aten.maximum.default", P, BinaryInfer(BinaryDType::kPromote), ElementwiseCost(1));
  AddOp(r, "aten.minimum.default", P, BinaryInfer(BinaryDType::kPromote), ElementwiseCost(1));
  AddOp(r, "aten.div.Tensor", P, BinaryInfer(BinaryDType::kTrueDiv), ElementwiseCost(1));
  AddOp(r, "aten.div.Scalar", P, BinaryInfer(BinaryDType::kTrueDiv), ElementwiseCost(1));
  for (const char* name : {"aten.add_.Tensor", "aten.sub_.Tensor", "aten.mul_.Tensor", "aten.div_.Tensor",
                           "aten.add_.Scalar", "aten.mul_.Scalar"}) {
    AddOp(r, name, P, InferInplaceBinary, ElementwiseCost(1), /*inplace=*/true);
  }
  for (const char* cmp : {"eq", "ne", "lt", "gt", "ge", "le"}) {
    for (const char* overload : {"Scalar", "Tensor"}) {
      AddOp(r, fmt::format("aten.{}.{}", cmp, overload), P, BinaryInfer(BinaryDType::kCompare), ElementwiseCost(1));
    }
  }
  AddOp(r, "aten.where.self", P, InferWhere, ElementwiseCost(1));
  AddOp(r, "aten.masked_fill.Scalar", P, InferMaskedFill, ElementwiseCost(1));
  AddOp(r, "aten.masked_fill.Tensor", P, InferMaskedFill, ElementwiseCost(1));
  AddOp(r, "aten.native_dropout.default", P, InferNativeDropout, ElementwiseCost(3));
}

}  // namespace airscope

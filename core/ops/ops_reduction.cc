// Reductions along dims (sum, mean, amax, amin, max.dim, argmax) and the
// softmaxes, which reduce along a dim to normalise it.
//
// Cost: ~1 flop per input element for plain reductions; softmax ~5 per
// element (max, subtract, exp, sum, divide).
#include <algorithm>

#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

// The sizes left after reducing `dims` (all dims when empty or absent).
Result<std::vector<Dim>> ReducedSizes(const Node& node, const TensorMeta& self, size_t dim_index,
                                      size_t keepdim_index) {
  const std::vector<Dim>& in = self.sizes;
  auto dims = IntListArg(node, dim_index, "dim", std::vector<int64_t>{});
  if (!dims.ok()) return dims.status();
  AIRSCOPE_ASSIGN_OR_RETURN(auto keepdim, BoolArg(node, keepdim_index, "keepdim", false));
  std::vector<bool> reduced(in.size(), dims->empty());
  for (int64_t d : *dims) {
    AIRSCOPE_ASSIGN_OR_RETURN(auto n, NormalizeDim(node, d, in.size()));
    if (static_cast<size_t>(n) < in.size()) reduced[n] = true;
  }
  std::vector<Dim> out;
  for (size_t i = 0; i < in.size(); ++i) {
    if (!reduced[i]) {
      out.push_back(in[i]);
    } else if (keepdim) {
      out.emplace_back(1);
    }
  }
  return out;
}

// sum of integers accumulates in int64 unless a dtype is given.
Result<DType> SumDType(const Node& node, const TensorMeta& self, size_t dtype_index) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto given, DTypeArg(node, dtype_index, "dtype"));
  if (given) return *given;
  if (self.dtype != DType::kUnknown && !IsFloatingPoint(self.dtype)) return DType::kInt64;
  return self.dtype;
}

Result<NodeMeta> InferSumAll(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, SumDType(node, *self, 1));
  return TensorResult(Like(*self, {}, dtype));
}

Result<NodeMeta> InferSumDim(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, ReducedSizes(node, *self, 1, 2));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, SumDType(node, *self, 3));
  return TensorResult(Like(*self, std::move(sizes), dtype));
}

Result<NodeMeta> InferMeanDim(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, ReducedSizes(node, *self, 1, 2));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 3, "dtype"));
  return TensorResult(Like(*self, std::move(sizes), dtype.value_or(self->dtype)));
}

Result<NodeMeta> InferMeanAll(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 1, "dtype"));
  return TensorResult(Like(*self, {}, dtype.value_or(self->dtype)));
}

// amax/amin(self, dim=[], keepdim=False): the input's dtype.
Result<NodeMeta> InferAmax(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, ReducedSizes(node, *self, 1, 2));
  return TensorResult(Like(*self, std::move(sizes)));
}

// max.dim(self, dim, keepdim=False) -> (values, int64 indices).
Result<NodeMeta> InferMaxDim(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  auto dim = IntArg(node, 1, "dim");
  if (!dim.ok()) return dim.status();
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, ReducedSizes(node, *self, 1, 2));
  return TupleResult({Like(*self, sizes), Like(*self, sizes, DType::kInt64)});
}

// argmax(self, dim=None, keepdim=False): int64; no dim reduces everything.
Result<NodeMeta> InferArgmax(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, OptionalIntArg(node, 1, "dim"));
  if (!dim) return TensorResult(Like(*self, {}, DType::kInt64));
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, ReducedSizes(node, *self, 1, 2));
  return TensorResult(Like(*self, std::move(sizes), DType::kInt64));
}

// _softmax(self, dim, half_to_float): same shape; half_to_float computes a
// half input into f32.
Result<NodeMeta> InferSoftmax(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, IntArg(node, 1, "dim"));
  auto d = NormalizeDim(node, dim, self->sizes.size());
  if (!d.ok()) return d.status();
  AIRSCOPE_ASSIGN_OR_RETURN(auto half_to_float, BoolArg(node, 2, "half_to_float", false));
  DType dtype = self->dtype;
  if (half_to_float && (dtype == DType::kFloat16 || dtype == DType::kBFloat16)) dtype = DType::kFloat32;
  return TensorResult(Like(*self, self->sizes, dtype));
}

// Flops proportional to the input (what is reduced), not the output.
CostFn ReductionCost(double flops_per_input_element) {
  return [flops_per_input_element](const Node& node) -> std::optional<OpCost> {
    auto self = TensorArg(node, 0, "self");
    if (!self.ok()) return std::nullopt;
    auto elements = Elements(*self);
    auto read = InputBytes(node);
    auto written = OutputBytes(node);
    if (!elements || !read || !written) return std::nullopt;
    return OpCost{flops_per_input_element * *elements, *read, *written};
  };
}

}  // namespace

void RegisterReductionOps(OpRegistry& r) {
  constexpr auto R = OpCategory::kReduction;
  AddOp(r, "aten.sum.default", R, InferSumAll, ReductionCost(1));
  AddOp(r, "aten.sum.dim_IntList", R, InferSumDim, ReductionCost(1));
  AddOp(r, "aten.mean.dim", R, InferMeanDim, ReductionCost(1));
  AddOp(r, "aten.mean.default", R, InferMeanAll, ReductionCost(1));
  AddOp(r, "aten.amax.default", R, InferAmax, ReductionCost(1));
  AddOp(r, "aten.amin.default", R, InferAmax, ReductionCost(1));
  AddOp(r, "aten.max.dim", R, InferMaxDim, ReductionCost(1));
  AddOp(r, "aten.argmax.default", R, InferArgmax, ReductionCost(1));
  AddOp(r, "aten._softmax.default", R, InferSoftmax, ReductionCost(5));
  AddOp(r, "aten._log_softmax.default", R, InferSoftmax, ReductionCost(5));
}

}  // namespace airscope

// Convolution (regular, dilated, grouped, transposed) and the normalisations
// (native_batch_norm, native_layer_norm) that follow it in CNNs and
// transformers.
//
// Cost of a convolution: every output element of a regular conv is a dot
// product of (Cin/groups)*prod(kernel) terms, 2 flops each:
//   2 * N*Cout*prod(out spatial) * (Cin/groups)*prod(kernel)   (+ N*Cout*prod(out) for a bias)
// A transposed conv scatters each input element over (Cout/groups)*prod(kernel)
// outputs: 2 * N*Cin*prod(in spatial) * (Cout/groups)*prod(kernel).
// Normalisations: batch norm ~4 flops per element (subtract, scale, scale, shift),
// layer norm ~5 (it also computes the mean and variance it normalises by).
#include "core/ops/conv_shape.h"
#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

Result<NodeMeta> InferConvolution(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto conv, ParseConv(node, /*first_arg=*/0));
  return TensorResult(conv.output);
}

CostFn ConvolutionCost() {
  return [](const Node& node) -> std::optional<OpCost> {
    auto conv = ParseConv(node, 0);
    if (!conv.ok()) return std::nullopt;
    auto flops = ConvForwardFlops(*conv);
    auto read = InputBytes(node);
    auto written = OutputBytes(node);
    if (!flops || !read || !written) return std::nullopt;
    double bias = 0;
    if (conv->has_bias) {
      auto out = Elements(&conv->output);
      if (!out) return std::nullopt;
      bias = *out;
    }
    return OpCost{*flops + bias, *read, *written};
  };
}

// Statistics are kept in the accumulation type: f32 for half inputs, except
// on CPU where torch casts them back to the input dtype.
DType StatsDType(const TensorMeta& input) {
  bool half = input.dtype == DType::kFloat16 || input.dtype == DType::kBFloat16;
  return half && input.device != "cpu" ? DType::kFloat32 : input.dtype;
}

// native_batch_norm(input, weight, bias, running_mean, running_var, training,
// momentum, eps) -> (out, save_mean[C], save_invstd[C]). In eval mode on CPU
// torch returns the saved statistics as empty [0] tensors.
Result<NodeMeta> InferBatchNorm(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto input, TensorArg(node, 0, "input"));
  const TensorMeta& in = *input;
  if (in.sizes.size() < 2) return OpError(node, "input must have at least 2 dims, got {}", FormatDims(in.sizes));
  Dim channels = in.sizes[1];
  for (auto [index, name] :
       {std::pair<size_t, const char*>{1, "weight"}, {2, "bias"}, {3, "running_mean"}, {4, "running_var"}}) {
    AIRSCOPE_ASSIGN_OR_RETURN(auto t, OptionalTensorArg(node, index, name));
    if (t && t->sizes.size() == 1 && t->sizes[0].is_static() && channels.is_static() && t->sizes[0] != channels) {
      return OpError(node, "{} has {} elements but input has {} channels", name, t->sizes[0].ToString(),
                     channels.ToString());
    }
  }
  AIRSCOPE_ASSIGN_OR_RETURN(auto training, BoolArg(node, 5, "training", false));
  Dim stats = !training && in.device == "cpu" ? Dim(0) : channels;
  DType stats_dtype = StatsDType(in);
  return TupleResult({Like(in, in.sizes), Like(in, {stats}, stats_dtype), Like(in, {stats}, stats_dtype)});
}

// native_layer_norm(input, normalized_shape, weight, bias, eps) ->
// (out, mean, rstd); mean/rstd keep the leading dims and have size 1 in
// each normalised one: [2, 16, 128] over [128] -> [2, 16, 1].
Result<NodeMeta> InferLayerNorm(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto input, TensorArg(node, 0, "input"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto normalized, DimListArg(node, 1, "normalized_shape"));
  const TensorMeta& in = *input;
  size_t n = normalized.size();
  if (n > in.sizes.size()) {
    return OpError(node, "normalized_shape {} has more dims than input {}", FormatDims(normalized),
                   FormatDims(in.sizes));
  }
  size_t axis = in.sizes.size() - n;
  for (size_t i = 0; i < n; ++i) {
    const Dim& a = in.sizes[axis + i];
    const Dim& b = normalized[i];
    if (a.is_static() && b.is_static() && a != b) {
      return OpError(node, "input dim {} is {} but normalized_shape says {}", axis + i, a.ToString(), b.ToString());
    }
  }
  std::vector<Dim> stats(in.sizes.begin(), in.sizes.begin() + static_cast<std::ptrdiff_t>(axis));
  stats.resize(in.sizes.size(), Dim(1));
  DType stats_dtype = StatsDType(in);
  return TupleResult({Like(in, in.sizes), Like(in, stats, stats_dtype), Like(in, stats, stats_dtype)});
}

// _native_batch_norm_legit_no_training(input, weight, bias, running_mean,
// running_var, momentum, eps) -> (out, save_mean, save_rstd): what eval-mode
// batch_norm records under AOT (torch/_decomp/decompositions.py
// native_batch_norm_decomposition, registered on the CompositeImplicitAutograd
// key for the python dispatcher). TorchAir's NPU meta makes both statistics
// `input.new_zeros((0,))` (torchair/_utils/__init__.py:104-123).
Result<NodeMeta> InferBatchNormNoTraining(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto input, TensorArg(node, 0, "input"));
  const TensorMeta& in = *input;
  if (in.sizes.size() < 2) return OpError(node, "input must have at least 2 dims, got {}", FormatDims(in.sizes));
  return TupleResult({Like(in, in.sizes), Like(in, {Dim(0)}), Like(in, {Dim(0)})});
}

// native_group_norm(input, weight, bias, N, C, HxW, group, eps) -> (out,
// mean[N, group], rstd[N, group]) (torch/_meta_registrations.py
// native_group_norm meta: mean/rstd `input.new_empty((N, group))`).
Result<NodeMeta> InferGroupNorm(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto input, TensorArg(node, 0, "input"));
  const TensorMeta& in = *input;
  if (in.sizes.size() < 2) return OpError(node, "input must have at least 2 dims, got {}", FormatDims(in.sizes));
  auto group = IntArg(node, 6, "group");
  if (!group.ok()) return group.status();
  if (in.sizes[1].is_static() && (*group <= 0 || in.sizes[1].value() % *group != 0)) {
    return OpError(node, "{} channels do not split into {} groups", in.sizes[1].value(), *group);
  }
  std::vector<Dim> stats = {in.sizes[0], Dim(*group)};
  return TupleResult({Like(in, in.sizes), Like(in, stats), Like(in, stats)});
}

}  // namespace

void RegisterConvNormOps(OpRegistry& r) {
  AddOp(r, "aten._native_batch_norm_legit_no_training.default", OpCategory::kNormalization, InferBatchNormNoTraining,
        ElementwiseCost(4));
  AddOp(r, "aten.native_group_norm.default", OpCategory::kNormalization, InferGroupNorm, ElementwiseCost(5));
  AddOp(r, "aten.convolution.default", OpCategory::kConvolution, InferConvolution, ConvolutionCost());
  AddOp(r, "aten.native_batch_norm.default", OpCategory::kNormalization, InferBatchNorm, ElementwiseCost(4));
  AddOp(r, "aten.native_layer_norm.default", OpCategory::kNormalization, InferLayerNorm, ElementwiseCost(5));
}

}  // namespace airscope

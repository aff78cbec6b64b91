// Backward ops that torch emits in training graphs (AOTAutograd's joint
// graph). Each gradient has the shape of the forward value it is for; tuple
// elements whose output_mask entry is false are None (kUnknown, no sizes).
//
// Cost: convolution_backward does one forward-sized product per requested
// gradient (grad_input and grad_weight are each a convolution of the same
// size), plus one add per grad_output element for grad_bias; norm backwards
// ~8 flops per element; the pointwise backwards ~2 (a compare or a multiply
// and a select).
#include "core/ops/conv_shape.h"
#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

Result<std::vector<bool>> OutputMask(const Node& node, size_t index, size_t count) {
  const Argument* arg = FindArg(node, index, "output_mask");
  if (!arg || arg->is_none()) return std::vector<bool>(count, true);
  if (!arg->is_sequence() || arg->items().size() != count) {
    return OpError(node, "output_mask must be a list of {} bools", count);
  }
  std::vector<bool> mask;
  for (const Argument& item : arg->items()) {
    if (item.kind() != Argument::Kind::kBool) return OpError(node, "output_mask must be a list of {} bools", count);
    mask.push_back(item.as_bool());
  }
  return mask;
}

// convolution_backward(grad_output, input, weight, bias_sizes, stride,
// padding, dilation, transposed, output_padding, groups, output_mask)
//   -> (grad_input, grad_weight, grad_bias[Cout]).
Result<NodeMeta> InferConvolutionBackward(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto grad, TensorArg(node, 0, "grad_output"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto conv, ParseConv(node, 1));
  // The forward output must be what grad_output says it is; catching it
  // here names the real problem instead of a wrong gradient shape later.
  const std::vector<Dim>& want = conv.output.sizes;
  const std::vector<Dim>& got = grad->sizes;
  if (want.size() != got.size()) {
    return OpError(node, "grad_output {} does not match the convolution output {}", FormatDims(got), FormatDims(want));
  }
  for (size_t i = 0; i < want.size(); ++i) {
    if (want[i].is_static() && got[i].is_static() && want[i] != got[i]) {
      return OpError(node, "grad_output dim {} is {} but the convolution output has {}", i, got[i].ToString(),
                     want[i].ToString());
    }
  }
  AIRSCOPE_ASSIGN_OR_RETURN(auto mask, OutputMask(node, 10, 3));
  Dim cout = conv.output.sizes[conv.input.sizes.size() == conv.weight.sizes.size() ? 1 : 0];
  if (auto bias_sizes = DimListArg(node, 3, "bias_sizes"); bias_sizes.ok() && bias_sizes->size() == 1) {
    cout = (*bias_sizes)[0];
  }
  const TensorMeta& g = *grad;
  return TupleResult({mask[0] ? Like(conv.input, conv.input.sizes, g.dtype) : NoneElement(),
                      mask[1] ? Like(conv.weight, conv.weight.sizes, g.dtype) : NoneElement(),
                      mask[2] ? Like(g, {cout}) : NoneElement()});
}

CostFn ConvolutionBackwardCost() {
  return [](const Node& node) -> std::optional<OpCost> {
    auto conv = ParseConv(node, 1);
    auto mask = OutputMask(node, 10, 3);
    auto grad = TensorArg(node, 0, "grad_output");
    if (!conv.ok() || !mask.ok() || !grad.ok()) return std::nullopt;
    auto forward = ConvForwardFlops(*conv);
    auto grad_elements = Elements(*grad);
    auto read = InputBytes(node);
    auto written = OutputBytes(node);
    if (!forward || !grad_elements || !read || !written) return std::nullopt;
    double flops = *forward * (((*mask)[0] ? 1 : 0) + ((*mask)[1] ? 1 : 0)) + ((*mask)[2] ? *grad_elements : 0);
    return OpCost{flops, *read, *written};
  };
}

// native_batch_norm_backward(grad_out, input, weight, running_mean,
// running_var, save_mean, save_invstd, train, eps, output_mask)
//   -> (grad_input, grad_weight[C], grad_bias[C]).
Result<NodeMeta> InferBatchNormBackward(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto grad, TensorArg(node, 0, "grad_out"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto input, TensorArg(node, 1, "input"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto weight, OptionalTensorArg(node, 2, "weight"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto mask, OutputMask(node, 9, 3));
  const TensorMeta& in = *input;
  if (in.sizes.size() < 2) return OpError(node, "input must have at least 2 dims, got {}", FormatDims(in.sizes));
  const TensorMeta& param = weight ? *weight : in;
  TensorMeta per_channel = Like(param, {in.sizes[1]});
  return TupleResult({mask[0] ? Like(in, in.sizes, grad->dtype) : NoneElement(), mask[1] ? per_channel : NoneElement(),
                      mask[2] ? per_channel : NoneElement()});
}

// native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd,
// weight, bias, output_mask) -> (grad_input, grad_weight, grad_bias); the
// parameter gradients are None when the parameter is.
Result<NodeMeta> InferLayerNormBackward(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto grad, TensorArg(node, 0, "grad_out"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto input, TensorArg(node, 1, "input"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto weight, OptionalTensorArg(node, 5, "weight"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto bias, OptionalTensorArg(node, 6, "bias"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto mask, OutputMask(node, 7, 3));
  const TensorMeta& in = *input;
  return TupleResult({mask[0] ? Like(in, in.sizes, grad->dtype) : NoneElement(),
                      mask[1] && weight ? Like(*weight, weight->sizes) : NoneElement(),
                      mask[2] && bias ? Like(*bias, bias->sizes) : NoneElement()});
}

// threshold_backward, gelu_backward, hardtanh_backward: grad_output and the
// forward input broadcast; the gradient's dtype is grad_output's.
Result<NodeMeta> InferPointwiseBackward(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto grad, TensorArg(node, 0, "grad_output"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 1, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, Broadcast(node, grad->sizes, self->sizes));
  return TensorResult(Like(*grad, std::move(sizes), PromoteTypes(grad->dtype, self->dtype)));
}

// _softmax_backward_data(grad_output, output, dim, input_dtype).
Result<NodeMeta> InferSoftmaxBackward(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto grad, TensorArg(node, 0, "grad_output"));
  auto output = TensorArg(node, 1, "output");
  if (!output.ok()) return output.status();
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, IntArg(node, 2, "dim"));
  auto d = NormalizeDim(node, dim, grad->sizes.size());
  if (!d.ok()) return d.status();
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 3, "input_dtype"));
  return TensorResult(Like(*grad, grad->sizes, dtype.value_or(grad->dtype)));
}

// embedding_dense_backward(grad_output, indices, num_weights, padding_idx,
// scale_grad_by_freq) -> [num_weights, embedding_dim].
Result<NodeMeta> InferEmbeddingBackward(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto grad, TensorArg(node, 0, "grad_output"));
  auto indices = TensorArg(node, 1, "indices");
  if (!indices.ok()) return indices.status();
  AIRSCOPE_ASSIGN_OR_RETURN(auto num_weights, DimListArg(node, 2, "num_weights"));
  if (num_weights.size() != 1) return OpError(node, "num_weights must be one size");
  if (grad->sizes.empty()) return OpError(node, "grad_output must have at least 1 dim");
  return TensorResult(Like(*grad, {num_weights[0], grad->sizes.back()}));
}

}  // namespace

void RegisterBackwardOps(OpRegistry& r) {
  AddOp(r, "aten.convolution_backward.default", OpCategory::kConvolution, InferConvolutionBackward,
        ConvolutionBackwardCost());
  AddOp(r, "aten.native_batch_norm_backward.default", OpCategory::kNormalization, InferBatchNormBackward,
        ElementwiseCost(8));
  AddOp(r, "aten.native_layer_norm_backward.default", OpCategory::kNormalization, InferLayerNormBackward,
        ElementwiseCost(8));
  for (const char* name :
       {"aten.threshold_backward.default", "aten.gelu_backward.default", "aten.hardtanh_backward.default",
        "aten.sigmoid_backward.default", "aten.tanh_backward.default"}) {
    AddOp(r, name, OpCategory::kPointwise, InferPointwiseBackward, ElementwiseCost(2));
  }
  AddOp(r, "aten._softmax_backward_data.default", OpCategory::kReduction, InferSoftmaxBackward, ElementwiseCost(4));
  AddOp(r, "aten._log_softmax_backward_data.default", OpCategory::kReduction, InferSoftmaxBackward, ElementwiseCost(4));
  // A scatter-add of grad_output rows into the weight gradient: ~1 flop per grad element.
  AddOp(r, "aten.embedding_dense_backward.default", OpCategory::kOther, InferEmbeddingBackward,
        [](const Node& node) -> std::optional<OpCost> {
          auto grad = TensorArg(node, 0, "grad_output");
          if (!grad.ok()) return std::nullopt;
          auto elements = Elements(*grad);
          auto read = InputBytes(node);
          auto written = OutputBytes(node);
          if (!elements || !read || !written) return std::nullopt;
          return OpCost{*elements, *read, *written};
        });
}

}  // namespace airscope

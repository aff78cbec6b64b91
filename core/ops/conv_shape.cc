#include "core/ops/conv_shape.h"

#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

Result<std::vector<int64_t>> SpatialParam(const Node& node, size_t index, std::string_view name, size_t spatial,
                                          int64_t fallback) {
  auto values = IntListArg(node, index, name, std::vector<int64_t>{fallback});
  if (!values.ok()) return values.status();
  if (values->size() == 1 && spatial != 1) values->assign(spatial, (*values)[0]);
  if (values->size() != spatial) {
    return OpError(node, "{} has {} values for {} spatial dims", name, values->size(), spatial);
  }
  return values;
}

}  // namespace

Result<ConvShape> ParseConv(const Node& node, size_t first) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto input, TensorArg(node, first, "input"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto weight, TensorArg(node, first + 1, "weight"));
  ConvShape conv;
  conv.input = *input;
  conv.weight = *weight;
  const std::vector<Dim>& in = conv.input.sizes;
  const std::vector<Dim>& w = conv.weight.sizes;
  if (w.size() < 3) return OpError(node, "weight must have at least 3 dims, got {}", FormatDims(w));
  size_t spatial = w.size() - 2;
  // Batched input is [N, C, *spatial]; torch also accepts an unbatched [C, *spatial].
  bool batched = in.size() == spatial + 2;
  if (!batched && in.size() != spatial + 1) {
    return OpError(node, "input {} does not match weight {}: expected {} or {} dims", FormatDims(in), FormatDims(w),
                   spatial + 1, spatial + 2);
  }
  const Argument* bias = FindArg(node, first + 2, "bias");
  conv.has_bias = bias && !bias->is_none();
  AIRSCOPE_ASSIGN_OR_RETURN(auto stride, SpatialParam(node, first + 3, "stride", spatial, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(auto padding, SpatialParam(node, first + 4, "padding", spatial, 0));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dilation, SpatialParam(node, first + 5, "dilation", spatial, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(auto transposed, BoolArg(node, first + 6, "transposed", false));
  AIRSCOPE_ASSIGN_OR_RETURN(auto output_padding, SpatialParam(node, first + 7, "output_padding", spatial, 0));
  auto groups = IntArg(node, first + 8, "groups", 1);
  if (!groups.ok()) return groups.status();
  if (*groups < 1) return OpError(node, "groups must be positive, got {}", *groups);
  conv.transposed = transposed;
  conv.groups = *groups;

  size_t channel_dim = batched ? 1 : 0;
  const Dim& cin = in[channel_dim];
  // Regular weight: [Cout, Cin/groups, *k]; transposed: [Cin, Cout/groups, *k].
  Dim expected_cin = conv.transposed ? w[0] : (w[1].is_static() ? Dim(w[1].value() * *groups) : w[1]);
  if (cin.is_static() && expected_cin.is_static() && cin != expected_cin) {
    return OpError(node, "input has {} channels but weight {} with groups={} expects {}", cin.ToString(), FormatDims(w),
                   *groups, expected_cin.ToString());
  }
  Dim cout = conv.transposed ? (w[1].is_static() ? Dim(w[1].value() * *groups) : w[1]) : w[0];
  if (!conv.transposed && cout.is_static() && cout.value() % *groups != 0) {
    return OpError(node, "output channels {} are not divisible by groups={}", cout.ToString(), *groups);
  }

  std::vector<Dim> out;
  if (batched) out.push_back(in[0]);
  out.push_back(cout);
  for (size_t i = 0; i < spatial; ++i) {
    const Dim& x = in[channel_dim + 1 + i];
    const Dim& k = w[2 + i];
    if (!k.is_static()) return OpError(node, "kernel size {} is symbolic", k.ToString());
    int64_t s = stride[i], p = padding[i], d = dilation[i];
    if (s < 1 || d < 1) return OpError(node, "stride and dilation must be positive");
    int64_t span = d * (k.value() - 1);
    Dim o;
    if (conv.transposed) {
      // (x - 1)*s - 2p + d(k-1) + op + 1 == s*x + (-s - 2p + span + op + 1)
      Dim scaled = DimOf(ProductOf(std::vector<Dim>{Dim(s), x}));
      o = AddConst(scaled, -s - 2 * p + span + output_padding[i] + 1);
    } else {
      o = ConvOutDim(x, 2 * p - span - 1, s);
    }
    if (o.is_static() && o.value() <= 0) {
      return OpError(node, "input size {} is too small for kernel {} (dilation {}, padding {}): output size {}",
                     x.ToString(), k.ToString(), d, p, o.value());
    }
    out.push_back(o);
  }
  conv.output = Like(conv.input, std::move(out), PromoteTypes(conv.input.dtype, conv.weight.dtype));
  return conv;
}

std::optional<double> ConvForwardFlops(const ConvShape& conv) {
  auto per_weight_row = conv.weight.NumElements();  // weight[0] * weight[1] * prod(k)
  auto positions = Elements(conv.transposed ? &conv.input : &conv.output);
  if (!per_weight_row || !positions || !conv.weight.sizes[0].is_static() || conv.weight.sizes[0].value() == 0) {
    return std::nullopt;
  }
  // weight[1] * prod(k) = weight elements / weight[0].
  double terms = static_cast<double>(*per_weight_row) / static_cast<double>(conv.weight.sizes[0].value());
  return 2 * *positions * terms;
}

}  // namespace airscope

// Pooling: max_pool2d_with_indices (what F.max_pool2d records off the CPU,
// at::max_pool2d in aten/src/ATen/native/MaxPooling.cpp), avg_pool2d, and
// _adaptive_avg_pool2d (adaptive_avg_pool2d to any size but 1x1, which is a
// mean over the last two dims: AdaptiveAveragePooling.cpp). Output sizes by
// aten/src/ATen/native/Pool.h pooling_output_shape_pad_lr; an empty stride is
// the kernel size, and a one-element list stands for both dims (int[2]).
#include <cstdint>
#include <optional>

#include <fmt/format.h>

#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

// Floor division rounding toward negative infinity (Pool.h div_rtn). In
// 128 bits: a file's kernel, padding and dilation are any int64s, whose
// products would overflow int64.
__int128 DivRtn(__int128 x, __int128 y) {
  __int128 q = x / y;
  if ((x % y != 0) && ((x < 0) != (y < 0))) --q;
  return q;
}

// The output size, or nullopt when it does not fit int64. `stride` > 0.
std::optional<int64_t> PoolingOutputSize(int64_t input, int64_t kernel, int64_t pad, int64_t stride, int64_t dilation,
                                         bool ceil_mode) {
  using I = __int128;
  I out =
      DivRtn(I{input} + 2 * I{pad} - I{dilation} * (I{kernel} - 1) - 1 + (ceil_mode ? I{stride} - 1 : 0), I{stride}) +
      1;
  // ensure that the last pooling starts inside the image
  if (ceil_mode && (out - 1) * I{stride} >= I{input} + I{pad}) --out;
  if (out > INT64_MAX || out < INT64_MIN) return std::nullopt;
  return static_cast<int64_t>(out);
}

Result<std::vector<int64_t>> Pair(const Node& node, size_t index, std::string_view name,
                                  std::optional<std::vector<int64_t>> fallback) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto values, IntListArg(node, index, name, std::move(fallback)));
  if (values.size() == 1) return std::vector<int64_t>{values[0], values[0]};
  if (values.size() != 2 && !values.empty()) return OpError(node, "{} must have 1 or 2 values", name);
  return values;
}

// The spatial rule shared by max and avg pooling; `dilation_index` < 0 for avg.
Result<std::vector<Dim>> PoolSizes(const Node& node, int dilation_index, size_t ceil_index) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  const std::vector<Dim>& in = self->sizes;
  if (in.size() != 3 && in.size() != 4) return OpError(node, "expected a 3-D or 4-D input, got {}", FormatDims(in));
  AIRSCOPE_ASSIGN_OR_RETURN(auto kernel, Pair(node, 1, "kernel_size", std::nullopt));
  if (kernel.size() != 2) return OpError(node, "kernel_size must have 1 or 2 values");
  auto stride = Pair(node, 2, "stride", std::vector<int64_t>{});
  if (!stride.ok()) return stride.status();
  if (stride->empty()) *stride = kernel;
  auto padding = Pair(node, 3, "padding", std::vector<int64_t>{0});
  if (!padding.ok()) return padding.status();
  std::vector<int64_t> dilation = {1, 1};
  if (dilation_index >= 0) {
    auto d = Pair(node, static_cast<size_t>(dilation_index), "dilation", std::vector<int64_t>{1});
    if (!d.ok()) return d.status();
    dilation = *d;
  }
  AIRSCOPE_ASSIGN_OR_RETURN(auto ceil_mode, BoolArg(node, ceil_index, "ceil_mode", false));
  if (padding->size() != 2 || stride->size() != 2) return OpError(node, "stride and padding must have 1 or 2 values");
  // pooling_output_shape's checks, then pool2d_shape_check's (Pool.h), in
  // torch's words and order.
  if ((*stride)[0] == 0 || (*stride)[1] == 0) return OpError(node, "stride should not be zero");
  for (size_t i = 0; i < 2; ++i) {
    int64_t pad = (*padding)[i];
    if (pad < 0) return OpError(node, "pad must be non-negative, but got pad: {}", pad);
    if (pad > ((__int128{kernel[i]} - 1) * dilation[i] + 1) / 2) {
      return OpError(node,
                     "pad should be at most half of effective kernel size, but got pad={}, kernel_size={} and "
                     "dilation={}",
                     pad, kernel[i], dilation[i]);
    }
  }
  if (kernel[0] <= 0 || kernel[1] <= 0) {
    return OpError(node, "kernel size should be greater than zero, but got kH: {} kW: {}", kernel[0], kernel[1]);
  }
  if ((*stride)[0] < 0 || (*stride)[1] < 0) {
    return OpError(node, "stride should be greater than zero, but got dH: {} dW: {}", (*stride)[0], (*stride)[1]);
  }
  if (dilation[0] <= 0 || dilation[1] <= 0) {
    return OpError(node, "dilation should be greater than zero, but got dilationH: {} dilationW: {}", dilation[0],
                   dilation[1]);
  }
  std::vector<Dim> out(in.begin(), in.end() - 2);
  for (size_t i = 0; i < 2; ++i) {
    const Dim& size = in[in.size() - 2 + i];
    if (!size.is_static()) return OpError(node, "symbolic spatial sizes are not modelled");
    std::optional<int64_t> o =
        PoolingOutputSize(size.value(), kernel[i], (*padding)[i], (*stride)[i], dilation[i], ceil_mode);
    if (!o || *o <= 0) return OpError(node, "output size is too small ({})", o ? fmt::format("{}", *o) : "past int64");
    out.push_back(*o);
  }
  return out;
}

// max_pool2d_with_indices(self, kernel_size, stride=[], padding=0,
// dilation=1, ceil_mode=False) -> (out, indices int64).
Result<NodeMeta> InferMaxPool2dWithIndices(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, PoolSizes(node, 4, 5));
  const TensorMeta* self = *TensorArg(node, 0, "self");
  return TupleResult({Like(*self, sizes), Like(*self, sizes, DType::kInt64)});
}

// avg_pool2d(self, kernel_size, stride=[], padding=0, ceil_mode=False,
// count_include_pad=True, divisor_override=None).
Result<NodeMeta> InferAvgPool2d(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, PoolSizes(node, -1, 4));
  return TensorResult(Like(**TensorArg(node, 0, "self"), sizes));
}

// _adaptive_avg_pool2d(self, output_size).
Result<NodeMeta> InferAdaptiveAvgPool2d(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  const std::vector<Dim>& in = self->sizes;
  if (in.size() != 3 && in.size() != 4) return OpError(node, "expected a 3-D or 4-D input, got {}", FormatDims(in));
  AIRSCOPE_ASSIGN_OR_RETURN(auto size, Pair(node, 1, "output_size", std::nullopt));
  if (size.size() != 2) return OpError(node, "output_size must have 2 values");
  std::vector<Dim> out(in.begin(), in.end() - 2);
  out.push_back(size[0]);
  out.push_back(size[1]);
  return TensorResult(Like(*self, std::move(out)));
}

}  // namespace

void RegisterPoolingOps(OpRegistry& r) {
  // A window of k elements per output: about k comparisons or additions each.
  AddOp(r, "aten.max_pool2d_with_indices.default", OpCategory::kReduction, InferMaxPool2dWithIndices, CopyCost());
  AddOp(r, "aten.avg_pool2d.default", OpCategory::kReduction, InferAvgPool2d, CopyCost());
  AddOp(r, "aten._adaptive_avg_pool2d.default", OpCategory::kReduction, InferAdaptiveAvgPool2d, CopyCost());
}

}  // namespace airscope

// The shape rule of aten.convolution, shared by the forward op and
// convolution_backward (whose arguments are the forward's, shifted by one
// behind grad_output).
//
// Contract: ParseConv reads input, weight, bias, stride, padding, dilation,
// transposed, output_padding, groups starting at args[first_arg], checks
// channel counts against groups, and computes the output tensor:
//   regular:    out = floor((in + 2p - d*(k-1) - 1) / s) + 1
//   transposed: out = (in - 1)*s - 2p + d*(k-1) + output_padding + 1
// One-element stride/padding/dilation lists apply to every spatial dim.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "core/ir/node.h"
#include "core/status.h"

namespace airscope {

struct ConvShape {
  TensorMeta input;
  TensorMeta weight;
  TensorMeta output;
  bool has_bias = false;
  bool transposed = false;
  int64_t groups = 1;
};

Result<ConvShape> ParseConv(const Node& node, size_t first_arg);

// 2 * (output elements, or input elements when transposed) * weight[1] * prod(kernel):
// the multiply-adds of the forward pass, without the bias. nullopt if symbolic.
std::optional<double> ConvForwardFlops(const ConvShape& conv);

}  // namespace airscope

// LowerModule: a declared torch.nn module's call as its forward() traces
// under AOT in eval mode (torch/nn/modules/*.py forward -> torch.nn.functional
// -> the aten ops recorded). Each module reuses the rule of the functional
// it calls:
//   Linear      F.linear                     -> t + addmm (linear rule)
//   Conv1d/2d   F.conv1d/conv2d (zeros pad)  -> convolution
//   BatchNorm   F.batch_norm(training=False) -> _native_batch_norm_legit_no_training[0]
//               (native_batch_norm_decomposition, torch/_decomp/decompositions.py,
//               through batch_norm -> _batch_norm_impl_index -> native_batch_norm)
//   LayerNorm   F.layer_norm                 -> native_layer_norm[0]
//   GroupNorm   F.group_norm                 -> native_group_norm(x, w, b, N, C, HxW, groups, eps)[0]
//               (group_norm, aten/src/ATen/native/group_norm.cpp)
//   Embedding   F.embedding                  -> embedding(weight, input[, padding_idx])
//   Dropout     F.dropout(training=False)    -> the input itself
//   ReLU/SiLU/GELU/Tanh/Sigmoid/Softmax      -> relu/silu/gelu/tanh/sigmoid/_softmax
//   MaxPool2d   F.max_pool2d -> max_pool2d (CompositeImplicitAutograd,
//               aten/src/ATen/native/MaxPooling.cpp) -> max_pool2d_with_indices[0]
//   AvgPool2d   F.avg_pool2d                 -> avg_pool2d
//   AdaptiveAvgPool2d  adaptive_avg_pool2d (AdaptiveAveragePooling.cpp):
//               output 1x1 -> mean.dim(x, [-1, -2], True), else _adaptive_avg_pool2d
//   Flatten     input.flatten(start, end)    -> view;  Identity -> the input
// Arguments equal to a schema's trailing defaults are left out, as torch's
// dispatcher hands them to the tracer (max_pool2d_with_indices(x, [3, 3], [2, 2], [1, 1])).
#include <fmt/format.h>

#include "core/aot/lowering_util.h"
#include "core/aot/nn_module.h"
#include "core/fx/python_repr.h"

namespace airscope {
namespace {

LoweringResult ByRule(AtenBuilder& b, std::string_view key, std::vector<Argument> args, const TorchCall& call,
                      std::string* why) {
  const LoweringFn* rule = FindLowering(key);
  if (!rule) {
    *why = fmt::format("no rule for {}", key);
    return std::nullopt;
  }
  return (*rule)(b, TorchCall{key, std::move(args), {}, call.dynamo}, why);
}

Argument Tensor(const std::map<std::string, Argument>& tensors, const std::string& name) {
  auto it = tensors.find(name);
  return it == tensors.end() ? Argument::None() : it->second;
}

Argument Getitem0(AtenBuilder& b, Node* multi) {
  return Ref(b.Call("operator.getitem", {Ref(multi), Argument::Int(0)}));
}

// Drops trailing arguments equal to the schema's defaults (`defaults` are
// those of the last defaults.size() arguments).
std::vector<Argument> WithoutTrailingDefaults(std::vector<Argument> args, const std::vector<Argument>& defaults) {
  size_t first_default = args.size() - defaults.size();
  while (args.size() > first_default) {
    const Argument& fallback = defaults[args.size() - 1 - first_default];
    if (FormatPythonArg(args.back()) != FormatPythonArg(fallback)) break;
    args.pop_back();
  }
  return args;
}

LoweringResult Pool2d(AtenBuilder& b, const ModuleSpec& spec, const Argument& input, std::string* why) {
  std::vector<int64_t> kernel = spec.Ints("kernel_size", 2);
  // MaxPool2d/AvgPool2d: `self.stride = stride if (stride is not None) else kernel_size`.
  std::vector<int64_t> stride = spec.Field("stride").is_none() ? kernel : spec.Ints("stride", 2);
  std::vector<int64_t> padding = spec.Ints("padding", 2);
  if (spec.type == "MaxPool2d") {
    if (spec.Bool("return_indices")) {
      *why = "MaxPool2d(return_indices=True) returns a tuple; not modelled";
      return std::nullopt;
    }
    std::vector<Argument> args = {input,
                                  IntList(kernel),
                                  IntList(stride),
                                  IntList(padding),
                                  IntList(spec.Ints("dilation", 2)),
                                  spec.Field("ceil_mode")};
    // max_pool2d_with_indices(self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool
    // ceil_mode=False)
    args = WithoutTrailingDefaults(std::move(args), {IntList({0, 0}), IntList({1, 1}), Argument::Bool(false)});
    return Getitem0(b, b.Call("aten.max_pool2d_with_indices.default", std::move(args)));
  }
  std::vector<Argument> args = {input,
                                IntList(kernel),
                                IntList(stride),
                                IntList(padding),
                                spec.Field("ceil_mode"),
                                spec.Field("count_include_pad"),
                                spec.Field("divisor_override")};
  // avg_pool2d(self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, bool ceil_mode=False,
  //            bool count_include_pad=True, int? divisor_override=None)
  args = WithoutTrailingDefaults(std::move(args),
                                 {IntList({0, 0}), Argument::Bool(false), Argument::Bool(true), Argument::None()});
  return Ref(b.Call("aten.avg_pool2d.default", std::move(args)));
}

LoweringResult AdaptiveAvgPool2d(AtenBuilder& b, const ModuleSpec& spec, const Argument& input, std::string* why) {
  auto sizes = SizesOf(input);
  if (!sizes || sizes->size() < 2) {
    *why = "the input's sizes are unknown or symbolic";
    return std::nullopt;
  }
  const Argument& field = spec.Field("output_size");
  std::vector<int64_t> out;
  for (size_t i = 0; i < 2; ++i) {
    const Argument& item = field.is_sequence() ? field.items()[std::min<size_t>(i, field.items().size() - 1)] : field;
    // _list_with_default: a None entry keeps the input's size.
    out.push_back(item.is_none() ? (*sizes)[sizes->size() - 2 + i] : item.as_int());
  }
  if (out[0] == 1 && out[1] == 1) {
    return Ref(b.Call("aten.mean.dim", {input, IntList({-1, -2}), Argument::Bool(true)}));
  }
  return Ref(b.Call("aten._adaptive_avg_pool2d.default", {input, IntList(out)}));
}

}  // namespace

LoweringResult LowerModule(AtenBuilder& b, const ModuleSpec& spec, const std::map<std::string, Argument>& tensors,
                           const TorchCall& call, std::string* why) {
  const Argument* input = Self(call, why);
  if (!input) return std::nullopt;
  if (call.args.size() != 1 || !call.kwargs.empty()) {
    *why = fmt::format("{}.forward takes one tensor here", spec.type);
    return std::nullopt;
  }
  const std::string& t = spec.type;
  Argument weight = Tensor(tensors, "weight"), bias = Tensor(tensors, "bias");
  if (t == "Linear") return ByRule(b, "linear", {*input, weight, bias}, call, why);
  if (t == "Conv1d" || t == "Conv2d") {
    if (spec.Field("padding_mode").as_string() != "zeros") {
      *why = fmt::format("padding_mode='{}' (F.pad before the convolution) is not modelled",
                         spec.Field("padding_mode").as_string());
      return std::nullopt;
    }
    if (spec.Field("padding").kind() == Argument::Kind::kString) {
      *why = "a string padding ('same'/'valid') is not modelled";
      return std::nullopt;
    }
    size_t n = t == "Conv1d" ? 1 : 2;
    return ByRule(b, t == "Conv1d" ? "conv1d" : "conv2d",
                  {*input, weight, bias, IntList(spec.Ints("stride", n)), IntList(spec.Ints("padding", n)),
                   IntList(spec.Ints("dilation", n)), spec.Field("groups")},
                  call, why);
  }
  if (t == "BatchNorm1d" || t == "BatchNorm2d") {
    if (!spec.Bool("track_running_stats")) {
      *why = "without running stats batch norm normalizes by the batch's statistics even in eval; not modelled";
      return std::nullopt;
    }
    // exponential_average_factor = 0.0 if self.momentum is None else self.momentum
    const Argument& m = spec.Field("momentum");
    Argument momentum = m.is_none() ? Argument::Float(0.0)
                                    : Argument::Float(m.kind() == Argument::Kind::kInt ? static_cast<double>(m.as_int())
                                                                                       : m.as_float());
    Node* norm = b.Call("aten._native_batch_norm_legit_no_training.default",
                        {*input, weight, bias, Tensor(tensors, "running_mean"), Tensor(tensors, "running_var"),
                         momentum, spec.Field("eps")});
    return Getitem0(b, norm);
  }
  if (t == "LayerNorm") {
    return ByRule(
        b, "layer_norm",
        {*input,
         Argument::List({spec.Field("normalized_shape").items().begin(), spec.Field("normalized_shape").items().end()}),
         weight, bias, spec.Field("eps")},
        call, why);
  }
  if (t == "GroupNorm") {
    auto sizes = SizesOf(*input);
    if (!sizes || sizes->size() < 2) {
      *why = "the input's sizes are unknown or symbolic";
      return std::nullopt;
    }
    int64_t hxw = 1;
    for (size_t i = 2; i < sizes->size(); ++i) hxw *= (*sizes)[i];
    Node* norm = b.Call("aten.native_group_norm.default",
                        {*input, weight, bias, Argument::Int((*sizes)[0]), Argument::Int((*sizes)[1]),
                         Argument::Int(hxw), spec.Field("num_groups"), spec.Field("eps")});
    return Getitem0(b, norm);
  }
  if (t == "Embedding") {
    return ByRule(b, "embedding", {*input, weight, spec.Field("padding_idx"), spec.Field("max_norm")}, call, why);
  }
  if (t == "Dropout" || t == "Identity") return *input;  // F.dropout(training=False) returns its input
  if (t == "ReLU" || t == "SiLU")
    return ByRule(b, t == "ReLU" ? "relu" : "silu", {*input, spec.Field("inplace")}, call, why);
  if (t == "GELU") return ByRule(b, "gelu", {*input, spec.Field("approximate")}, call, why);
  if (t == "Tanh" || t == "Sigmoid") return ByRule(b, t == "Tanh" ? "tanh" : "sigmoid", {*input}, call, why);
  if (t == "Softmax") {
    if (spec.Field("dim").is_none()) {
      *why = "Softmax(dim=None) takes an implicit dim (deprecated); not modelled";
      return std::nullopt;
    }
    return ByRule(b, "softmax", {*input, spec.Field("dim")}, call, why);
  }
  if (t == "MaxPool2d" || t == "AvgPool2d") return Pool2d(b, spec, *input, why);
  if (t == "AdaptiveAvgPool2d") return AdaptiveAvgPool2d(b, spec, *input, why);
  if (t == "Flatten") return ByRule(b, "flatten", {*input, spec.Field("start_dim"), spec.Field("end_dim")}, call, why);
  *why = fmt::format("{} is not lowered", t);
  return std::nullopt;
}

}  // namespace airscope

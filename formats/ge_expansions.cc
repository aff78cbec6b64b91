// ExpandForGe: what TorchAir's converters build (ge_converter/aten/*.py at
// fced8842; raw operator builders in _ge_concrete_graph/
// auto_generated_ge_raw_ops.py). Lists and Python numbers reach GE as
// `Const` operators: dtype_promote(v, target_dtype=T) makes Const(v, T)
// (_ge_concrete_graph/utils.py:127-147), and a raw op's index input
// (TensorType.TT_INDEX_NUMBER) wraps a Python value as an int64 Const
// (ge/_ge_graph.py:1286-1291). A Const holds `value` (its bytes) and
// `_readable_value` = repr(v) (ge/_ge_graph.py:1537-1567).
#include "formats/ge_expansions.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <utility>

#include "core/fx/python_repr.h"
#include "core/ops/op_helpers.h"
#include "formats/ge_const.h"

namespace airscope {
namespace {

GeAttr BoolAttr(std::string key, bool value) {
  GeAttr attr;
  attr.key = std::move(key);
  attr.kind = GeAttr::Kind::kB;
  attr.b = value;
  return attr;
}
GeAttr IntAttr(std::string key, int64_t value) {
  GeAttr attr;
  attr.key = std::move(key);
  attr.kind = GeAttr::Kind::kI;
  attr.i = value;
  return attr;
}
// A ListInt attr as the raw op builders set it (`list.val_type = 2`, then the items).
GeAttr IntsAttr(std::string key, std::vector<int64_t> values) {
  GeAttr attr;
  attr.key = std::move(key);
  attr.kind = GeAttr::Kind::kListI;
  attr.list_i = std::move(values);
  attr.list_val_type = "VT_LIST_INT";
  return attr;
}
GeAttr StrAttr(std::string key, std::string value) {
  GeAttr attr;
  attr.key = std::move(key);
  attr.kind = GeAttr::Kind::kS;
  attr.s = std::move(value);
  return attr;
}
GeAttr FloatAttr(std::string key, double value) {
  GeAttr attr;
  attr.key = std::move(key);
  attr.kind = GeAttr::Kind::kF;
  attr.f = static_cast<float>(value);
  return attr;
}
// specific_op_input_layout / specific_op_output_layout (_ge_concrete_graph/utils.py:150-171):
// each index appended to list.i and the layout to list.s.
GeAttr LayoutAttr(std::string key, std::vector<int64_t> indices, const std::string& layout) {
  GeAttr attr;
  attr.key = std::move(key);
  attr.kind = GeAttr::Kind::kList;
  attr.list_s.assign(indices.size(), layout);
  attr.list_i = std::move(indices);
  return attr;
}

GeDesc Named(GeDesc desc, std::string name) {
  desc.name = std::move(name);
  return desc;
}

GeDesc UnfedOptional(std::string name) {
  GeDesc desc;
  desc.name = std::move(name);
  desc.unfed_optional = true;
  return desc;
}

// The desc of a value like the node's output (its dtype and shape).
GeDesc LikeOutput(const Node& node) {
  GeDesc desc;
  const TensorMeta* t = node.tensor();
  if (!t) return desc;
  desc.dtype = t->dtype;
  desc.has_shape = !t->sizes.empty();
  for (const Dim& d : t->sizes) desc.dims.push_back(d.is_static() ? d.value() : -1);
  desc.layout = "ND";
  return desc;
}

class Expander {
 public:
  Expander(const Node& node, const GeExpansionContext& context) : node_(node), context_(context) {}

  // A Const of a Python number (0-d) or an int list (1-d), as ge.Const makes it.
  GeInput Const(const Argument& value, DType dtype) {
    GeOp op;
    op.type = "Const";
    GeDesc desc;
    desc.dtype = dtype;
    desc.layout = "ND";
    std::string bytes;
    if (value.is_sequence()) {
      desc.has_shape = true;
      desc.dims.push_back(static_cast<int64_t>(value.items().size()));
      for (const Argument& item : value.items()) bytes += ScalarBytes(item, dtype).value_or("");
    } else {
      bytes = ScalarBytes(value, dtype).value_or("");
    }
    GeAttr tensor;
    tensor.key = "value";
    tensor.kind = GeAttr::Kind::kT;
    tensor.tensor_desc = desc;
    tensor.s = std::move(bytes);
    GeAttr readable;
    readable.key = "_readable_value";
    readable.s = FormatPythonArg(value);
    op.attrs.push_back(std::move(tensor));
    op.attrs.push_back(std::move(readable));
    op.output_desc.push_back(desc);
    return Add(std::move(op));
  }

  GeInput IntsConst(const std::vector<int64_t>& values, DType dtype) {
    std::vector<Argument> items;
    for (int64_t v : values) items.push_back(Argument::Int(v));
    return Const(Argument::List(std::move(items)), dtype);
  }

  // An operator of `type` over `inputs` (named as its builder names them).
  GeInput Op(std::string type, const std::vector<std::pair<std::string, std::optional<GeInput>>>& inputs,
             std::vector<GeAttr> attrs, std::vector<GeDesc> outputs) {
    GeOp op;
    op.type = std::move(type);
    for (auto& [name, input] : inputs) {
      if (input) {
        op.inputs.push_back(input->ref);
        op.input_desc.push_back(Named(input->desc, name));
      } else {
        op.inputs.push_back("");  // an absent optional input (get_invalid_desc)
        op.input_desc.push_back(UnfedOptional(name));
      }
    }
    op.attrs = std::move(attrs);
    op.output_desc = std::move(outputs);
    return Add(std::move(op));
  }

  GeInput Arg(size_t index) const {
    const Argument& arg = node_.args()[index];
    return context_.input_of(arg.as_node());
  }
  bool IsNodeArg(size_t index) const { return index < node_.args().size() && node_.args()[index].is_node(); }

  std::vector<GeOp> Take() { return std::move(ops_); }

 private:
  GeInput Add(GeOp op) {
    op.name = context_.unique_name(op.type);
    for (GeDesc& d : op.output_desc) {
      if (d.name.empty() && op.type != "Const") d.name = "y";
    }
    GeInput out{op.name + ":0", op.output_desc.empty() ? GeDesc{} : op.output_desc[0]};
    ops_.push_back(std::move(op));
    return out;
  }

  const Node& node_;
  const GeExpansionContext& context_;
  std::vector<GeOp> ops_;
};

std::optional<std::vector<int64_t>> StaticIntList(const Argument* arg) {
  if (!arg || !arg->is_sequence()) return std::nullopt;
  std::vector<int64_t> out;
  for (const Argument& item : arg->items()) {
    if (item.kind() != Argument::Kind::kInt) return std::nullopt;
    out.push_back(item.as_int());
  }
  return out;
}

std::optional<double> Number(const Argument* arg, double fallback) {
  if (!arg) return fallback;
  if (arg->kind() == Argument::Kind::kInt) return static_cast<double>(arg->as_int());
  if (arg->kind() == Argument::Kind::kFloat) return arg->as_float();
  return std::nullopt;
}

size_t Rank(const GeDesc& desc) { return desc.dims.size(); }

// addmm.py:42-78 (conveter_aten_addmm_default), get_addmm_output :20-26,
// is_need_to_convert_bias :4-17.
std::optional<std::vector<GeOp>> Addmm(const Node& node, Expander& e) {
  if (node.args().size() != 3 || !e.IsNodeArg(0) || !e.IsNodeArg(1) || !e.IsNodeArg(2)) return std::nullopt;
  const TensorMeta* out = node.tensor();
  if (!out) return std::nullopt;
  const Argument* alpha_arg = node.kwarg("alpha");
  const Argument* beta_arg = node.kwarg("beta");
  std::optional<double> alpha = Number(alpha_arg, 1), beta = Number(beta_arg, 1);
  if (!alpha || !beta) return std::nullopt;  // a tensor alpha/beta: not modelled
  GeInput self = e.Arg(0), mat1 = e.Arg(1), mat2 = e.Arg(2);
  for (const GeInput* in : {&self, &mat1, &mat2}) {
    if (in->desc.dtype != out->dtype) return std::nullopt;  // dtype_promote's Casts: not modelled
  }
  // alpha, beta = dtype_promote(alpha, beta, target_dtype=meta_outputs.dtype): two Consts.
  GeInput alpha_c = e.Const(alpha_arg ? *alpha_arg : Argument::Int(1), out->dtype);
  GeInput beta_c = e.Const(beta_arg ? *beta_arg : Argument::Int(1), out->dtype);
  GeDesc y = LikeOutput(node);
  y.name = "y";
  auto mul = [&](const GeInput& a, const GeInput& b, GeDesc desc) {
    return e.Op("Mul", {{"x1", a}, {"x2", b}}, {}, {std::move(desc)});
  };
  if (*alpha == 0) {
    mul(self, beta_c, y);
    return e.Take();
  }
  bool half = self.desc.dtype == DType::kFloat16 || self.desc.dtype == DType::kBFloat16;
  bool bias = half && (Rank(self.desc) == 1 || (Rank(self.desc) == 2 && self.desc.dims[0] == 1 &&
                                                Rank(mat2.desc) == 2 && self.desc.dims[1] == mat2.desc.dims[1]));
  auto matmul_attrs = [] {
    return std::vector<GeAttr>{BoolAttr("transpose_x1", false), BoolAttr("transpose_x2", false),
                               IntAttr("offset_x", 0)};
  };
  if (bias) {
    if (*beta != 1) self = mul(self, beta_c, self.desc);
    if (*alpha != 1) mat1 = mul(mat1, alpha_c, mat1.desc);
    e.Op("MatMulV2", {{"x1", mat1}, {"x2", mat2}, {"bias", self}, {"offset_w", std::nullopt}}, matmul_attrs(), {y});
    return e.Take();
  }
  GeInput mm = e.Op("MatMulV2", {{"x1", mat1}, {"x2", mat2}, {"bias", std::nullopt}, {"offset_w", std::nullopt}},
                    matmul_attrs(), {y});
  GeInput scaled = mul(mm, alpha_c, y);  // "fp32 dtype need to reserve this Mul"
  if (*beta == 0) return e.Take();
  if (*beta == 1) {
    e.Op("Add", {{"x1", scaled}, {"x2", self}}, {}, {y});
  } else {
    e.Op("AxpyV2", {{"x1", scaled}, {"x2", self}, {"alpha", beta_c}}, {}, {y});
  }
  return e.Take();
}

// convolution.py:182-231 for a non-transposed 2-D (4-D output) or 1-D
// (3-D output: Unsqueeze x and weight at 2, Conv2D, Squeeze 2) convolution:
// _npu_conv2d (:16-24) = Conv2D(x, weight, bias, None, strides=[1, 1, s0, s1],
// pads=[p0, p0, p1, p1], dilations=[1, 1, d0, d1], groups, data_format="NCHW")
// with its NCHW layout attrs.
std::optional<std::vector<GeOp>> Convolution(const Node& node, Expander& e) {
  if (node.args().size() != 9 || !e.IsNodeArg(0) || !e.IsNodeArg(1)) return std::nullopt;
  const TensorMeta* out = node.tensor();
  auto stride = StaticIntList(&node.args()[3]);
  auto padding = StaticIntList(&node.args()[4]);
  auto dilation = StaticIntList(&node.args()[5]);
  const Argument& transposed = node.args()[6];
  const Argument& groups = node.args()[8];
  if (!out || !stride || !padding || !dilation || transposed.kind() != Argument::Kind::kBool || transposed.as_bool() ||
      groups.kind() != Argument::Kind::kInt) {
    return std::nullopt;  // transposed and 3-D convolutions build shape helpers: not modelled
  }
  size_t rank = out->sizes.size();
  if (rank != 3 && rank != 4) return std::nullopt;
  GeInput x = e.Arg(0), weight = e.Arg(1);
  std::optional<GeInput> bias;
  if (e.IsNodeArg(2)) bias = e.Arg(2);
  for (const GeInput* in : {&x, &weight}) {
    if (in->desc.dtype != out->dtype) return std::nullopt;  // dtype_promote's Casts: not modelled
  }
  if (bias && bias->desc.dtype != out->dtype) return std::nullopt;
  if (padding->size() == 1) padding->assign(3, (*padding)[0]);
  if (rank == 3) {
    stride->insert(stride->begin(), 1);
    padding->insert(padding->begin(), 0);
    dilation->insert(dilation->begin(), 1);
    auto unsqueezed = [](GeDesc desc) {
      if (desc.dims.size() >= 2) desc.dims.insert(desc.dims.begin() + 2, 1);
      return desc;
    };
    x = e.Op("Unsqueeze", {{"x", x}}, {IntsAttr("axes", {2})}, {unsqueezed(x.desc)});
    weight = e.Op("Unsqueeze", {{"x", weight}}, {IntsAttr("axes", {2})}, {unsqueezed(weight.desc)});
  }
  if (stride->size() < 2 || padding->size() < 2 || dilation->size() < 2) return std::nullopt;
  GeDesc y = LikeOutput(node);
  y.name = "y";
  GeDesc conv_y = y;
  if (rank == 3) conv_y.dims.insert(conv_y.dims.begin() + 2, 1);
  std::vector<int64_t> in_layout = bias ? std::vector<int64_t>{0, 1, 2} : std::vector<int64_t>{0, 1};
  GeInput conv =
      e.Op("Conv2D", {{"x", x}, {"filter", weight}, {"bias", bias}, {"offset_w", std::nullopt}},
           {IntsAttr("strides", {1, 1, (*stride)[0], (*stride)[1]}),
            IntsAttr("pads", {(*padding)[0], (*padding)[0], (*padding)[1], (*padding)[1]}),
            IntsAttr("dilations", {1, 1, (*dilation)[0], (*dilation)[1]}), IntAttr("groups", groups.as_int()),
            StrAttr("data_format", "NCHW"), IntAttr("offset_x", 0), LayoutAttr("input_layout_info", in_layout, "NCHW"),
            LayoutAttr("output_layout_info", {0}, "NCHW")},
           {conv_y});
  if (rank == 3) e.Op("Squeeze", {{"x", conv}}, {IntsAttr("axis", {2})}, {y});
  return e.Take();
}

// native_layer_norm.py:4-38: a None weight/bias is _fill_if_none'd to
// Fill(Const(normalized_shape, int32), Const(1. / 0., input dtype)); then
// LayerNormV4(input, normalized_shape, gamma, beta, epsilon), whose
// normalized_shape list becomes an int64 Const (no int tensor input to
// promote it with: ge/_ge_graph.py _auto_type_promotion_for_const).
std::optional<std::vector<GeOp>> LayerNorm(const Node& node, Expander& e) {
  if (node.args().size() != 5 || !e.IsNodeArg(0)) return std::nullopt;
  auto shape = StaticIntList(&node.args()[1]);
  const Argument& eps = node.args()[4];
  if (!shape || (eps.kind() != Argument::Kind::kFloat && eps.kind() != Argument::Kind::kInt)) return std::nullopt;
  GeInput x = e.Arg(0);
  auto fill_if_none = [&](size_t index, double value) -> GeInput {
    if (e.IsNodeArg(index)) return e.Arg(index);
    GeInput dims = e.IntsConst(*shape, DType::kInt32);
    GeInput fill_value = e.Const(Argument::Float(value), x.desc.dtype);
    GeDesc filled;
    filled.dtype = x.desc.dtype;
    filled.has_shape = !shape->empty();
    filled.dims = *shape;
    filled.layout = "ND";
    return e.Op("Fill", {{"dims", dims}, {"value", fill_value}}, {}, {filled});
  };
  GeInput gamma = fill_if_none(2, 1.0);
  GeInput beta = fill_if_none(3, 0.0);
  GeInput normalized = e.IntsConst(*shape, DType::kInt64);
  double epsilon = eps.kind() == Argument::Kind::kFloat ? eps.as_float() : static_cast<double>(eps.as_int());
  GeDesc y, mean, rstd;
  y.name = "y";
  mean.name = "mean";
  rstd.name = "rstd";
  e.Op("LayerNormV4", {{"x", x}, {"normalized_shape", normalized}, {"gamma", gamma}, {"beta", beta}},
       {FloatAttr("epsilon", epsilon)}, {y, mean, rstd});
  return e.Take();
}

}  // namespace

std::optional<std::vector<GeOp>> ExpandForGe(const Node& node, const GeExpansionContext& context) {
  if (node.op() != OpKind::kCallFunction || node.args().empty()) return std::nullopt;
  // Every expansion but cat's takes a tensor first.
  if (!node.args()[0].is_node() && node.target() != "torch.ops.aten.cat.default") return std::nullopt;
  std::string_view target = node.target();
  if (target.starts_with("torch.ops.")) target.remove_prefix(10);
  Expander e(node, context);
  GeDesc y = LikeOutput(node);
  y.name = "y";
  const TensorMeta* out = node.tensor();
  if (target == "aten.addmm.default") return Addmm(node, e);
  if (target == "aten.convolution.default") return Convolution(node, e);
  if (target == "aten.native_layer_norm.default") return LayerNorm(node, e);
  if (target == "aten.view.default" || target == "aten.reshape.default" || target == "aten._unsafe_view.default") {
    // view.py:11-21: size = dtype_promote(size, DT_INT64); ge.Reshape(self, size)
    // (reshape.default and _unsafe_view take the same converter body).
    auto size = StaticIntList(node.args().size() > 1 ? &node.args()[1] : nullptr);
    if (!size) return std::nullopt;
    GeInput x = e.Arg(0);
    GeInput shape = e.IntsConst(*size, DType::kInt64);
    e.Op("Reshape", {{"x", x}, {"shape", shape}}, {IntAttr("axis", 0), IntAttr("num_axes", -1)}, {y});
    return e.Take();
  }
  if (target == "aten.t.default") {
    // t.py:10-20: rank < 2 -> Identity; rank 2 -> Transpose(self, Const([1, 0], int64)).
    GeInput x = e.Arg(0);
    if (Rank(x.desc) < 2) {
      e.Op("Identity", {{"x", x}}, {}, {y});
    } else {
      GeInput perm = e.IntsConst({1, 0}, DType::kInt64);
      e.Op("Transpose", {{"x", x}, {"perm", perm}}, {}, {y});
    }
    return e.Take();
  }
  if (target == "aten.permute.default") {
    // permute.py:17-39: when only size-1 dims move, Squeeze + Unsqueeze; else
    // Transpose(self, Const(dims, int64)).
    auto dims = StaticIntList(node.args().size() > 1 ? &node.args()[1] : nullptr);
    GeInput x = e.Arg(0);
    if (!dims || !out || x.desc.dims.size() != dims->size()) return std::nullopt;
    int64_t rank = static_cast<int64_t>(dims->size());
    std::vector<int64_t> self_non1, size1, meta_non1, unsqueeze;
    for (int64_t& d : *dims) d = d < 0 ? d + rank : d;
    for (int64_t i = 0; i < rank; ++i) (x.desc.dims[i] != 1 ? self_non1 : size1).push_back(i);
    for (int64_t d : *dims) {
      if (std::find(size1.begin(), size1.end(), d) == size1.end()) meta_non1.push_back(d);
    }
    for (size_t i = 0; i < out->sizes.size(); ++i) {
      if (out->sizes[i].is_static() && out->sizes[i].value() == 1) unsqueeze.push_back(static_cast<int64_t>(i));
    }
    if (self_non1 == meta_non1) {
      GeDesc squeezed = y;
      squeezed.dims.clear();
      for (int64_t i : self_non1) squeezed.dims.push_back(x.desc.dims[i]);
      squeezed.has_shape = !squeezed.dims.empty();
      GeInput s = e.Op("Squeeze", {{"x", x}}, {IntsAttr("axis", {})}, {squeezed});
      e.Op("Unsqueeze", {{"x", s}}, {IntsAttr("axes", unsqueeze)}, {y});
    } else {
      GeInput perm = e.IntsConst(*dims, DType::kInt64);
      e.Op("Transpose", {{"x", x}, {"perm", perm}}, {}, {y});
    }
    return e.Take();
  }
  if (target == "aten.expand.default") {
    // expand.py:12-29: the same sizes return self (no operator: not expanded
    // here); else BroadcastTo(self, size) with the size an int64 Const (TT_INDEX_NUMBER).
    auto size = StaticIntList(node.args().size() > 1 ? &node.args()[1] : nullptr);
    GeInput x = e.Arg(0);
    if (!size || x.desc.dims == y.dims) return std::nullopt;
    GeInput shape = e.IntsConst(*size, DType::kInt64);
    e.Op("BroadcastTo", {{"x", x}, {"shape", shape}}, {}, {y});
    return e.Take();
  }
  if (target == "aten._softmax.default") {
    // _softmax.py:8-17: ge.SoftmaxV2(self, axes=[dim], half_to_float=half_to_float).
    if (node.args().size() < 3 || node.args()[1].kind() != Argument::Kind::kInt ||
        node.args()[2].kind() != Argument::Kind::kBool) {
      return std::nullopt;
    }
    e.Op("SoftmaxV2", {{"x", e.Arg(0)}},
         {IntsAttr("axes", {node.args()[1].as_int()}), BoolAttr("half_to_float", node.args()[2].as_bool())}, {y});
    return e.Take();
  }
  if (target == "aten.gelu.default") {
    // gelu.py:8-13: ge.Gelu(self), whatever `approximate` says.
    e.Op("Gelu", {{"x", e.Arg(0)}}, {}, {y});
    return e.Take();
  }
  if (target == "aten.sum.dim_IntList" || target == "aten.mean.dim") {
    // sum.py:40-57: ReduceSum(self, dim, keep_dims=keepdim), all dims when dim
    // is None or []; mean.py:28-45: ReduceMean(self, dim_vec, keep_dims=keepdim)
    // (noop_with_empty_axes keeps its default True). The axes: an int64 Const.
    if (!out || node.kwarg("dtype") != nullptr) return std::nullopt;
    GeInput x = e.Arg(0);
    if (x.desc.dtype != out->dtype) return std::nullopt;  // dtype_promote's Cast: not modelled
    std::vector<int64_t> dims;
    const Argument* dim = node.args().size() > 1 ? &node.args()[1] : nullptr;
    if (dim && dim->is_sequence() && !dim->items().empty()) {
      auto list = StaticIntList(dim);
      if (!list) return std::nullopt;
      dims = *list;
    } else {
      for (size_t i = 0; i < x.desc.dims.size(); ++i) dims.push_back(static_cast<int64_t>(i));
    }
    bool keepdim = node.args().size() > 2 && node.args()[2].kind() == Argument::Kind::kBool && node.args()[2].as_bool();
    GeInput axes = e.IntsConst(dims, DType::kInt64);
    bool sum = target == "aten.sum.dim_IntList";
    std::vector<GeAttr> attrs = {BoolAttr("keep_dims", keepdim)};
    if (!sum) attrs.push_back(BoolAttr("noop_with_empty_axes", true));
    e.Op(sum ? "ReduceSum" : "ReduceMean", {{"x", x}, {"axes", axes}}, std::move(attrs), {y});
    return e.Take();
  }
  if (target == "aten.cat.default") {
    // cat.py:11-17: each input dtype_promote'd to the output dtype (a Cast when
    // it differs: not modelled), ge.ConcatV2(tensors, concat_dim=dim, N=len):
    // the dim an int64 Const (TT_INDEX_NUMBER), inputs x0..x{N-1}.
    if (!out || !node.args()[0].is_sequence()) return std::nullopt;
    int64_t dim = node.args().size() > 1 && node.args()[1].kind() == Argument::Kind::kInt ? node.args()[1].as_int() : 0;
    std::vector<std::pair<std::string, std::optional<GeInput>>> inputs;
    size_t i = 0;
    for (const Argument& t : node.args()[0].items()) {
      if (!t.is_node()) return std::nullopt;
      GeInput in = context.input_of(t.as_node());
      if (in.desc.dtype != out->dtype) return std::nullopt;
      inputs.push_back({fmt::format("x{}", i++), in});
    }
    inputs.push_back({"concat_dim", e.Const(Argument::Int(dim), DType::kInt64)});
    e.Op("ConcatV2", inputs, {IntAttr("N", static_cast<int64_t>(i))}, {y});
    return e.Take();
  }
  if (target == "aten.split_with_sizes.default") {
    // split_with_sizes.py:8-21: sizes an int64 Const, dim an int32 Const,
    // SplitV(self, sizes, dim, num_split=len(outputs)) (dynamic_output_ops.py SplitV).
    auto sizes = StaticIntList(node.args().size() > 1 ? &node.args()[1] : nullptr);
    const NodeMeta* meta = node.meta();
    if (!sizes || !meta || meta->kind != ValueKind::kTuple) return std::nullopt;
    int64_t dim = node.args().size() > 2 && node.args()[2].kind() == Argument::Kind::kInt ? node.args()[2].as_int() : 0;
    GeInput x = e.Arg(0);
    GeInput size_splits = e.IntsConst(*sizes, DType::kInt64);
    GeInput split_dim = e.Const(Argument::Int(dim), DType::kInt32);
    std::vector<GeDesc> outputs;
    for (size_t k = 0; k < meta->tensors.size(); ++k) outputs.push_back(GeDesc{});  // the caller's descs replace these
    e.Op("SplitV", {{"x", x}, {"size_splits", size_splits}, {"split_dim", split_dim}},
         {IntAttr("num_split", static_cast<int64_t>(meta->tensors.size()))}, std::move(outputs));
    return e.Take();
  }
  if (target == "aten.embedding.default") {
    // embedding.py:4-23: ge.GatherV2(weight, indices, [0]); the axis an int64
    // Const (TT_INDEX_NUMBER); padding_idx is not passed on.
    if (node.args().size() < 2 || !e.IsNodeArg(1)) return std::nullopt;
    GeInput weight = e.Arg(0), indices = e.Arg(1);
    GeInput axis = e.IntsConst({0}, DType::kInt64);
    e.Op("GatherV2", {{"x", weight}, {"indices", indices}, {"axis", axis}},
         {IntAttr("batch_dims", 0), BoolAttr("is_preprocessed", false), BoolAttr("negative_index_support", false)},
         {y});
    return e.Take();
  }
  return std::nullopt;
}

}  // namespace airscope

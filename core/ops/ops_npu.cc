// torch_npu ops (namespace npu) that TorchAir's passes name: the scatter ops
// recover_view_inplace_pattern turns into their in-place forms
// (patterns/_recover_view_inplace_pattern.py:27-48), each returning a tensor
// shaped like its first argument (`self`), the `_` forms writing it in place;
// and the ops apply_pattern_passes matches and emits (patterns/add_rms_norm_*.py,
// batch_matmul_transpose.py). Shapes and dtypes are those of torch_npu's meta
// functions (op-plugin op_plugin/python/meta/_meta_registrations.py, cited per
// op as meta:LINE) for the schemas in op_plugin/config/op_plugin_functions.yaml
// (yaml:LINE). Their cost is bytes read and written (no FLOPs: not modelled).
#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

// self's meta as it is, strides included (InferLikeSelf states none).
Result<NodeMeta> InferSelfUnchanged(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(const TensorMeta* self, TensorArg(node, 0, "self"));
  return TensorResult(*self);
}

// TORCH_DTYPE_ENUM_VALUE_TO_SCALAR_TYPE_MAP (meta:35-61) for the dtypes
// airscope has; nullopt for the others (quantized and bit types).
std::optional<DType> DTypeOfEnum(int64_t value) {
  switch (value) {
    case 0:
    case 285:
    case 290:
    case 296:
    case 297: return DType::kUInt8;
    case 1: return DType::kInt8;
    case 2: return DType::kInt16;
    case 3: return DType::kInt32;
    case 4: return DType::kInt64;
    case 5: return DType::kFloat16;
    case 6: return DType::kFloat32;
    case 7: return DType::kFloat64;
    case 11: return DType::kBool;
    case 15: return DType::kBFloat16;
    case 23:
    case 291: return DType::kFloat8E5M2;
    case 24:
    case 292: return DType::kFloat8E4M3Fn;
    default: return std::nullopt;
  }
}

// npu_add_rms_norm's rstd: x1's leading dims (those gamma does not cover), then 1s (meta:2832-2842).
std::vector<Dim> RstdSizes(const TensorMeta& x1, const TensorMeta& gamma) {
  size_t keep = x1.sizes.size() > gamma.sizes.size() ? x1.sizes.size() - gamma.sizes.size() : 0;
  std::vector<Dim> sizes;
  for (size_t i = 0; i < x1.sizes.size(); ++i) sizes.push_back(i < keep ? x1.sizes[i] : Dim(1));
  return sizes;
}

// npu_add_rms_norm(x1, x2, gamma, epsilon=1e-06) -> (y, rstd, x) (yaml:5805, meta:2832-2842).
Result<NodeMeta> InferAddRmsNorm(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto x1, TensorArg(node, 0, "x1"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto gamma, TensorArg(node, 2, "gamma"));
  const TensorMeta& x = *x1;
  return TupleResult({Like(x, x.sizes), Like(x, RstdSizes(x, *gamma), DType::kFloat32), Like(x, x.sizes)});
}

// npu_add_rms_norm_cast(x1, x2, gamma, epsilon=1e-06) -> (y float32, y, rstd, x) (yaml:5836, meta:2971-2981).
Result<NodeMeta> InferAddRmsNormCast(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto x1, TensorArg(node, 0, "x1"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto gamma, TensorArg(node, 2, "gamma"));
  const TensorMeta& x = *x1;
  return TupleResult({Like(x, x.sizes, DType::kFloat32), Like(x, x.sizes),
                      Like(x, RstdSizes(x, *gamma), DType::kFloat32), Like(x, x.sizes)});
}

// npu_add_rms_norm_dynamic_quant(x1, x2, gamma, *, smooth_scale1=None, smooth_scale2=None, beta=None,
// epsilon=1e-6, output_mask=None, y_dtype=None) -> (y1, y2, x, scale1, scale2) (yaml:6719, meta:2984-3030):
// an output the mask leaves out is an empty [0]; y int8 unless y_dtype says otherwise.
Result<NodeMeta> InferAddRmsNormDynamicQuant(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto x1, TensorArg(node, 0, "x1"));
  const TensorMeta& x = *x1;
  bool out_y1 = true, out_y2 = false;
  const Argument* mask = node.kwarg("output_mask");
  if (!mask || mask->is_none()) {
    const Argument* s1 = node.kwarg("smooth_scale1");
    const Argument* s2 = node.kwarg("smooth_scale2");
    out_y2 = s1 && !s1->is_none() && s2 && !s2->is_none();
  } else {
    if (!mask->is_sequence() || mask->items().size() != 2 || mask->items()[0].kind() != Argument::Kind::kBool ||
        mask->items()[1].kind() != Argument::Kind::kBool) {
      return OpError(node, "output_mask must be two bools");
    }
    out_y1 = mask->items()[0].as_bool();
    out_y2 = mask->items()[1].as_bool();
    if (!out_y1 && !out_y2) {
      return OpError(node, "When the output_mask is not empty, at least one of y1 and y2 must be output.");
    }
  }
  std::vector<Dim> y_sizes = x.sizes;
  DType y_dtype = DType::kInt8;
  AIRSCOPE_ASSIGN_OR_RETURN(auto y_enum, OptionalIntArg(node, 99, "y_dtype"));
  if (y_enum) {
    int64_t e = *y_enum;
    if (e == 285 || e == 16) {  // torch_npu.int4 / quint4x2: int32 packing 8 values
      if (y_sizes.empty() || !y_sizes.back().is_static()) return OpError(node, "y_dtype int4 needs a static last dim");
      y_sizes.back() = Dim(y_sizes.back().value() / 8);
      y_dtype = DType::kInt32;
    } else if (std::optional<DType> d = DTypeOfEnum(e)) {
      y_dtype = *d;
    } else {
      return OpError(node, "y_dtype {} is not a dtype airscope models", e);
    }
  }
  std::vector<Dim> scale_sizes(x.sizes.begin(), x.sizes.empty() ? x.sizes.end() : x.sizes.end() - 1);
  std::vector<Dim> none = {Dim(0)};
  return TupleResult({Like(x, out_y1 ? y_sizes : none, y_dtype), Like(x, out_y2 ? y_sizes : none, y_dtype),
                      Like(x, x.sizes), Like(x, out_y1 ? scale_sizes : none, DType::kFloat32),
                      Like(x, out_y2 ? scale_sizes : none, DType::kFloat32)});
}

// npu_dynamic_quant(input, *, smooth_scales=None, group_index=None, dst_type=None, quant_mode="pertoken",
// dst_type_max=0.0) -> (y, scale) (yaml:6128, meta:5202-5236): scale drops the last dim ("pertoken"),
// keeps it in place of the one before ("perchannel"), or is [1] ("pertensor").
Result<NodeMeta> InferDynamicQuant(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto in, TensorArg(node, 0, "input"));
  const TensorMeta& x = *in;
  size_t rank = x.sizes.size();
  if (rank < 1) return OpError(node, "input must have rank >= 1");
  std::string mode = "pertoken";
  if (const Argument* m = node.kwarg("quant_mode"); m && m->kind() == Argument::Kind::kString) mode = m->as_string();
  std::vector<Dim> scale(x.sizes.begin(), x.sizes.begin() + (rank >= 2 ? rank - 2 : 0));
  if (rank >= 2) scale.push_back(mode == "perchannel" ? x.sizes[rank - 1] : x.sizes[rank - 2]);
  std::vector<Dim> scale_sizes = mode == "pertensor" ? std::vector<Dim>{Dim(1)} : scale;
  AIRSCOPE_ASSIGN_OR_RETURN(auto dst, OptionalIntArg(node, 99, "dst_type"));
  int64_t e = dst.value_or(1);
  std::vector<Dim> y_sizes = x.sizes;
  DType y_dtype = DType::kInt8;
  if (e == 16) {  // quint4x2
    if (!x.sizes.back().is_static()) return OpError(node, "dst_type quint4x2 needs a static last dim");
    y_sizes = scale;
    y_sizes.push_back(Dim(x.sizes.back().value() / 8));
    y_dtype = DType::kInt32;
  } else if (e == 290) {
    y_dtype = DType::kUInt8;
  } else if (e == 23 || e == 291) {
    y_dtype = DType::kFloat8E5M2;
  } else if (e == 24 || e == 292) {
    y_dtype = DType::kFloat8E4M3Fn;
  }
  return TupleResult({Like(x, y_sizes, y_dtype), Like(x, scale_sizes, DType::kFloat32)});
}

// npu_quantize(self, scales, zero_points, int dtype, axis=1, div_mode=True) (yaml:6827, meta:5155-5180).
Result<NodeMeta> InferQuantize(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, IntArg(node, 3, "dtype"));
  const TensorMeta& x = *self;
  switch (dtype) {
    case 0:
    case 13:
    case 290: return TensorResult(Like(x, x.sizes, DType::kUInt8));  // 290 maps to uint8 first
    case 3:
    case 14: return TensorResult(Like(x, x.sizes, DType::kInt32));
    case 24:
    case 292: return TensorResult(Like(x, x.sizes, DType::kFloat8E4M3Fn));
    case 23:
    case 291: return TensorResult(Like(x, x.sizes, DType::kFloat8E5M2));
    case 16: {
      if (x.sizes.empty() || !x.sizes.back().is_static() || x.sizes.back().value() % 8) {
        return OpError(node, "If dtype is quint4x2, the last dim of input must be divided by 8");
      }
      std::vector<Dim> sizes = x.sizes;
      sizes.back() = Dim(sizes.back().value() / 8);
      return TensorResult(Like(x, sizes, DType::kInt32));
    }
    default: return TensorResult(Like(x, x.sizes, DType::kInt8));
  }
}

// npu_add_rms_norm_quant(x1, x2, gamma, scales1, zero_points1, beta=None, scales2=None, zero_points2=None, *,
// axis=-1, epsilon=1e-06, div_mode=True, dst_type=None) -> (y1, y2, x) (yaml:5853, meta:6297-6308).
Result<NodeMeta> InferAddRmsNormQuant(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto x1, TensorArg(node, 0, "x1"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto axis, IntArg(node, 99, "axis", -1));
  if (axis != -1) return OpError(node, "axis should be -1, but got {}.", axis);
  AIRSCOPE_ASSIGN_OR_RETURN(auto dst, OptionalIntArg(node, 99, "dst_type"));
  DType y = DTypeOfEnum(dst.value_or(1)).value_or(DType::kInt8);
  const TensorMeta& x = *x1;
  return TupleResult({Like(x, x.sizes, y), Like(x, x.sizes, y), Like(x, x.sizes)});
}

// _npu_dtype_cast(self, ScalarType dtype): self.new_empty(self.shape, dtype=dtype) (yaml:6111, meta:2675-2677).
Result<NodeMeta> InferNpuDtypeCast(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 1, "dtype"));
  if (!dtype) return OpError(node, "dtype is required");
  return TensorResult(Like(*self, self->sizes, *dtype));
}

// npu_transpose_batchmatmul(input, weight, *, bias=None, scale=None, perm_x1=None, perm_x2=None, perm_y=None,
// batch_split_factor=1) (yaml:7098, meta:5045-5099): (M, batchM, N) by perm_x1/perm_x2, int8 [M, 1, batchM*N]
// with a scale.
Result<NodeMeta> InferTransposeBatchMatmul(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto in, TensorArg(node, 0, "input"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto w, TensorArg(node, 1, "weight"));
  auto perm_x1 = IntListArg(node, 99, "perm_x1", std::vector<int64_t>{0, 1, 2});
  if (!perm_x1.ok()) return perm_x1.status();
  auto perm_x2 = IntListArg(node, 99, "perm_x2", std::vector<int64_t>{0, 1, 2});
  if (!perm_x2.ok()) return perm_x2.status();
  const TensorMeta& x = *in;
  const TensorMeta& y = *w;
  auto index_of = [](const std::vector<int64_t>& perm, int64_t v) -> int64_t {
    for (size_t i = 0; i < perm.size(); ++i) {
      if (perm[i] == v) return static_cast<int64_t>(i);
    }
    return -1;
  };
  int64_t m = index_of(*perm_x1, 1), b = index_of(*perm_x1, 0), n = index_of(*perm_x2, 2);
  if (x.sizes.size() != 3 || y.sizes.size() != 3 || m < 0 || b < 0 || n < 0) {
    return OpError(node, "input and weight must be 3-D with perms of 0, 1, 2");
  }
  const Argument* scale = node.kwarg("scale");
  AIRSCOPE_ASSIGN_OR_RETURN(auto split, IntArg(node, 99, "batch_split_factor", 1));
  if ((scale && !scale->is_none()) || split > 1) {
    return OpError(node, "scale and batch_split_factor are not modelled");
  }
  return TensorResult(Like(x, {x.sizes[m], x.sizes[b], y.sizes[n]}));
}

// A batched matmul: 2 * K FLOPs per output element (K = input's last dim), plus the bytes moved.
CostFn TransposeBatchMatmulCost() {
  return [](const Node& node) -> std::optional<OpCost> {
    auto read = InputBytes(node);
    auto written = OutputBytes(node);
    auto out = OutputElements(node);
    const TensorMeta* x =
        node.args().empty() || !node.args()[0].is_node() ? nullptr : node.args()[0].as_node()->tensor();
    if (!read || !written || !out || !x || x->sizes.empty() || !x->sizes.back().is_static()) return std::nullopt;
    return OpCost{2.0 * static_cast<double>(x->sizes.back().value()) * *out, *read, *written};
  };
}

}  // namespace

void RegisterNpuOps(OpRegistry& r) {
  for (const char* name :
       {"npu.scatter_update.default", "npu.npu_scatter_nd_update.default", "npu.npu_quant_scatter.default"}) {
    AddOp(r, name, OpCategory::kOther, InferSelfUnchanged, CopyCost());
  }
  for (const char* name :
       {"npu.scatter_update_.default", "npu.npu_scatter_nd_update_.default", "npu.npu_quant_scatter_.default"}) {
    AddOp(r, name, OpCategory::kOther, InferSelfUnchanged, CopyCost(), /*inplace=*/true);
  }
  AddOp(r, "npu.npu_add_rms_norm.default", OpCategory::kNormalization, InferAddRmsNorm, CopyCost());
  AddOp(r, "npu.npu_add_rms_norm_cast.default", OpCategory::kNormalization, InferAddRmsNormCast, CopyCost());
  AddOp(r, "npu.npu_add_rms_norm_dynamic_quant.default", OpCategory::kNormalization, InferAddRmsNormDynamicQuant,
        CopyCost());
  AddOp(r, "npu.npu_add_rms_norm_quant.default", OpCategory::kNormalization, InferAddRmsNormQuant, CopyCost());
  AddOp(r, "npu.npu_dynamic_quant.default", OpCategory::kOther, InferDynamicQuant, CopyCost());
  AddOp(r, "npu.npu_quantize.default", OpCategory::kOther, InferQuantize, CopyCost());
  AddOp(r, "npu._npu_dtype_cast.default", OpCategory::kCopy, InferNpuDtypeCast, CopyCost());
  AddOp(r, "npu.npu_transpose_batchmatmul.default", OpCategory::kMatmul, InferTransposeBatchMatmul,
        TransposeBatchMatmulCost());
}

}  // namespace airscope

// The table of inplace_variants.h. Each pair is what PT-ri
// _maybe_get_inplace_op returns for the out-of-place overload: the one
// overload of `foo_` whose argument types equal foo's (_schemas_match), from
// the `- func:` schemas of torch's aten/src/ATen/native/native_functions.yaml
// (torch 2.9 line), counting the functional ops torchgen generates from an
// in-place op's `autogen:` (zero_ -> zero, resize_ -> resize, random_ ->
// random, ...: the in-place schema without the write annotation). Left out:
//   - view ops (first argument `Tensor(a)`): _maybe_get_inplace_op refuses
//     them (as_strided_, t_, transpose_, squeeze_, unsqueeze_, detach_, ...);
//   - ops whose in-place packet writes more than self (rrelu_with_noise_,
//     _amp_update_scale_, _fused_adam_, ...): _schemas_match asserts the
//     in-place schema writes its first argument only, so torch raises there
//     and TorchAir skips the whole pass (gp:546-556);
//   - ops whose first argument is a Tensor[] (_foreach_*): TorchAir only
//     looks up ops whose first argument is a Tensor (gp:1079-1083);
//   - out-of-place ops with no `foo_` packet (rsub, maximum, minimum, where,
//     clone, mm, bmm, sum, cat, native_dropout, the *_backward ops, ...) or
//     none with matching types (pow.Scalar).
// The torch_npu rows are op-plugin's op_plugin_functions.yaml schemas.
#include "core/ops/inplace_variants.h"

#include <algorithm>

#include "core/ops/dim_math.h"
#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {

const std::vector<std::pair<std::string_view, std::string_view>>& InplaceVariants() {
  static const std::vector<std::pair<std::string_view, std::string_view>> table = [] {
    std::vector<std::pair<std::string_view, std::string_view>> t = {
        {"aten._add_relu.Scalar", "aten._add_relu_.Scalar"},
        {"aten._add_relu.Tensor", "aten._add_relu_.Tensor"},
        {"aten._coalesced.default", "aten._coalesced_.default"},
        {"aten._index_put_impl.default", "aten._index_put_impl_.default"},
        {"aten._mkldnn_transpose.default", "aten._mkldnn_transpose_.default"},
        {"aten._resize_output.default", "aten._resize_output_.default"},
        {"aten.abs.default", "aten.abs_.default"},
        {"aten.absolute.default", "aten.absolute_.default"},
        {"aten.acos.default", "aten.acos_.default"},
        {"aten.acosh.default", "aten.acosh_.default"},
        {"aten.add.Scalar", "aten.add_.Scalar"},
        {"aten.add.Tensor", "aten.add_.Tensor"},
        {"aten.addbmm.default", "aten.addbmm_.default"},
        {"aten.addcdiv.default", "aten.addcdiv_.default"},
        {"aten.addcmul.default", "aten.addcmul_.default"},
        {"aten.addmm.default", "aten.addmm_.default"},
        {"aten.addmv.default", "aten.addmv_.default"},
        {"aten.addr.default", "aten.addr_.default"},
        {"aten.alpha_dropout.default", "aten.alpha_dropout_.default"},
        {"aten.arccos.default", "aten.arccos_.default"},
        {"aten.arccosh.default", "aten.arccosh_.default"},
        {"aten.arcsin.default", "aten.arcsin_.default"},
        {"aten.arcsinh.default", "aten.arcsinh_.default"},
        {"aten.arctan.default", "aten.arctan_.default"},
        {"aten.arctan2.default", "aten.arctan2_.default"},
        {"aten.arctanh.default", "aten.arctanh_.default"},
        {"aten.asin.default", "aten.asin_.default"},
        {"aten.asinh.default", "aten.asinh_.default"},
        {"aten.atan.default", "aten.atan_.default"},
        {"aten.atan2.default", "aten.atan2_.default"},
        {"aten.atanh.default", "aten.atanh_.default"},
        {"aten.baddbmm.default", "aten.baddbmm_.default"},
        {"aten.bernoulli.Tensor", "aten.bernoulli_.Tensor"},
        {"aten.bernoulli.p", "aten.bernoulli_.float"},
        {"aten.bitwise_and.Scalar", "aten.bitwise_and_.Scalar"},
        {"aten.bitwise_and.Tensor", "aten.bitwise_and_.Tensor"},
        {"aten.bitwise_left_shift.Tensor", "aten.bitwise_left_shift_.Tensor"},
        {"aten.bitwise_left_shift.Tensor_Scalar", "aten.bitwise_left_shift_.Tensor_Scalar"},
        {"aten.bitwise_not.default", "aten.bitwise_not_.default"},
        {"aten.bitwise_or.Scalar", "aten.bitwise_or_.Scalar"},
        {"aten.bitwise_or.Tensor", "aten.bitwise_or_.Tensor"},
        {"aten.bitwise_right_shift.Tensor", "aten.bitwise_right_shift_.Tensor"},
        {"aten.bitwise_right_shift.Tensor_Scalar", "aten.bitwise_right_shift_.Tensor_Scalar"},
        {"aten.bitwise_xor.Scalar", "aten.bitwise_xor_.Scalar"},
        {"aten.bitwise_xor.Tensor", "aten.bitwise_xor_.Tensor"},
        {"aten.cauchy.default", "aten.cauchy_.default"},
        {"aten.ceil.default", "aten.ceil_.default"},
        {"aten.celu.default", "aten.celu_.default"},
        {"aten.clamp.Tensor", "aten.clamp_.Tensor"},
        {"aten.clamp.default", "aten.clamp_.default"},
        {"aten.clamp_max.Tensor", "aten.clamp_max_.Tensor"},
        {"aten.clamp_max.default", "aten.clamp_max_.default"},
        {"aten.clamp_min.Tensor", "aten.clamp_min_.Tensor"},
        {"aten.clamp_min.default", "aten.clamp_min_.default"},
        {"aten.clip.Tensor", "aten.clip_.Tensor"},
        {"aten.clip.default", "aten.clip_.default"},
        {"aten.conj_physical.default", "aten.conj_physical_.default"},
        {"aten.copy.default", "aten.copy_.default"},
        {"aten.copy_sparse_to_sparse.default", "aten.copy_sparse_to_sparse_.default"},
        {"aten.copysign.Scalar", "aten.copysign_.Scalar"},
        {"aten.copysign.Tensor", "aten.copysign_.Tensor"},
        {"aten.cos.default", "aten.cos_.default"},
        {"aten.cosh.default", "aten.cosh_.default"},
        {"aten.cumprod.default", "aten.cumprod_.default"},
        {"aten.cumprod.dimname", "aten.cumprod_.dimname"},
        {"aten.cumsum.default", "aten.cumsum_.default"},
        {"aten.cumsum.dimname", "aten.cumsum_.dimname"},
        {"aten.deg2rad.default", "aten.deg2rad_.default"},
        {"aten.digamma.default", "aten.digamma_.default"},
        {"aten.div.Scalar", "aten.div_.Scalar"},
        {"aten.div.Scalar_mode", "aten.div_.Scalar_mode"},
        {"aten.div.Tensor", "aten.div_.Tensor"},
        {"aten.div.Tensor_mode", "aten.div_.Tensor_mode"},
        {"aten.divide.Scalar", "aten.divide_.Scalar"},
        {"aten.divide.Scalar_mode", "aten.divide_.Scalar_mode"},
        {"aten.divide.Tensor", "aten.divide_.Tensor"},
        {"aten.divide.Tensor_mode", "aten.divide_.Tensor_mode"},
        {"aten.dropout.default", "aten.dropout_.default"},
        {"aten.elu.default", "aten.elu_.default"},
        {"aten.embedding_renorm.default", "aten.embedding_renorm_.default"},
        {"aten.eq.Scalar", "aten.eq_.Scalar"},
        {"aten.eq.Tensor", "aten.eq_.Tensor"},
        {"aten.erf.default", "aten.erf_.default"},
        {"aten.erfc.default", "aten.erfc_.default"},
        {"aten.erfinv.default", "aten.erfinv_.default"},
        {"aten.exp.default", "aten.exp_.default"},
        {"aten.exp2.default", "aten.exp2_.default"},
        {"aten.expm1.default", "aten.expm1_.default"},
        {"aten.exponential.default", "aten.exponential_.default"},
        {"aten.feature_alpha_dropout.default", "aten.feature_alpha_dropout_.default"},
        {"aten.feature_dropout.default", "aten.feature_dropout_.default"},
        {"aten.fill.Scalar", "aten.fill_.Scalar"},
        {"aten.fill.Tensor", "aten.fill_.Tensor"},
        {"aten.fix.default", "aten.fix_.default"},
        {"aten.float_power.Tensor_Scalar", "aten.float_power_.Scalar"},
        {"aten.float_power.Tensor_Tensor", "aten.float_power_.Tensor"},
        {"aten.floor.default", "aten.floor_.default"},
        {"aten.floor_divide.Scalar", "aten.floor_divide_.Scalar"},
        {"aten.floor_divide.default", "aten.floor_divide_.Tensor"},
        {"aten.fmod.Scalar", "aten.fmod_.Scalar"},
        {"aten.fmod.Tensor", "aten.fmod_.Tensor"},
        {"aten.frac.default", "aten.frac_.default"},
        {"aten.gcd.default", "aten.gcd_.default"},
        {"aten.ge.Scalar", "aten.ge_.Scalar"},
        {"aten.ge.Tensor", "aten.ge_.Tensor"},
        {"aten.gelu.default", "aten.gelu_.default"},
        {"aten.geometric.default", "aten.geometric_.default"},
        {"aten.greater.Scalar", "aten.greater_.Scalar"},
        {"aten.greater.Tensor", "aten.greater_.Tensor"},
        {"aten.greater_equal.Scalar", "aten.greater_equal_.Scalar"},
        {"aten.greater_equal.Tensor", "aten.greater_equal_.Tensor"},
        {"aten.gt.Scalar", "aten.gt_.Scalar"},
        {"aten.gt.Tensor", "aten.gt_.Tensor"},
        {"aten.hardsigmoid.default", "aten.hardsigmoid_.default"},
        {"aten.hardswish.default", "aten.hardswish_.default"},
        {"aten.hardtanh.default", "aten.hardtanh_.default"},
        {"aten.heaviside.default", "aten.heaviside_.default"},
        {"aten.hypot.default", "aten.hypot_.default"},
        {"aten.i0.default", "aten.i0_.default"},
        {"aten.igamma.default", "aten.igamma_.default"},
        {"aten.igammac.default", "aten.igammac_.default"},
        {"aten.index_add.default", "aten.index_add_.default"},
        {"aten.index_copy.default", "aten.index_copy_.default"},
        {"aten.index_copy.dimname", "aten.index_copy_.dimname"},
        {"aten.index_fill.Dimname_Scalar", "aten.index_fill_.Dimname_Scalar"},
        {"aten.index_fill.Dimname_Tensor", "aten.index_fill_.Dimname_Tensor"},
        {"aten.index_fill.int_Scalar", "aten.index_fill_.int_Scalar"},
        {"aten.index_fill.int_Tensor", "aten.index_fill_.int_Tensor"},
        {"aten.index_put.default", "aten.index_put_.default"},
        {"aten.index_reduce.default", "aten.index_reduce_.default"},
        {"aten.lcm.default", "aten.lcm_.default"},
        {"aten.ldexp.Tensor", "aten.ldexp_.default"},
        {"aten.le.Scalar", "aten.le_.Scalar"},
        {"aten.le.Tensor", "aten.le_.Tensor"},
        {"aten.leaky_relu.default", "aten.leaky_relu_.default"},
        {"aten.lerp.Scalar", "aten.lerp_.Scalar"},
        {"aten.lerp.Tensor", "aten.lerp_.Tensor"},
        {"aten.less.Scalar", "aten.less_.Scalar"},
        {"aten.less.Tensor", "aten.less_.Tensor"},
        {"aten.less_equal.Scalar", "aten.less_equal_.Scalar"},
        {"aten.less_equal.Tensor", "aten.less_equal_.Tensor"},
        {"aten.lgamma.default", "aten.lgamma_.default"},
        {"aten.log.default", "aten.log_.default"},
        {"aten.log10.default", "aten.log10_.default"},
        {"aten.log1p.default", "aten.log1p_.default"},
        {"aten.log2.default", "aten.log2_.default"},
        {"aten.log_normal.default", "aten.log_normal_.default"},
        {"aten.logical_and.default", "aten.logical_and_.default"},
        {"aten.logical_not.default", "aten.logical_not_.default"},
        {"aten.logical_or.default", "aten.logical_or_.default"},
        {"aten.logical_xor.default", "aten.logical_xor_.default"},
        {"aten.logit.default", "aten.logit_.default"},
        {"aten.lt.Scalar", "aten.lt_.Scalar"},
        {"aten.lt.Tensor", "aten.lt_.Tensor"},
        {"aten.masked_fill.Scalar", "aten.masked_fill_.Scalar"},
        {"aten.masked_fill.Tensor", "aten.masked_fill_.Tensor"},
        {"aten.masked_scatter.default", "aten.masked_scatter_.default"},
        {"aten.mish.default", "aten.mish_.default"},
        {"aten.mul.Scalar", "aten.mul_.Scalar"},
        {"aten.mul.Tensor", "aten.mul_.Tensor"},
        {"aten.multiply.Scalar", "aten.multiply_.Scalar"},
        {"aten.multiply.Tensor", "aten.multiply_.Tensor"},
        {"aten.mvlgamma.default", "aten.mvlgamma_.default"},
        {"aten.nan_to_num.default", "aten.nan_to_num_.default"},
        {"aten.ne.Scalar", "aten.ne_.Scalar"},
        {"aten.ne.Tensor", "aten.ne_.Tensor"},
        {"aten.neg.default", "aten.neg_.default"},
        {"aten.negative.default", "aten.negative_.default"},
        {"aten.nextafter.default", "aten.nextafter_.default"},
        {"aten.not_equal.Scalar", "aten.not_equal_.Scalar"},
        {"aten.not_equal.Tensor", "aten.not_equal_.Tensor"},
        {"aten.pow.Tensor_Scalar", "aten.pow_.Scalar"},
        {"aten.pow.Tensor_Tensor", "aten.pow_.Tensor"},
        {"aten.put.default", "aten.put_.default"},
        {"aten.rad2deg.default", "aten.rad2deg_.default"},
        {"aten.random.default", "aten.random_.default"},
        {"aten.random.from", "aten.random_.from"},
        {"aten.random.to", "aten.random_.to"},
        {"aten.reciprocal.default", "aten.reciprocal_.default"},
        {"aten.relu.default", "aten.relu_.default"},
        {"aten.relu6.default", "aten.relu6_.default"},
        {"aten.remainder.Scalar", "aten.remainder_.Scalar"},
        {"aten.remainder.Tensor", "aten.remainder_.Tensor"},
        {"aten.renorm.default", "aten.renorm_.default"},
        {"aten.resize.default", "aten.resize_.default"},
        {"aten.resize_as.default", "aten.resize_as_.default"},
        {"aten.resize_as_sparse.default", "aten.resize_as_sparse_.default"},
        {"aten.round.decimals", "aten.round_.decimals"},
        {"aten.round.default", "aten.round_.default"},
        {"aten.rrelu.default", "aten.rrelu_.default"},
        {"aten.rsqrt.default", "aten.rsqrt_.default"},
        {"aten.scatter.reduce", "aten.scatter_.reduce"},
        {"aten.scatter.src", "aten.scatter_.src"},
        {"aten.scatter.value", "aten.scatter_.value"},
        {"aten.scatter.value_reduce", "aten.scatter_.value_reduce"},
        {"aten.scatter_add.default", "aten.scatter_add_.default"},
        {"aten.scatter_reduce.two", "aten.scatter_reduce_.two"},
        {"aten.selu.default", "aten.selu_.default"},
        {"aten.set.default", "aten.set_.default"},
        {"aten.set.source_Storage", "aten.set_.source_Storage"},
        {"aten.set.source_Storage_storage_offset", "aten.set_.source_Storage_storage_offset"},
        {"aten.set.source_Tensor", "aten.set_.source_Tensor"},
        {"aten.sgn.default", "aten.sgn_.default"},
        {"aten.sigmoid.default", "aten.sigmoid_.default"},
        {"aten.sign.default", "aten.sign_.default"},
        {"aten.silu.default", "aten.silu_.default"},
        {"aten.sin.default", "aten.sin_.default"},
        {"aten.sinc.default", "aten.sinc_.default"},
        {"aten.sinh.default", "aten.sinh_.default"},
        {"aten.sparse_resize.default", "aten.sparse_resize_.default"},
        {"aten.sparse_resize_and_clear.default", "aten.sparse_resize_and_clear_.default"},
        {"aten.sqrt.default", "aten.sqrt_.default"},
        {"aten.square.default", "aten.square_.default"},
        {"aten.sub.Scalar", "aten.sub_.Scalar"},
        {"aten.sub.Tensor", "aten.sub_.Tensor"},
        {"aten.subtract.Scalar", "aten.subtract_.Scalar"},
        {"aten.subtract.Tensor", "aten.subtract_.Tensor"},
        {"aten.tan.default", "aten.tan_.default"},
        {"aten.tanh.default", "aten.tanh_.default"},
        {"aten.threshold.default", "aten.threshold_.default"},
        {"aten.tril.default", "aten.tril_.default"},
        {"aten.triu.default", "aten.triu_.default"},
        {"aten.true_divide.Scalar", "aten.true_divide_.Scalar"},
        {"aten.true_divide.Tensor", "aten.true_divide_.Tensor"},
        {"aten.trunc.default", "aten.trunc_.default"},
        {"aten.uniform.default", "aten.uniform_.default"},
        {"aten.xlogy.Scalar_Other", "aten.xlogy_.Scalar_Other"},
        {"aten.xlogy.Tensor", "aten.xlogy_.Tensor"},
        {"aten.zero.default", "aten.zero_.default"},
        // torch_npu (yaml:6819/6823, yaml:6931/6935, yaml:7149/7154).
        {"npu.npu_quant_scatter.default", "npu.npu_quant_scatter_.default"},
        {"npu.npu_scatter_nd_update.default", "npu.npu_scatter_nd_update_.default"},
        {"npu.scatter_update.default", "npu.scatter_update_.default"},
    };
    std::sort(t.begin(), t.end());
    return t;
  }();
  return table;
}

namespace {

const std::pair<std::string_view, std::string_view>* FindRow(std::string_view target) {
  target = StripTorchOps(target);
  const auto& table = InplaceVariants();
  auto it = std::lower_bound(table.begin(), table.end(), target,
                             [](const auto& row, std::string_view key) { return row.first < key; });
  return it != table.end() && it->first == target ? &*it : nullptr;
}

// c10::canCast (torch's c10/core/ScalarType.h): what an in-place op may
// write into self after type promotion; no complex into real, no floating
// into integral, nothing but bool into bool.
bool CanCast(DType from, DType to) {
  if (from == DType::kUnknown || to == DType::kUnknown) return true;
  if (IsComplex(from) && !IsComplex(to)) return false;
  if (IsFloatingPoint(from) && IsIntegral(to)) return false;
  return from == DType::kBool || to != DType::kBool;
}

// The in-place op's inference: the out-of-place op's, which must fit in
// self (TensorIterator's "output with shape [4] doesn't match the broadcast
// shape [1, 4]" and "result type Float can't be cast to the desired output
// type Long"); the value is self.
InferFn InplaceInfer(InferFn out_of_place) {
  return [f = std::move(out_of_place)](const Node& node) -> Result<NodeMeta> {
    AIRSCOPE_ASSIGN_OR_RETURN(const TensorMeta* self, TensorArg(node, 0, "self"));
    AIRSCOPE_ASSIGN_OR_RETURN(NodeMeta out, f(node));
    if (out.kind != ValueKind::kTensor || out.tensors.size() != 1) {
      return OpError(node, "the out-of-place op does not give one tensor");
    }
    const TensorMeta& result = out.tensors[0];
    if (result.sizes != self->sizes) {
      return OpError(node, "output with shape {} doesn't match the broadcast shape {}", FormatDims(self->sizes),
                     FormatDims(result.sizes));
    }
    if (!CanCast(result.dtype, self->dtype)) {
      return OpError(node, "result type {} can't be cast to the desired output type {}", TorchName(result.dtype),
                     TorchName(self->dtype));
    }
    return TensorResult(*self);
  };
}

}  // namespace

std::string_view InplaceVariant(std::string_view target) {
  const auto* row = FindRow(target);
  return row ? row->second : std::string_view();
}

bool InplaceVariantKnown(std::string_view target) {
  target = StripTorchOps(target);
  if (target.starts_with("aten.")) return true;
  return FindRow(target) != nullptr;
}

void RegisterInplaceVariants(OpRegistry& registry) {
  for (const auto& [functional, inplace] : InplaceVariants()) {
    const OpInfo* info = registry.Find(functional);
    if (info == nullptr || registry.Find(inplace) != nullptr) continue;
    OpInfo op;
    op.name = std::string(inplace);
    op.category = info->category;
    op.infer = info->infer ? InplaceInfer(info->infer) : InferFn();
    op.cost = info->cost;
    op.inplace = true;
    registry.Register(std::move(op));
  }
}

}  // namespace airscope

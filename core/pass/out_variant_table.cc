#include "core/pass/out_variant_table.h"

#include <map>

#include "core/ops/op_registry.h"

namespace airscope {
namespace {

// op overload -> its `.out` overload with the same non-out arguments.
const std::map<std::string, std::string, std::less<>>& OutVariants() {
  static const auto* table = new std::map<std::string, std::string, std::less<>>{
      // unary pointwise: op(Tensor self) / op.out(Tensor self, *, Tensor(a!) out)
      {"aten.abs.default", "aten.abs.out"},
      {"aten.cos.default", "aten.cos.out"},
      {"aten.erf.default", "aten.erf.out"},
      {"aten.exp.default", "aten.exp.out"},
      {"aten.log.default", "aten.log.out"},
      {"aten.neg.default", "aten.neg.out"},
      {"aten.reciprocal.default", "aten.reciprocal.out"},
      {"aten.rsqrt.default", "aten.rsqrt.out"},
      {"aten.sigmoid.default", "aten.sigmoid.out"},
      {"aten.silu.default", "aten.silu.out"},
      {"aten.sin.default", "aten.sin.out"},
      {"aten.sqrt.default", "aten.sqrt.out"},
      {"aten.tanh.default", "aten.tanh.out"},
      {"aten.gelu.default", "aten.gelu.out"},  // (self, *, str approximate='none')
      // binary pointwise
      {"aten.add.Tensor", "aten.add.out"},  // (self, other, *, Scalar alpha=1)
      {"aten.sub.Tensor", "aten.sub.out"},
      {"aten.mul.Tensor", "aten.mul.out"},
      {"aten.div.Tensor", "aten.div.out"},
      {"aten.add.Scalar", "aten.add.Scalar_out"},
      {"aten.mul.Scalar", "aten.mul.Scalar_out"},
      {"aten.pow.Tensor_Scalar", "aten.pow.Tensor_Scalar_out"},
      {"aten.where.self", "aten.where.self_out"},
      // matmul
      {"aten.mm.default", "aten.mm.out"},
      {"aten.bmm.default", "aten.bmm.out"},
      {"aten.addmm.default", "aten.addmm.out"},
      // reductions: sum.dim_IntList's match is sum.IntList_out (not DimnameList_out)
      {"aten.sum.dim_IntList", "aten.sum.IntList_out"},
      {"aten.mean.dim", "aten.mean.out"},
      {"aten.amax.default", "aten.amax.out"},
      {"aten._softmax.default", "aten._softmax.out"},
      // copies and others with generated out overloads
      {"aten.clone.default", "aten.clone.out"},
      {"aten._to_copy.default", "aten._to_copy.out"},
      {"aten.cat.default", "aten.cat.out"},
      {"aten.embedding.default", "aten.embedding.out"},
  };
  return *table;
}

}  // namespace

std::string OutVariant(std::string_view target) {
  auto it = OutVariants().find(StripTorchOps(target));
  return it == OutVariants().end() ? std::string() : it->second;
}

}  // namespace airscope

// Matrix products: mm, bmm, addmm, matmul.
//
// Cost: a product of MxK by KxN is 2*M*N*K flops (one multiply, one add per
// term); addmm adds M*N for the bias. Bytes: inputs read, output written.
#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

Status CheckInner(const Node& node, const Dim& k1, const Dim& k2) {
  // Two different symbols may still be equal at run time; only provably
  // different static sizes are an error.
  if (k1.is_static() && k2.is_static() && k1.value() != k2.value()) {
    return OpError(node, "inner dims {} and {} differ", k1.ToString(), k2.ToString());
  }
  return Status::Ok();
}

Status CheckRank(const Node& node, const TensorMeta& t, size_t rank, std::string_view what) {
  if (t.sizes.size() != rank) {
    return OpError(node, "{} must be {}-D, got {}", what, rank, FormatDims(t.sizes));
  }
  return Status::Ok();
}

Result<NodeMeta> InferMm(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto a, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto b, TensorArg(node, 1, "mat2"));
  AIRSCOPE_RETURN_IF_ERROR(CheckRank(node, *a, 2, "self"));
  AIRSCOPE_RETURN_IF_ERROR(CheckRank(node, *b, 2, "mat2"));
  AIRSCOPE_RETURN_IF_ERROR(CheckInner(node, a->sizes[1], b->sizes[0]));
  return TensorResult(Like(*a, {a->sizes[0], b->sizes[1]}, PromoteTypes(a->dtype, b->dtype)));
}

Result<NodeMeta> InferBmm(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto a, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto b, TensorArg(node, 1, "mat2"));
  AIRSCOPE_RETURN_IF_ERROR(CheckRank(node, *a, 3, "self"));
  AIRSCOPE_RETURN_IF_ERROR(CheckRank(node, *b, 3, "mat2"));
  const auto& as = a->sizes;
  const auto& bs = b->sizes;
  if (as[0].is_static() && bs[0].is_static() && as[0] != bs[0]) {
    return OpError(node, "batch dims {} and {} differ", as[0].ToString(), bs[0].ToString());
  }
  AIRSCOPE_RETURN_IF_ERROR(CheckInner(node, as[2], bs[1]));
  Dim batch = as[0].is_static() ? as[0] : (bs[0].is_static() ? bs[0] : as[0]);
  return TensorResult(Like(*a, {batch, as[1], bs[2]}, PromoteTypes(a->dtype, b->dtype)));
}

// addmm(bias, mat1, mat2, beta=1, alpha=1) = beta*bias + alpha*(mat1 @ mat2);
// the bias broadcasts to [M, N].
Result<NodeMeta> InferAddmm(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto bias, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto a, TensorArg(node, 1, "mat1"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto b, TensorArg(node, 2, "mat2"));
  AIRSCOPE_RETURN_IF_ERROR(CheckRank(node, *a, 2, "mat1"));
  AIRSCOPE_RETURN_IF_ERROR(CheckRank(node, *b, 2, "mat2"));
  AIRSCOPE_RETURN_IF_ERROR(CheckInner(node, a->sizes[1], b->sizes[0]));
  std::vector<Dim> out = {a->sizes[0], b->sizes[1]};
  AIRSCOPE_ASSIGN_OR_RETURN(auto broadcast, Broadcast(node, out, bias->sizes));
  if (broadcast != out) {
    return OpError(node, "bias {} does not broadcast to {}", FormatDims(bias->sizes), FormatDims(out));
  }
  DType dtype = PromoteTypes(PromoteTypes(a->dtype, b->dtype), bias->dtype);
  return TensorResult(Like(*a, std::move(out), dtype));
}

// torch.matmul's cases: 1-D x 1-D dot, 2-D mm, vector promotion (a 1-D
// operand gets a dim of 1 that is dropped again), batched with broadcast
// batch dims.
Result<NodeMeta> InferMatmul(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto a, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto b, TensorArg(node, 1, "other"));
  std::vector<Dim> as = a->sizes, bs = b->sizes;
  if (as.empty() || bs.empty()) return OpError(node, "both arguments need at least 1 dim");
  bool a_vec = as.size() == 1, b_vec = bs.size() == 1;
  if (a_vec) as.insert(as.begin(), Dim(1));
  if (b_vec) bs.push_back(Dim(1));
  AIRSCOPE_RETURN_IF_ERROR(CheckInner(node, as[as.size() - 1], bs[bs.size() - 2]));
  std::vector<Dim> a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2);
  AIRSCOPE_ASSIGN_OR_RETURN(auto batch, Broadcast(node, a_batch, b_batch));
  std::vector<Dim> out = std::move(batch);
  if (!a_vec) out.push_back(as[as.size() - 2]);
  if (!b_vec) out.push_back(bs.back());
  return TensorResult(Like(*a, std::move(out), PromoteTypes(a->dtype, b->dtype)));
}

// 2 * (output elements) * K (+ output elements for a bias), where K is the
// first operand's last dim (the reduced one in every case above).
CostFn ProductCost(size_t lhs_index, bool bias) {
  return [lhs_index, bias](const Node& node) -> std::optional<OpCost> {
    auto lhs = TensorArg(node, lhs_index, "lhs");
    if (!lhs.ok() || (*lhs)->sizes.empty() || !(*lhs)->sizes.back().is_static()) return std::nullopt;
    auto out = OutputElements(node);
    auto read = InputBytes(node);
    auto written = OutputBytes(node);
    if (!out || !read || !written) return std::nullopt;
    double k = static_cast<double>((*lhs)->sizes.back().value());
    return OpCost{2 * *out * k + (bias ? *out : 0), *read, *written};
  };
}

}  // namespace

void RegisterMatmulOps(OpRegistry& r) {
  AddOp(r, "aten.mm.default", OpCategory::kMatmul, InferMm, ProductCost(0, false));
  AddOp(r, "aten.bmm.default", OpCategory::kMatmul, InferBmm, ProductCost(0, false));
  AddOp(r, "aten.matmul.default", OpCategory::kMatmul, InferMatmul, ProductCost(0, false));
  AddOp(r, "aten.addmm.default", OpCategory::kMatmul, InferAddmm, ProductCost(1, true));
}

}  // namespace airscope

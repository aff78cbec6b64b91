// Collectives a TorchAir graph can hold, with the shapes of their meta
// functions: torch's functional collectives (torch/distributed/
// _functional_collectives_impl.py / _meta_registrations: all_to_all_single's
// output has sum(output_split_sizes) rows; wait_tensor returns its input's
// like) and the `npu_define` ops TorchAir defines and decomposes into
// (ge_converter/experimental/hcom_allgather.py:16-53, hcom_alltoall.py:13-66,
// hcom_broadcast.py:10-36). Their time on the wire is not modelled: lower
// runs them as kernels of unknown cost.
#include <numeric>

#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

// npu_define.allgather(Tensor[] tensor_list, Tensor input, str tag, int[]
// ranks, int group_size) -> Tensor[]: allgather_meta returns tensor_list.
Result<NodeMeta> InferAllgather(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto list, TensorListArg(node, 0, "tensor_list"));
  std::vector<TensorMeta> out;
  for (const TensorMeta* t : list) out.push_back(Like(*t, t->sizes));
  return TupleResult(std::move(out));
}

// npu_define.allgather_in_tensor(Tensor out, Tensor input, ...) -> Tensor:
// `output_tensor.new_empty(output_tensor.size())`.
Result<NodeMeta> InferAllgatherInTensor(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto out, TensorArg(node, 0, "out"));
  return TensorResult(Like(*out, out->sizes));
}

// _c10d_functional.all_to_all_single(input, output_split_sizes,
// input_split_sizes, group_name): dim 0 becomes sum(output_split_sizes).
Result<NodeMeta> InferAllToAllSingle(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto input, TensorArg(node, 0, "input"));
  std::vector<Dim> sizes = input->sizes;
  if (sizes.empty()) return OpError(node, "input must have at least 1 dim");
  auto splits = IntListArg(node, 1, "output_split_sizes", std::vector<int64_t>{});
  if (!splits.ok()) return splits.status();
  if (!splits->empty()) sizes[0] = std::accumulate(splits->begin(), splits->end(), int64_t{0});
  return TensorResult(Like(*input, std::move(sizes)));
}

// npu_define.all_to_all_single_npu(input, send_counts, send_displacements,
// recv_counts, recv_displacements, tag, ranks, group_size): counts are in
// elements; dim 0 is sum(recv_counts) / (elements per row)
// (npu_all_to_all_single_npu_meta, hcom_alltoall.py:43-62).
Result<NodeMeta> InferAllToAllSingleNpu(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto input, TensorArg(node, 0, "input"));
  std::vector<Dim> sizes = input->sizes;
  if (sizes.empty()) return OpError(node, "input must have at least 1 dim");
  AIRSCOPE_ASSIGN_OR_RETURN(auto recv, IntListArg(node, 3, "recv_counts"));
  auto group_size = IntArg(node, 7, "group_size");
  if (!group_size.ok()) return group_size.status();
  int64_t row = 1;
  for (size_t i = 1; i < sizes.size(); ++i) {
    if (!sizes[i].is_static()) return TensorResult(Like(*input, sizes));
    row *= sizes[i].value();
  }
  std::vector<int64_t> counts = recv;
  if (counts.empty()) {
    if (!sizes[0].is_static() || *group_size <= 0) return TensorResult(Like(*input, sizes));
    counts.assign(*group_size, sizes[0].value() * row / *group_size);
  }
  int64_t total = std::accumulate(counts.begin(), counts.end(), int64_t{0});
  if (row == 0) return OpError(node, "input has no elements per row");
  sizes[0] = total / row;
  return TensorResult(Like(*input, std::move(sizes)));
}

// Communication time is not modelled: the cost is always unknown, so lower
// times these kernels at the device's minimum and says so.
CostFn UnknownCost() {
  return [](const Node&) -> std::optional<OpCost> { return std::nullopt; };
}

}  // namespace

void RegisterCollectiveOps(OpRegistry& r) {
  AddOp(r, "_c10d_functional.all_to_all_single.default", OpCategory::kOther, InferAllToAllSingle, UnknownCost());
  AddOp(r, "_c10d_functional.wait_tensor.default", OpCategory::kOther, InferLikeSelf, UnknownCost());
  AddOp(r, "npu_define.allgather.default", OpCategory::kOther, InferAllgather, UnknownCost());
  AddOp(r, "npu_define.allgather_in_tensor.default", OpCategory::kOther, InferAllgatherInTensor, UnknownCost());
  AddOp(r, "npu_define.broadcast.default", OpCategory::kOther, InferLikeSelf, UnknownCost());
  AddOp(r, "npu_define.all_to_all_single_npu.default", OpCategory::kOther, InferAllToAllSingleNpu, UnknownCost());
}

}  // namespace airscope

// Advanced indexing and the in-place fills functionalization makes
// out-of-place: index.Tensor (x[idx], x[mask]), index_put(_) (x[idx] = v),
// zero(_), fill(_). Shapes follow torch's meta kernels
// (torch/_meta_registrations.py meta_index_Tensor, meta_index_put).
#include <algorithm>

#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

bool IsMaskDType(DType dtype) { return dtype == DType::kBool || dtype == DType::kUInt8; }

// index.Tensor(self, Tensor?[] indices): meta_index_Tensor. A bool/uint8
// mask of k dims stands for its nonzero() indices: k index tensors of one
// data-dependent length (an unbacked symbol, `u0` as torch names the first).
// The index tensors broadcast together; when they index adjacent dims the
// broadcast shape replaces those dims in place, else it goes first.
Result<NodeMeta> InferIndexTensor(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  const Argument* list = FindArg(node, 1, "indices");
  if (!list || !list->is_sequence()) return OpError(node, "indices must be a list");
  const std::vector<Dim>& sizes = self->sizes;
  std::vector<const TensorMeta*> per_dim;  // the index of each indexed dim of self (nullptr: sliced whole)
  std::vector<std::vector<Dim>> index_shapes;
  for (const Argument& item : list->items()) {
    if (item.is_none()) {
      per_dim.push_back(nullptr);
      continue;
    }
    if (!item.is_node() || !item.as_node()->tensor()) return OpError(node, "an index has no shape");
    const TensorMeta* index = item.as_node()->tensor();
    if (IsMaskDType(index->dtype)) {
      for (size_t k = 0; k < std::max<size_t>(index->sizes.size(), 1); ++k) per_dim.push_back(index);
      index_shapes.push_back({Dim::Symbol("u0")});
    } else {
      per_dim.push_back(index);
      index_shapes.push_back(index->sizes);
    }
  }
  if (per_dim.size() > sizes.size()) {
    return OpError(node, "too many indices for a tensor of dimension {}", sizes.size());
  }
  std::vector<Dim> broadcast;
  for (const std::vector<Dim>& shape : index_shapes) {
    AIRSCOPE_ASSIGN_OR_RETURN(auto merged, Broadcast(node, broadcast, shape));
    broadcast = std::move(merged);
  }
  std::vector<size_t> indexed;
  for (size_t d = 0; d < per_dim.size(); ++d) {
    if (per_dim[d]) indexed.push_back(d);
  }
  if (indexed.empty()) return TensorResult(Like(*self, sizes));
  bool adjacent = indexed.back() - indexed.front() + 1 == indexed.size();
  std::vector<Dim> out;
  if (adjacent) {
    out.assign(sizes.begin(), sizes.begin() + indexed.front());
    out.insert(out.end(), broadcast.begin(), broadcast.end());
    out.insert(out.end(), sizes.begin() + indexed.back() + 1, sizes.end());
  } else {
    out = broadcast;
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (d >= per_dim.size() || !per_dim[d]) out.push_back(sizes[d]);
    }
  }
  return TensorResult(Like(*self, std::move(out)));
}

}  // namespace

void RegisterIndexingOps(OpRegistry& r) {
  AddOp(r, "aten.index.Tensor", OpCategory::kOther, InferIndexTensor, CopyCost());
  // index_put / zero / fill: a tensor like self (meta_index_put, zero, fill).
  AddOp(r, "aten.index_put.default", OpCategory::kOther, InferLikeSelf, CopyCost());
  AddOp(r, "aten.index_put_.default", OpCategory::kOther, InferLikeSelf, CopyCost(), /*inplace=*/true);
  AddOp(r, "aten.zero.default", OpCategory::kCreation, InferLikeSelf, CopyCost());
  AddOp(r, "aten.zero_.default", OpCategory::kCreation, InferLikeSelf, CopyCost(), /*inplace=*/true);
  for (const char* overload : {"Scalar", "Tensor"}) {
    AddOp(r, fmt::format("aten.fill.{}", overload), OpCategory::kCreation, InferLikeSelf, CopyCost());
    AddOp(r, fmt::format("aten.fill_.{}", overload), OpCategory::kCreation, InferLikeSelf, CopyCost(),
          /*inplace=*/true);
  }
}

}  // namespace airscope

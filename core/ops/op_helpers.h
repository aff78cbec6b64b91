// Shared pieces of the op table: argument access, broadcasting, type
// promotion, result construction, errors and the common cost shapes.
//
// Contract: every accessor returns Result/Status instead of asserting, since
// arguments come from user files; messages start with the op's short name
// (`mm: ...`) and name the offending input node or value. Inferred tensors
// carry dtype, sizes and device; strides are left unstated (empty), so they
// compare equal to annotations that state none.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "core/ir/node.h"
#include "core/ops/dim_math.h"
#include "core/ops/op_registry.h"
#include "core/status.h"

namespace airscope {

// "torch.ops.aten.mm.default" -> "mm"; "operator.getitem" -> "getitem".
std::string OpLabel(const Node& node);

template <typename... Args>
Status OpError(const Node& node, fmt::format_string<Args...> format, Args&&... args) {
  return Status::Error(OpLabel(node) + ": " + fmt::format(format, std::forward<Args>(args)...));
}

// ---- arguments: by position, else by keyword; nullptr when absent.
const Argument* FindArg(const Node& node, size_t index, std::string_view name);
// The node FindArg finds, or nullptr when there is none or it is not a node.
Node* FindNodeArg(const Node& node, size_t index, std::string_view name);

// The tensor an argument refers to. Errors: not a node, or the node has no
// tensor meta ("mm: input 'x' has no shape").
Result<const TensorMeta*> TensorArg(const Node& node, size_t index, std::string_view name);
// As TensorArg, but an absent or None argument gives nullptr.
Result<const TensorMeta*> OptionalTensorArg(const Node& node, size_t index, std::string_view name);
Result<std::vector<const TensorMeta*>> TensorListArg(const Node& node, size_t index, std::string_view name);

Result<int64_t> IntArg(const Node& node, size_t index, std::string_view name,
                       std::optional<int64_t> fallback = std::nullopt);
// None or absent -> nullopt.
Result<std::optional<int64_t>> OptionalIntArg(const Node& node, size_t index, std::string_view name);
Result<bool> BoolArg(const Node& node, size_t index, std::string_view name, bool fallback);
// A list of ints (a bare int is taken as a one-element list). Absent/None ->
// `fallback` if given, else an error.
Result<std::vector<int64_t>> IntListArg(const Node& node, size_t index, std::string_view name,
                                        std::optional<std::vector<int64_t>> fallback = std::nullopt);
// A size list whose items may be ints, SymInt nodes (their `Sym(s0)`
// annotation, else the node's name, becomes the symbol) or symbol text.
Result<std::vector<Dim>> DimListArg(const Node& node, size_t index, std::string_view name);
// A `stride` argument given beside `sizes` (as_strided, empty_strided): one
// stride per size, else torch's "mismatch in length of strides and shape".
Result<std::vector<Dim>> StridesArg(const Node& node, size_t index, const std::vector<Dim>& sizes);
// dtype argument or kwarg; absent/None -> nullopt.
Result<std::optional<DType>> DTypeArg(const Node& node, size_t index, std::string_view name);
// device kwarg as torch's str(): "cpu", "npu:0"; "" when absent.
std::string DeviceKwarg(const Node& node);

// dim in [-rank, rank) -> [0, rank). Zero-rank tensors accept -1 and 0 as torch does.
Result<int64_t> NormalizeDim(const Node& node, int64_t dim, size_t rank);

// ---- shapes and dtypes
// Numpy broadcasting. Equal symbols broadcast to themselves; a symbol against
// a static size != 1 takes the static size (Dynamo guards them equal); two
// different symbols keep the first (same reason).
Result<std::vector<Dim>> Broadcast(const Node& node, std::span<const Dim> a, std::span<const Dim> b);

// torch.promote_types for two dtypes.
DType PromoteTypes(DType a, DType b);

// One operand of a pointwise op for torch.result_type: a tensor (with rank),
// or a Python scalar (bool/int/float, whose dtype is the default for its kind).
struct Operand {
  DType dtype = DType::kUnknown;
  bool is_scalar = false;  // a Python number or SymInt
  const TensorMeta* tensor = nullptr;
};
Result<Operand> OperandArg(const Node& node, size_t index, std::string_view name);
// torch.result_type: dimensioned tensors beat zero-dim ones beat scalars
// unless a lower tier is of a higher category (bool < int < float < complex).
DType ResultType(std::span<const Operand> operands);

// ---- results
// A tensor like `like` (dtype, device) with new sizes; strides unstated.
TensorMeta Like(const TensorMeta& like, std::vector<Dim> sizes);
TensorMeta Like(const TensorMeta& like, std::vector<Dim> sizes, DType dtype);
// The element of a tuple torch returns as None.
TensorMeta NoneElement();
NodeMeta TensorResult(TensorMeta tensor);
NodeMeta TupleResult(std::vector<TensorMeta> tensors);
// The shape function of ops whose result is a new tensor of self's sizes,
// dtype and device (clone, fill, zero, index_put, ...); strides unstated.
Result<NodeMeta> InferLikeSelf(const Node& node);

// ---- cost
// Sum of NumBytes over all tensor inputs (tuples: all known elements; SymInt
// and opaque values: 0). nullopt when any tensor size is unknown or symbolic.
std::optional<double> InputBytes(const Node& node);
// Bytes of the node's own meta (all tuple elements that are not None).
std::optional<double> OutputBytes(const Node& node);
// Elements of the node's first (or only) tensor.
std::optional<double> OutputElements(const Node& node);
std::optional<double> Elements(const TensorMeta* tensor);

// Elementwise: flops_per_element * output elements, inputs read, output written.
CostFn ElementwiseCost(double flops_per_element);
// Views, stream control: nothing moves.
CostFn ZeroCost();
// Copies: inputs read, output written, no math.
CostFn CopyCost();

// Registration shorthand.
void AddOp(OpRegistry& registry, std::string name, OpCategory category, InferFn infer, CostFn cost,
           bool inplace = false);

}  // namespace airscope

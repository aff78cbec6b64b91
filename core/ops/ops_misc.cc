// The rest of the table: tensor creation, copies and dtype/device moves,
// concatenation, embedding lookup, host syncs (item / _local_scalar_dense,
// which capture must avoid) and TorchAir's stream-control ops.
//
// Cost: creation writes its output; copies read inputs and write outputs
// (no flops); host syncs read their input; stream control costs nothing.
#include <algorithm>
#include <cmath>
#include <map>

#include "core/ir/graph.h"
#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

// Whether the graph's annotations state devices (torch >= 2.5 prints
// `f32[2, 2][2, 1]cpu`; older torch prints `f32[2, 2]`), judged by its
// placeholders and get_attrs.
bool GraphStatesDevices(const Node& node) {
  for (const Node* n : node.graph()) {
    if (n->op() != OpKind::kPlaceholder && n->op() != OpKind::kGetAttr) continue;
    const NodeMeta* meta = n->meta();
    if (meta && meta->tensor() && !meta->tensor()->device.empty()) return true;
  }
  return false;
}

// A created tensor records its device kwarg only when the graph's
// annotations state devices at all: inferred meta then reads like the
// file's own annotations (and compares equal to them) in either style.
std::string StatedDevice(const Node& node) { return GraphStatesDevices(node) ? DeviceKwarg(node) : ""; }

TensorMeta Created(const Node& node, std::vector<Dim> sizes, DType dtype) {
  TensorMeta t;
  t.dtype = dtype;
  t.sizes = std::move(sizes);
  t.device = StatedDevice(node);
  return t;
}

// A created tensor's sizes as torch checks them (check_size_nonnegative):
// "Trying to create tensor with negative dimension -1: [-1]", and counts
// that fit int64 (CheckTensorSize).
Result<NodeMeta> CreatedResult(const Node& node, TensorMeta t) {
  for (const Dim& d : t.sizes) {
    if (d.is_static() && d.value() < 0) {
      return OpError(node, "Trying to create tensor with negative dimension {}: {}", d.value(), FormatDims(t.sizes));
    }
  }
  if (Status size = CheckTensorSize(t); !size.ok()) return OpError(node, "{}", size.message());
  return TensorResult(std::move(t));
}

// empty_strided(size, stride, *, dtype=None, ...): the strides given, one
// per size, kept even when contiguous (a stated layout, core/analysis/known_strides.h).
Result<NodeMeta> InferEmptyStrided(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, DimListArg(node, 0, "size"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto strides, StridesArg(node, 1, sizes));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 99, "dtype"));
  TensorMeta t = Created(node, std::move(sizes), dtype.value_or(DType::kFloat32));
  t.strides = std::move(strides);
  return CreatedResult(node, std::move(t));
}

// ones/zeros/empty(size, *, dtype=None, layout, device, pin_memory): dtype defaults to f32.
Result<NodeMeta> InferFilled(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, DimListArg(node, 0, "size"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 99, "dtype"));
  return CreatedResult(node, Created(node, std::move(sizes), dtype.value_or(DType::kFloat32)));
}

DType ScalarDType(const Argument* value) {
  if (!value) return DType::kFloat32;
  switch (value->kind()) {
    case Argument::Kind::kBool: return DType::kBool;
    case Argument::Kind::kInt: return DType::kInt64;
    default: return DType::kFloat32;
  }
}

// full(size, fill_value, *, dtype=None, ...): dtype from the fill value's kind.
Result<NodeMeta> InferFull(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, DimListArg(node, 0, "size"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 99, "dtype"));
  DType fallback = ScalarDType(FindArg(node, 1, "fill_value"));
  return CreatedResult(node, Created(node, std::move(sizes), dtype.value_or(fallback)));
}

// zeros_like(self, *, dtype=None, device=None, ...) and friends.
Result<NodeMeta> InferLike(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 99, "dtype"));
  TensorMeta out = Like(*self, self->sizes, dtype.value_or(self->dtype));
  if (std::string device = StatedDevice(node); !device.empty()) out.device = device;
  return TensorResult(std::move(out));
}

// new_zeros(self, size, *, dtype=None, ...): self's dtype and device by default.
Result<NodeMeta> InferNewFilled(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, DimListArg(node, 1, "size"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 99, "dtype"));
  TensorMeta out = Like(*self, std::move(sizes), dtype.value_or(self->dtype));
  if (std::string device = StatedDevice(node); !device.empty()) out.device = device;
  return CreatedResult(node, std::move(out));
}

Result<double> NumberArg(const Node& node, size_t index, std::string_view name, bool* is_float) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg) return OpError(node, "missing argument '{}'", name);
  if (arg->kind() == Argument::Kind::kInt) return static_cast<double>(arg->as_int());
  if (arg->kind() == Argument::Kind::kFloat) {
    *is_float = true;
    return arg->as_float();
  }
  return OpError(node, "argument '{}' is not a number", name);
}

// arange(end) / arange.start(start, end) / arange.start_step(start, end, step):
// ceil((end - start) / step) elements; int64 unless a bound is a float.
InferFn ArangeInfer(bool has_start, bool has_step) {
  return [has_start, has_step](const Node& node) -> Result<NodeMeta> {
    bool is_float = false;
    double start = 0, step = 1;
    size_t at = 0;
    if (has_start) {
      AIRSCOPE_ASSIGN_OR_RETURN(auto s, NumberArg(node, at++, "start", &is_float));
      start = s;
    }
    AIRSCOPE_ASSIGN_OR_RETURN(auto end, NumberArg(node, at++, "end", &is_float));
    if (has_step) {
      AIRSCOPE_ASSIGN_OR_RETURN(auto s, NumberArg(node, at++, "step", &is_float));
      step = s;
    }
    if (step == 0) return OpError(node, "step must be nonzero");
    double n = std::ceil((end - start) / step);
    if (n < 0) return OpError(node, "upper bound and step are inconsistent: start {} end {} step {}", start, end, step);
    AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 99, "dtype"));
    DType fallback = is_float ? DType::kFloat32 : DType::kInt64;
    return TensorResult(Created(node, {Dim(static_cast<int64_t>(n))}, dtype.value_or(fallback)));
  };
}

// scalar_tensor(s, *, dtype=None, ...): a 0-dim f32 by default.
Result<NodeMeta> InferScalarTensor(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 99, "dtype"));
  return TensorResult(Created(node, {}, dtype.value_or(DType::kFloat32)));
}

// _to_copy(self, *, dtype=None, layout, device=None, ...).
Result<NodeMeta> InferToCopy(const Node& node) { return InferLike(node); }

// copy_(self, src, non_blocking): self, which src must broadcast to.
Result<NodeMeta> InferCopyInplace(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto src, TensorArg(node, 1, "src"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto b, Broadcast(node, self->sizes, src->sizes));
  if (b != self->sizes) {
    return OpError(node, "src {} does not broadcast to self {}", FormatDims(src->sizes), FormatDims(self->sizes));
  }
  return TensorResult(Like(*self, self->sizes));
}

// Sum of sizes along the cat dim: static parts add up; symbols that are
// plain atoms (s0) are counted and spelled as sympy prints their sum
// (`2*s0 + s1`: terms by symbol name, the coefficient first), so a cat of
// [s0] and [s0] is the `2*s0` torch annotates, not `s0 + s0`; compound
// symbols are listed as they come.
Dim SumDims(const std::vector<Dim>& dims) {
  int64_t total = 0;
  std::vector<Dim> symbols;
  for (const Dim& d : dims) {
    if (d.is_static()) {
      total += d.value();
    } else {
      symbols.push_back(d);
    }
  }
  if (symbols.empty()) return Dim(total);
  std::string symbolic;
  if (std::all_of(symbols.begin(), symbols.end(), [](const Dim& d) { return d.is_single_symbol(); })) {
    std::map<std::string, int64_t> counts;
    for (const Dim& d : symbols) ++counts[d.symbol()];
    for (const auto& [symbol, count] : counts) {
      if (!symbolic.empty()) symbolic += " + ";
      symbolic += count == 1 ? symbol : fmt::format("{}*{}", count, symbol);
    }
  } else {
    for (const Dim& d : symbols) symbolic += symbolic.empty() ? d.symbol() : " + " + d.symbol();
  }
  return AddConst(Dim::Symbol(symbolic), total);
}

// cat(tensors, dim=0): all but the cat dim agree; legacy 1-D empty tensors
// ([0]) are skipped as torch does.
Result<NodeMeta> InferCat(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto tensors, TensorListArg(node, 0, "tensors"));
  std::vector<const TensorMeta*> parts;
  DType dtype = DType::kUnknown;
  for (const TensorMeta* t : tensors) {
    dtype = dtype == DType::kUnknown ? t->dtype : PromoteTypes(dtype, t->dtype);
    if (!(t->sizes.size() == 1 && t->sizes[0] == Dim(0))) parts.push_back(t);
  }
  if (parts.empty()) {
    if (tensors.empty()) return OpError(node, "expects a non-empty list of tensors");
    return TensorResult(Like(*tensors[0], {Dim(0)}, dtype));
  }
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, IntArg(node, 1, "dim", 0));
  const std::vector<Dim>& first = parts[0]->sizes;
  AIRSCOPE_ASSIGN_OR_RETURN(auto d, NormalizeDim(node, dim, first.size()));
  if (first.empty()) return OpError(node, "zero-dimensional tensors cannot be concatenated");
  std::vector<Dim> along;
  for (const TensorMeta* t : parts) {
    if (t->sizes.size() != first.size()) {
      return OpError(node, "tensors {} and {} have different ranks", FormatDims(first), FormatDims(t->sizes));
    }
    for (size_t i = 0; i < first.size(); ++i) {
      if (static_cast<int64_t>(i) == d) continue;
      if (first[i].is_static() && t->sizes[i].is_static() && first[i] != t->sizes[i]) {
        return OpError(node, "sizes {} and {} differ in dim {}: {} and {}", FormatDims(first), FormatDims(t->sizes), i,
                       first[i].ToString(), t->sizes[i].ToString());
      }
    }
    along.push_back(t->sizes[d]);
  }
  std::vector<Dim> out = first;
  out[d] = SumDims(along);
  return TensorResult(Like(*parts[0], std::move(out), dtype));
}

// stack(tensors, dim=0): equal shapes, a new dim of len(tensors) at dim.
Result<NodeMeta> InferStack(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto tensors, TensorListArg(node, 0, "tensors"));
  if (tensors.empty()) return OpError(node, "expects a non-empty list of tensors");
  const std::vector<Dim>& first = tensors[0]->sizes;
  DType dtype = tensors[0]->dtype;
  for (const TensorMeta* t : tensors) {
    if (t->sizes.size() != first.size()) {
      return OpError(node, "tensors {} and {} have different shapes", FormatDims(first), FormatDims(t->sizes));
    }
    for (size_t i = 0; i < first.size(); ++i) {
      if (first[i].is_static() && t->sizes[i].is_static() && first[i] != t->sizes[i]) {
        return OpError(node, "sizes {} and {} differ in dim {}: {} and {}", FormatDims(first), FormatDims(t->sizes), i,
                       first[i].ToString(), t->sizes[i].ToString());
      }
    }
    dtype = PromoteTypes(dtype, t->dtype);
  }
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, IntArg(node, 1, "dim", 0));
  AIRSCOPE_ASSIGN_OR_RETURN(auto d, NormalizeDim(node, dim, first.size() + 1));
  std::vector<Dim> out = first;
  out.insert(out.begin() + d, Dim(static_cast<int64_t>(tensors.size())));
  return TensorResult(Like(*tensors[0], std::move(out), dtype));
}

// embedding(weight[num, dim], indices, ...) -> indices.shape + [dim].
Result<NodeMeta> InferEmbedding(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto weight, TensorArg(node, 0, "weight"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto indices, TensorArg(node, 1, "indices"));
  if (weight->sizes.size() != 2) return OpError(node, "weight must be 2-D, got {}", FormatDims(weight->sizes));
  std::vector<Dim> out = indices->sizes;
  out.push_back(weight->sizes[1]);
  return TensorResult(Like(*weight, std::move(out)));
}

// A gather reads the indices and only the rows it returns.
std::optional<OpCost> EmbeddingCost(const Node& node) {
  auto indices = TensorArg(node, 1, "indices");
  auto written = OutputBytes(node);
  if (!indices.ok() || !written) return std::nullopt;
  auto index_bytes = (*indices)->NumBytes();
  if (!index_bytes) return std::nullopt;
  return OpCost{0, static_cast<double>(*index_bytes) + *written, *written};
}

// item / _local_scalar_dense: copy one element to the host. The value is a
// Python number (an unbacked SymInt/SymFloat in a traced graph), so the meta
// is kSymInt; tensors[0] records the 0-dim tensor it came from (its dtype).
Result<NodeMeta> InferHostScalar(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  auto n = self->NumElements();
  if (n && *n != 1) {
    return OpError(node, "a tensor with {} elements cannot be converted to a scalar", *n);
  }
  NodeMeta meta;
  meta.kind = ValueKind::kSymInt;
  meta.source = MetaSource::kInferred;
  meta.tensors.push_back(Like(*self, {}));
  return meta;
}

std::optional<OpCost> HostScalarCost(const Node& node) {
  auto read = InputBytes(node);
  if (!read) return std::nullopt;
  return OpCost{0, *read, 0};
}

// air.scope_enter / scope_exit / record / wait (and the tagged events of
// event_closure) order work between streams;
// they produce no tensor.
Result<NodeMeta> InferStreamControl(const Node&) {
  NodeMeta meta;
  meta.kind = ValueKind::kOpaque;
  meta.source = MetaSource::kInferred;
  return meta;
}

// sym_size.int(self, dim): the size as a SymInt, `Sym(s0)` (or `Sym(4)`).
Result<NodeMeta> InferSymSize(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, IntArg(node, 1, "dim"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto d, NormalizeDim(node, dim, self->sizes.size()));
  if (self->sizes.empty()) return OpError(node, "a 0-dim tensor has no sizes");
  NodeMeta meta;
  meta.kind = ValueKind::kSymInt;
  meta.source = MetaSource::kInferred;
  meta.annotation = fmt::format("Sym({})", self->sizes[d].ToString());
  return meta;
}

// airscope.fused_pointwise.default(*inputs, ops=[...], dtype=..., flops_per_element=...):
// what the fuse_pointwise pass makes of a chain of pointwise ops. Its value
// is pointwise in its inputs (their broadcast sizes, the first tensor's
// device) with the chain's result dtype from the `dtype` kwarg.
Result<NodeMeta> InferFusedPointwise(const Node& node) {
  const TensorMeta* first = nullptr;
  std::vector<Dim> sizes;
  for (size_t i = 0; i < node.args().size(); ++i) {
    if (!node.args()[i].is_node()) continue;
    AIRSCOPE_ASSIGN_OR_RETURN(auto t, TensorArg(node, i, "input"));
    if (!first) {
      first = t;
      sizes = t->sizes;
      continue;
    }
    AIRSCOPE_ASSIGN_OR_RETURN(auto b, Broadcast(node, sizes, t->sizes));
    sizes = std::move(b);
  }
  if (!first) return OpError(node, "no tensor input");
  AIRSCOPE_ASSIGN_OR_RETURN(auto dtype, DTypeArg(node, 99, "dtype"));
  return TensorResult(Like(*first, std::move(sizes), dtype.value_or(first->dtype)));
}

// The fused kernel reads its inputs and writes its output once (the point of
// fusing); its flops are the chain's, given per element by the pass (else 1
// per fused op).
std::optional<OpCost> FusedPointwiseCost(const Node& node) {
  auto read = InputBytes(node);
  auto written = OutputBytes(node);
  auto elements = OutputElements(node);
  if (!read || !written || !elements) return std::nullopt;
  double per_element = 0;
  if (const Argument* f = node.kwarg("flops_per_element"); f && f->kind() == Argument::Kind::kFloat) {
    per_element = f->as_float();
  } else if (const Argument* ops = node.kwarg("ops"); ops && ops->is_sequence()) {
    per_element = static_cast<double>(ops->items().size());
  }
  return OpCost{per_element * *elements, *read, *written};
}

}  // namespace

void RegisterMiscOps(OpRegistry& r) {
  constexpr auto C = OpCategory::kCreation;
  for (const char* name :
       {"aten.ones.default", "aten.zeros.default", "aten.empty.default", "aten.empty.memory_format"}) {
    AddOp(r, name, C, InferFilled, CopyCost());
  }
  AddOp(r, "aten.empty_strided.default", C, InferEmptyStrided, CopyCost());
  AddOp(r, "aten.full.default", C, InferFull, CopyCost());
  AddOp(r, "aten.scalar_tensor.default", C, InferScalarTensor, CopyCost());
  for (const char* name : {"aten.zeros_like.default", "aten.ones_like.default", "aten.empty_like.default",
                           "aten.full_like.default", "aten.rand_like.default", "aten.randn_like.default"}) {
    AddOp(r, name, C, InferLike, CopyCost());
  }
  for (const char* name : {"aten.new_zeros.default", "aten.new_ones.default", "aten.new_empty.default"}) {
    AddOp(r, name, C, InferNewFilled, CopyCost());
  }
  AddOp(r, "aten.arange.default", C, ArangeInfer(false, false), CopyCost());
  AddOp(r, "aten.arange.start", C, ArangeInfer(true, false), CopyCost());
  AddOp(r, "aten.arange.start_step", C, ArangeInfer(true, true), CopyCost());

  constexpr auto K = OpCategory::kCopy;
  AddOp(r, "aten.clone.default", K, InferLikeSelf, CopyCost());
  AddOp(r, "aten.lift_fresh_copy.default", K, InferLikeSelf, CopyCost());
  AddOp(r, "aten._to_copy.default", K, InferToCopy, CopyCost());
  AddOp(r, "aten.copy_.default", K, InferCopyInplace, CopyCost(), /*inplace=*/true);
  // The functional form of copy_ (what functionalization leaves): x with src's values, x's meta.
  AddOp(r, "aten.copy.default", K, InferCopyInplace, CopyCost());
  // *_scatter(self, src, ...): a copy of self with src written into a view of
  // it (the functional form of a write through a view): self's shape and dtype.
  for (const char* name : {"aten.slice_scatter.default", "aten.select_scatter.default", "aten.diagonal_scatter.default",
                           "aten.as_strided_scatter.default"}) {
    AddOp(r, name, K, InferLikeSelf, CopyCost());
  }
  AddOp(r, "aten.cat.default", K, InferCat, CopyCost());
  AddOp(r, "aten.stack.default", K, InferStack, CopyCost());

  AddOp(r, "aten.embedding.default", OpCategory::kOther, InferEmbedding, EmbeddingCost);
  AddOp(r, "aten._local_scalar_dense.default", OpCategory::kOther, InferHostScalar, HostScalarCost);
  AddOp(r, "aten.item.default", OpCategory::kOther, InferHostScalar, HostScalarCost);
  AddOp(r, "aten.sym_size.int", OpCategory::kOther, InferSymSize, ZeroCost());

  for (const char* name : {"air.scope_enter.default", "air.scope_exit.default", "air.record.default",
                           "air.wait.default", "air.tagged_event_record.default", "air.tagged_event_wait.default",
                           // replace_stream_event_pass (torchair/ops/_tagged_event.py:66-272)
                           "air.tagged_event_record_on_stream.default", "air.tagged_event_wait_on_stream.default",
                           "air.tagged_stream_wait_stream.default", "air.record_tagged_stream_.default"}) {
    AddOp(r, name, OpCategory::kStreamControl, InferStreamControl, ZeroCost());
  }
  AddOp(r, "airscope.fused_pointwise.default", OpCategory::kPointwise, InferFusedPointwise, FusedPointwiseCost);
}

}  // namespace airscope

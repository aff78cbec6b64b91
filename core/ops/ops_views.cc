// View ops: a new shape over the same storage (view, reshape, transpose,
// permute, expand, slice, select, split, getitem, ...). They cost nothing:
// no data moves and no math is done.
#include <algorithm>
#include <limits>
#include <optional>

#include "core/ops/op_families.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

// Graphs print `end=None` as sys.maxsize; anything this large means "to the end".
constexpr int64_t kToEnd = std::numeric_limits<int64_t>::max() / 2;

// The target shape of view/reshape with at most one -1, which takes what the
// other sizes leave of the input's element count.
// Errors in torch's words (infer_size_impl, aten/src/ATen/InferSize.h):
// "shape '[32, 128]' is invalid for input of size 8192".
Result<std::vector<Dim>> ResolveShape(const Node& node, const std::vector<Dim>& input, std::vector<Dim> shape) {
  std::optional<size_t> infer_at;
  std::vector<Dim> known;
  for (size_t i = 0; i < shape.size(); ++i) {
    const Dim& d = shape[i];
    if (d.is_static() && d.value() == -1) {
      if (infer_at) return OpError(node, "only one dimension can be inferred in {}", FormatDims(shape));
      infer_at = i;
    } else if (d.is_static() && d.value() < 0) {
      return OpError(node, "invalid shape dimension {} in {}", d.value(), FormatDims(shape));
    } else {
      known.push_back(d);
    }
  }
  DimProduct total = ProductOf(input);
  DimProduct given = ProductOf(known);
  if (infer_at) {
    if (auto q = DivideExact(total, given)) {
      shape[*infer_at] = DimOf(*q);
    } else if (total.is_static() && given.is_static()) {
      return OpError(node, "shape '{}' is invalid for input of size {} (self {})", FormatDims(shape), total.coeff,
                     FormatDims(input));
    } else {
      shape[*infer_at] = Dim::Symbol(fmt::format("({})//({})", DimOf(total).ToString(), DimOf(given).ToString()));
    }
  } else if (total.is_static() && given.is_static() && total.coeff != given.coeff) {
    return OpError(node, "shape '{}' is invalid for input of size {} (self {})", FormatDims(shape), total.coeff,
                   FormatDims(input));
  }
  return shape;
}

// A view's result: its strides are stated when they are not the contiguous
// ones of its sizes (as torch reports them: permute(f32[2,128,8,64],
// [0,2,1,3]) has strides [65536, 64, 512, 1]), and left unstated otherwise.
// The stride rules below are torch's, from aten/src/ATen/native/
// TensorShape.cpp: permute and transpose/t permute the strides (permute,
// transpose), select drops its dim's stride (select), slice multiplies it by
// the step (slice), squeeze drops size-1 dims' strides and unsqueeze inserts
// sizes[d] * strides[d], or 1 at the end (inferSqueezeGeometry,
// inferUnsqueezeGeometry); expand gives new and broadcast dims stride 0
// (aten/src/ATen/ExpandUtils.cpp, inferExpandGeometry).
NodeMeta ViewResult(const TensorMeta& self, std::vector<Dim> sizes, std::vector<Dim> strides) {
  TensorMeta out = Like(self, std::move(sizes));
  if (strides.size() == out.sizes.size() && strides != out.EffectiveStrides()) out.strides = std::move(strides);
  return TensorResult(std::move(out));
}

bool AllStatic(const std::vector<Dim>& dims) {
  return std::all_of(dims.begin(), dims.end(), [](const Dim& d) { return d.is_static(); });
}

// The strides of viewing sizes `old_sizes` with `old_strides` as `new_sizes`,
// or nullopt when no strides can do it (a view across non-contiguous
// chunks): torch's at::detail::computeStride (aten/src/ATen/TensorUtils.cpp,
// computeStride_impl), for static sizes, its numel() == 0 case included.
// view.default raises where it gives nullopt ("view size is not compatible
// with input tensor's size and stride ... Use .reshape(...) instead.",
// TensorShape.cpp view_impl); reshape copies instead (TensorShape.cpp
// reshape: _unsafe_view of a contiguous clone), so its result is contiguous.
std::optional<std::vector<int64_t>> ComputeViewStrides(const std::vector<int64_t>& old_sizes,
                                                       const std::vector<int64_t>& old_strides,
                                                       const std::vector<int64_t>& new_sizes) {
  std::vector<int64_t> new_strides(new_sizes.size(), 1);
  if (old_sizes.empty()) return new_strides;
  int64_t numel = 1;
  for (int64_t s : old_sizes) numel *= s;
  if (numel == 0) {
    if (old_sizes == new_sizes) return old_strides;
    for (size_t i = new_sizes.size(); i-- > 0;) {
      new_strides[i] = i + 1 == new_sizes.size() ? 1 : std::max<int64_t>(new_sizes[i + 1], 1) * new_strides[i + 1];
    }
    return new_strides;
  }
  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  int64_t chunk_base_stride = old_strides.back();
  int64_t tensor_numel = 1;
  int64_t view_numel = 1;
  for (int64_t tensor_d = static_cast<int64_t>(old_sizes.size()) - 1; tensor_d >= 0; --tensor_d) {
    tensor_numel *= old_sizes[static_cast<size_t>(tensor_d)];
    // A chunk ends where the next dim out is not laid right after this one.
    if (tensor_d == 0 || (old_sizes[static_cast<size_t>(tensor_d - 1)] != 1 &&
                          old_strides[static_cast<size_t>(tensor_d - 1)] != tensor_numel * chunk_base_stride)) {
      while (view_d >= 0 && (view_numel < tensor_numel || new_sizes[static_cast<size_t>(view_d)] == 1)) {
        new_strides[static_cast<size_t>(view_d)] = view_numel * chunk_base_stride;
        view_numel *= new_sizes[static_cast<size_t>(view_d)];
        --view_d;
      }
      if (view_numel != tensor_numel) return std::nullopt;
      if (tensor_d > 0) {
        chunk_base_stride = old_strides[static_cast<size_t>(tensor_d - 1)];
        tensor_numel = 1;
        view_numel = 1;
      }
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

std::vector<int64_t> Values(const std::vector<Dim>& dims) {
  std::vector<int64_t> out;
  for (const Dim& d : dims) out.push_back(d.value());
  return out;
}

Result<NodeMeta> InferView(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto shape, DimListArg(node, 1, "size"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto resolved, ResolveShape(node, self->sizes, std::move(shape)));
  // A non-contiguous input keeps its layout where torch can view it, and
  // cannot be viewed where torch cannot; symbolic sizes are taken as contiguous.
  // reshape copies (to a contiguous result) where a view is impossible.
  const TensorMeta& in = *self;
  if (!in.strides.empty() && AllStatic(in.sizes) && AllStatic(in.strides) && AllStatic(resolved)) {
    std::optional<std::vector<int64_t>> strides =
        ComputeViewStrides(Values(in.sizes), Values(in.strides), Values(resolved));
    if (!strides && !node.target().ends_with("aten.view.default")) return TensorResult(Like(in, std::move(resolved)));
    if (!strides) {
      return OpError(node,
                     "view size {} is not compatible with input tensor's size and stride ({} with strides {}): "
                     "at least one dimension spans across two contiguous subspaces (torch says: use .reshape(...))",
                     FormatDims(resolved), FormatDims(in.sizes), FormatDims(in.strides));
    }
    std::vector<Dim> dims(strides->begin(), strides->end());
    return ViewResult(in, std::move(resolved), std::move(dims));
  }
  return TensorResult(Like(in, std::move(resolved)));
}

Result<NodeMeta> InferT(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  std::vector<Dim> sizes = self->sizes;
  if (sizes.size() > 2) return OpError(node, "expects a tensor with <= 2 dims, got {}", FormatDims(sizes));
  std::reverse(sizes.begin(), sizes.end());
  std::vector<Dim> strides = self->EffectiveStrides();
  std::reverse(strides.begin(), strides.end());
  return ViewResult(*self, std::move(sizes), std::move(strides));
}

Result<NodeMeta> InferTranspose(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  std::vector<Dim> sizes = self->sizes;
  AIRSCOPE_ASSIGN_OR_RETURN(auto d0, IntArg(node, 1, "dim0"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto d1, IntArg(node, 2, "dim1"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto a, NormalizeDim(node, d0, sizes.size()));
  AIRSCOPE_ASSIGN_OR_RETURN(auto b, NormalizeDim(node, d1, sizes.size()));
  std::vector<Dim> strides = self->EffectiveStrides();
  if (!sizes.empty()) {
    std::swap(sizes[a], sizes[b]);
    std::swap(strides[a], strides[b]);
  }
  return ViewResult(*self, std::move(sizes), std::move(strides));
}

Result<NodeMeta> InferPermute(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dims, IntListArg(node, 1, "dims"));
  const std::vector<Dim>& in = self->sizes;
  if (dims.size() != in.size()) {
    return OpError(node, "dims has {} entries for a tensor of rank {}", dims.size(), in.size());
  }
  std::vector<bool> seen(in.size(), false);
  std::vector<Dim> out;
  std::vector<Dim> in_strides = self->EffectiveStrides();
  std::vector<Dim> strides;
  for (int64_t d : dims) {
    AIRSCOPE_ASSIGN_OR_RETURN(auto n, NormalizeDim(node, d, in.size()));
    if (seen[n]) return OpError(node, "dim {} repeats in the permutation", d);
    seen[n] = true;
    out.push_back(in[n]);
    strides.push_back(in_strides[n]);
  }
  return ViewResult(*self, std::move(out), std::move(strides));
}

// expand(self, size): new leading dims may be added; -1 keeps a size; only
// size-1 dims can grow.
Result<NodeMeta> InferExpand(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto shape, DimListArg(node, 1, "size"));
  const std::vector<Dim>& in = self->sizes;
  std::vector<Dim> out = std::move(shape);
  if (out.size() < in.size()) {
    return OpError(node, "target {} has fewer dims than input {}", FormatDims(out), FormatDims(in));
  }
  size_t lead = out.size() - in.size();
  // New and broadcast dims repeat the same elements: stride 0, as in torch.
  std::vector<Dim> in_strides = self->EffectiveStrides();
  std::vector<Dim> strides(out.size(), Dim(0));
  for (size_t i = 0; i < out.size(); ++i) {
    Dim& target = out[i];
    bool keep = target.is_static() && target.value() == -1;
    if (i < lead) {
      if (keep) return OpError(node, "-1 is not allowed for the new leading dim {}", i);
      continue;
    }
    const Dim& source = in[i - lead];
    if (keep) {
      target = source;
    } else if (source != target && source != Dim(1) && source.is_static() && target.is_static()) {
      return OpError(node, "cannot expand dim {} of size {} to {}", i - lead, source.ToString(), target.ToString());
    }
    if (source == target) strides[i] = in_strides[i - lead];
  }
  return ViewResult(*self, std::move(out), std::move(strides));
}

Result<NodeMeta> InferUnsqueeze(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, IntArg(node, 1, "dim"));
  std::vector<Dim> sizes = self->sizes;
  AIRSCOPE_ASSIGN_OR_RETURN(auto d, NormalizeDim(node, dim, sizes.size() + 1));
  // torch: the new dim's stride is sizes[d] * strides[d] (1 at the end).
  std::vector<Dim> strides = self->EffectiveStrides();
  size_t at = static_cast<size_t>(d);
  Dim stride(1);
  if (at < strides.size()) {
    const Dim& size = sizes[at];
    const Dim& next = strides[at];
    stride = size.is_static() && next.is_static() ? Dim(size.value() * next.value())
                                                  : Dim::Symbol(fmt::format("{}*{}", size.ToString(), next.ToString()));
  }
  sizes.insert(sizes.begin() + d, Dim(1));
  strides.insert(strides.begin() + d, stride);
  return ViewResult(*self, std::move(sizes), std::move(strides));
}

// squeeze.default drops every size-1 dim; squeeze.dim/.dims only the named
// ones, and only where the size is 1 (others stay, as in torch).
Result<NodeMeta> InferSqueeze(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  const std::vector<Dim>& in = self->sizes;
  bool all = FindArg(node, 1, "dim") == nullptr;
  std::vector<bool> chosen(in.size(), all);
  if (!all) {
    AIRSCOPE_ASSIGN_OR_RETURN(auto dims, IntListArg(node, 1, "dim"));
    for (int64_t d : dims) {
      AIRSCOPE_ASSIGN_OR_RETURN(auto n, NormalizeDim(node, d, in.size()));
      if (static_cast<size_t>(n) < in.size()) chosen[n] = true;
    }
  }
  std::vector<Dim> out;
  std::vector<Dim> in_strides = self->EffectiveStrides();
  std::vector<Dim> strides;
  for (size_t i = 0; i < in.size(); ++i) {
    if (chosen[i] && in[i] == Dim(1)) continue;
    out.push_back(in[i]);
    strides.push_back(in_strides[i]);
  }
  return ViewResult(*self, std::move(out), std::move(strides));
}

// slice(self, dim=0, start=None, end=None, step=1), Python slicing with
// negative indices and clamping.
Result<NodeMeta> InferSlice(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  std::vector<Dim> sizes = self->sizes;
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, IntArg(node, 1, "dim", 0));
  AIRSCOPE_ASSIGN_OR_RETURN(auto d, NormalizeDim(node, dim, sizes.size()));
  AIRSCOPE_ASSIGN_OR_RETURN(auto start_arg, OptionalIntArg(node, 2, "start"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto end_arg, OptionalIntArg(node, 3, "end"));
  auto step = IntArg(node, 4, "step", 1);
  if (!step.ok()) return step.status();
  if (*step < 1) return OpError(node, "step must be positive, got {}", *step);
  if (sizes.empty()) return OpError(node, "cannot slice a 0-dim tensor");
  int64_t start = start_arg.value_or(0);
  int64_t end = end_arg.value_or(std::numeric_limits<int64_t>::max());
  const Dim& size = sizes[d];
  Dim out;
  if (size.is_static()) {
    int64_t n = size.value();
    auto clamp = [n](int64_t i) { return std::clamp(i < 0 ? i + n : i, int64_t{0}, n); };
    int64_t s = clamp(start), e = clamp(end);
    out = Dim(e > s ? (e - s + *step - 1) / *step : 0);
  } else if (*step == 1 && start >= 0 && end >= kToEnd) {
    out = AddConst(size, -start);
  } else if (*step == 1 && start < 0 && end >= kToEnd) {
    out = Dim(-start);  // the last |start| elements; Dynamo guards size >= |start|
  } else if (start >= 0 && end >= 0 && end < kToEnd) {
    out = Dim(end > start ? (end - start + *step - 1) / *step : 0);  // assumes end <= size, as Dynamo guards
  } else {
    out = Dim::Symbol(fmt::format("slice({}, {}, {}, {})", size.ToString(), start, end, *step));
  }
  sizes[d] = out;
  std::vector<Dim> strides = self->EffectiveStrides();
  if (*step != 1) {
    const Dim& stride = strides[d];
    strides[d] =
        stride.is_static() ? Dim(stride.value() * *step) : Dim::Symbol(fmt::format("{}*{}", stride.ToString(), *step));
  }
  return ViewResult(*self, std::move(sizes), std::move(strides));
}

Result<NodeMeta> InferSelect(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  std::vector<Dim> sizes = self->sizes;
  if (sizes.empty()) return OpError(node, "cannot select from a 0-dim tensor");
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, IntArg(node, 1, "dim"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto d, NormalizeDim(node, dim, sizes.size()));
  AIRSCOPE_ASSIGN_OR_RETURN(auto index, IntArg(node, 2, "index"));
  const Dim& size = sizes[d];
  if (size.is_static() && (index >= size.value() || index < -size.value())) {
    return OpError(node, "index {} out of range for dim {} of size {}", index, d, size.value());
  }
  sizes.erase(sizes.begin() + d);
  std::vector<Dim> strides = self->EffectiveStrides();
  strides.erase(strides.begin() + d);
  return ViewResult(*self, std::move(sizes), std::move(strides));
}

Result<NodeMeta> SplitInto(const TensorMeta& self, size_t dim, const std::vector<Dim>& chunks) {
  std::vector<TensorMeta> parts;
  for (const Dim& chunk : chunks) {
    std::vector<Dim> sizes = self.sizes;
    sizes[dim] = chunk;
    parts.push_back(Like(self, std::move(sizes)));
  }
  return TupleResult(std::move(parts));
}

// split(self, split_size, dim=0): chunks of split_size, the last one smaller.
Result<NodeMeta> InferSplit(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto split, IntArg(node, 1, "split_size"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, IntArg(node, 2, "dim", 0));
  AIRSCOPE_ASSIGN_OR_RETURN(auto d, NormalizeDim(node, dim, self->sizes.size()));
  if (self->sizes.empty()) return OpError(node, "cannot split a 0-dim tensor");
  const Dim& size = self->sizes[d];
  if (!size.is_static()) {
    return OpError(node, "dim {} has symbolic size {}; the number of chunks is unknown", d, size.ToString());
  }
  if (split < 0 || (split == 0 && size.value() != 0)) {
    return OpError(node, "split_size {} is invalid for dim {} of size {}", split, d, size.value());
  }
  std::vector<Dim> chunks;
  int64_t n = size.value();
  if (n == 0) chunks.emplace_back(0);  // torch returns one empty chunk
  for (int64_t at = 0; at < n; at += split) chunks.emplace_back(std::min(split, n - at));
  return SplitInto(*self, d, chunks);
}

Result<NodeMeta> InferSplitWithSizes(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto sizes, DimListArg(node, 1, "split_sizes"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, IntArg(node, 2, "dim", 0));
  AIRSCOPE_ASSIGN_OR_RETURN(auto d, NormalizeDim(node, dim, self->sizes.size()));
  if (self->sizes.empty()) return OpError(node, "cannot split a 0-dim tensor");
  const Dim& size = self->sizes[d];
  DimProduct sum;
  sum.coeff = 0;
  bool all_static = true;
  for (const Dim& s : sizes) {
    if (s.is_static())
      sum.coeff += s.value();
    else
      all_static = false;
  }
  if (all_static && size.is_static() && sum.coeff != size.value()) {
    return OpError(node, "split_sizes {} sum to {} but dim {} has size {}", FormatDims(sizes), sum.coeff, d,
                   size.value());
  }
  return SplitInto(*self, d, sizes);
}

Result<NodeMeta> InferUnbind(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto dim, IntArg(node, 1, "dim", 0));
  AIRSCOPE_ASSIGN_OR_RETURN(auto d, NormalizeDim(node, dim, self->sizes.size()));
  if (self->sizes.empty()) return OpError(node, "cannot unbind a 0-dim tensor");
  const Dim& size = self->sizes[d];
  if (!size.is_static()) return OpError(node, "dim {} has symbolic size {}", d, size.ToString());
  std::vector<Dim> rest = self->sizes;
  rest.erase(rest.begin() + d);
  return TupleResult(std::vector<TensorMeta>(static_cast<size_t>(size.value()), Like(*self, rest)));
}

// operator.getitem(tuple, i): element i of a tuple-valued input.
Result<NodeMeta> InferGetitem(const Node& node) {
  const Argument* source = FindArg(node, 0, "a");
  if (!source || !source->is_node()) return OpError(node, "first argument is not a node");
  const Node& input = *source->as_node();
  const NodeMeta* meta = input.meta();
  if (!meta) return OpError(node, "input '{}' has no shape", input.name());
  if (meta->kind != ValueKind::kTuple) return OpError(node, "input '{}' is not a tuple", input.name());
  AIRSCOPE_ASSIGN_OR_RETURN(auto index, IntArg(node, 1, "b"));
  int64_t n = static_cast<int64_t>(meta->tensors.size());
  int64_t i = index < 0 ? index + n : index;
  if (i < 0 || i >= n) {
    return OpError(node, "index {} out of range for '{}' with {} elements", index, input.name(), n);
  }
  const TensorMeta& element = meta->tensors[static_cast<size_t>(i)];
  if (element.dtype == DType::kUnknown && element.sizes.empty()) {
    return OpError(node, "element {} of '{}' is None", i, input.name());
  }
  return TensorResult(element);
}

// _reshape_alias(self, size, stride) and as_strided(self, size, stride, offset):
// the size and strides are given outright, one stride per size
// (torch: "mismatch in length of strides and shape"), none negative.
// _reshape_alias is a reshape: its element count is the input's.
Result<NodeMeta> InferGivenSize(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto shape, DimListArg(node, 1, "size"));
  AIRSCOPE_ASSIGN_OR_RETURN(auto strides, StridesArg(node, 2, shape));
  TensorMeta given = Like(*self, shape);
  given.strides = strides;
  if (Status size = CheckTensorSize(given); !size.ok()) return OpError(node, "{}", size.message());
  if (node.target().ends_with("_reshape_alias.default")) {
    AIRSCOPE_ASSIGN_OR_RETURN(shape, ResolveShape(node, self->sizes, std::move(shape)));  // a reshape's count check
  }
  return ViewResult(*self, std::move(shape), std::move(strides));
}

}  // namespace

void RegisterViewOps(OpRegistry& r) {
  constexpr auto V = OpCategory::kView;
  for (const char* name : {"aten.view.default", "aten._unsafe_view.default", "aten.reshape.default"}) {
    AddOp(r, name, V, InferView, ZeroCost());
  }
  AddOp(r, "aten._reshape_alias.default", V, InferGivenSize, ZeroCost());
  AddOp(r, "aten.as_strided.default", V, InferGivenSize, ZeroCost());
  for (const char* name : {"aten.detach.default", "aten.alias.default", "aten.lift_fresh.default"}) {
    AddOp(r, name, V, InferLikeSelf, ZeroCost());
  }
  AddOp(r, "aten.t.default", V, InferT, ZeroCost());
  AddOp(r, "aten.transpose.int", V, InferTranspose, ZeroCost());
  AddOp(r, "aten.permute.default", V, InferPermute, ZeroCost());
  AddOp(r, "aten.expand.default", V, InferExpand, ZeroCost());
  AddOp(r, "aten.unsqueeze.default", V, InferUnsqueeze, ZeroCost());
  for (const char* name : {"aten.squeeze.default", "aten.squeeze.dim", "aten.squeeze.dims"}) {
    AddOp(r, name, V, InferSqueeze, ZeroCost());
  }
  AddOp(r, "aten.slice.Tensor", V, InferSlice, ZeroCost());
  AddOp(r, "aten.select.int", V, InferSelect, ZeroCost());
  AddOp(r, "aten.split.Tensor", V, InferSplit, ZeroCost());
  AddOp(r, "aten.split_with_sizes.default", V, InferSplitWithSizes, ZeroCost());
  AddOp(r, "aten.unbind.int", V, InferUnbind, ZeroCost());
  AddOp(r, "operator.getitem", V, InferGetitem, ZeroCost());
}

}  // namespace airscope

// Tensor indexing as torch's Python bindings trace it: `x[...]`
// (operator.getitem -> THPVariable_getitem) and `x[...] = v`
// (operator.setitem -> THPVariable_setitem), following
// torch/csrc/autograd/python_variable_indexing.cpp and
// aten/src/ATen/TensorIndexing.h:
//  - one index: an int is select(x, 0, i); a slice is always dispatched
//    (get_item disables the full-slice shortcut): slice(x, 0, start, stop
//    [, step]) with Python's None start/stop as 0 / sys.maxsize; None is
//    unsqueeze(x, 0); Ellipsis is alias(x); a tensor is index.Tensor(x, [t]).
//  - a tuple (applySlicing): ints select (the dim stays), slices slice the
//    current dim unless they are 0:size:1 spelled out, Ellipsis skips the
//    dims nobody names, None unsqueezes, tensors are collected per dim and
//    end in one index.Tensor(result, [None, ..., t]); no op at all is
//    alias(x).
//  - setitem writes into that view: copy_to (same sizes: copy_; else the
//    value viewed without leading 1s, expanded, copy_), or index_put_ when
//    the index has tensors; a Python number becomes scalar_tensor(v, dtype,
//    layout, device) of x's options on a non-CPU device. Functionalization
//    then makes the write a scatter into x (functionalize.cc).
#include <fmt/format.h>

#include <charconv>
#include <limits>

#include "core/analysis/node_util.h"
#include "core/aot/lowering_util.h"

namespace airscope {
namespace {

constexpr int64_t kSliceEnd = std::numeric_limits<int64_t>::max();  // Python's PY_SSIZE_T_MAX

struct IndexItem {
  enum class Kind { kInt, kSlice, kNone, kEllipsis, kTensor } kind = Kind::kNone;
  int64_t value = 0;                              // kInt
  int64_t start = 0, stop = kSliceEnd, step = 1;  // kSlice (None already resolved)
  Argument tensor;                                // kTensor
};

bool IsEllipsis(const Argument& arg) {
  return (arg.kind() == Argument::Kind::kRaw || arg.kind() == Argument::Kind::kString) &&
         (arg.as_string() == "Ellipsis" || arg.as_string() == "...");
}

// `slice(1, 3, None)` as printed by FX: each part None or an int.
bool ParseSlice(std::string_view text, IndexItem* out, std::string* why) {
  if (text.substr(0, 6) != "slice(" || text.back() != ')') return false;
  std::string_view body = text.substr(6, text.size() - 7);
  std::optional<int64_t> parts[3];
  size_t at = 0;
  for (int i = 0; i < 3; ++i) {
    size_t comma = i < 2 ? body.find(',', at) : body.size();
    if (comma == std::string_view::npos) return false;
    std::string_view part = body.substr(at, comma - at);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    if (part != "None") {
      int64_t v = 0;
      auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
      if (ec != std::errc() || end != part.data() + part.size()) {
        *why = fmt::format("slice bound '{}' is not a constant int", part);
        return false;
      }
      parts[i] = v;
    }
    at = comma + 1;
  }
  out->kind = IndexItem::Kind::kSlice;
  out->start = parts[0].value_or(0);
  out->stop = parts[1].value_or(kSliceEnd);
  out->step = parts[2].value_or(1);
  if (out->step <= 0) {
    *why = "a slice step must be greater than zero (torch raises)";
    return false;
  }
  return true;
}

// One element of an index; nullopt with *why when torch's path for it is not modelled.
std::optional<IndexItem> ParseItem(const Argument& arg, std::string* why) {
  IndexItem item;
  if (arg.kind() == Argument::Kind::kInt) {
    item.kind = IndexItem::Kind::kInt;
    item.value = arg.as_int();
    return item;
  }
  if (arg.is_none()) return item;
  if (IsEllipsis(arg)) {
    item.kind = IndexItem::Kind::kEllipsis;
    return item;
  }
  if (arg.kind() == Argument::Kind::kRaw) {
    if (ParseSlice(arg.as_string(), &item, why)) return item;
    if (why->empty()) *why = fmt::format("index '{}' is not modelled", arg.as_string());
    return std::nullopt;
  }
  if (arg.is_node()) {
    const TensorMeta* t = MetaOf(arg);
    if (!t) {
      *why = "a tensor index without a known shape is not modelled";
      return std::nullopt;
    }
    if (t->sizes.empty()) {
      *why = "a 0-dim tensor index (read with .item(), data-dependent) is not modelled";
      return std::nullopt;
    }
    item.kind = IndexItem::Kind::kTensor;
    item.tensor = arg;
    return item;
  }
  *why = arg.kind() == Argument::Kind::kBool ? "a bool index is not modelled"
                                             : "a list index (numpy-style sequence) is not modelled";
  return std::nullopt;
}

// The index as applySlicing sees it (a non-tuple one wrapped in a tuple).
std::optional<std::vector<IndexItem>> ParseIndex(const Argument& index, std::string* why) {
  std::vector<Argument> parts;
  if (index.kind() == Argument::Kind::kTuple) {
    parts.assign(index.items().begin(), index.items().end());
  } else {
    parts.push_back(index);
  }
  std::vector<IndexItem> items;
  for (const Argument& part : parts) {
    auto item = ParseItem(part, why);
    if (!item) return std::nullopt;
    items.push_back(*item);
  }
  return items;
}

Node* SliceOf(AtenBuilder& b, const Argument& self, int64_t dim, const IndexItem& item) {
  std::vector<Argument> args = {self, Argument::Int(dim), Argument::Int(item.start), Argument::Int(item.stop)};
  if (item.step != 1) args.push_back(Argument::Int(item.step));  // step=1 is the schema's default
  return b.Call("aten.slice.Tensor", std::move(args));
}

// applySlicing: the view the basic indices make, and the tensor indices per dim.
struct Sliced {
  Argument value;
  bool same = true;               // no op was recorded (value is self)
  std::vector<Argument> tensors;  // per dim; None where no tensor indexes it
  bool has_tensors = false;
};

std::optional<Sliced> ApplySlicing(AtenBuilder& b, const Argument& self, const std::vector<IndexItem>& items,
                                   std::string* why) {
  const TensorMeta* meta = MetaOf(self);
  if (!meta) {
    *why = "the tensor's shape is unknown";
    return std::nullopt;
  }
  int64_t rank = static_cast<int64_t>(meta->sizes.size());
  int64_t specified = 0;
  for (const IndexItem& item : items) {
    if (item.kind == IndexItem::Kind::kTensor) {
      const TensorMeta* t = MetaOf(item.tensor);
      bool mask = t->dtype == DType::kBool || t->dtype == DType::kUInt8;
      specified += mask ? static_cast<int64_t>(t->sizes.size()) : 1;
    } else if (item.kind == IndexItem::Kind::kInt || item.kind == IndexItem::Kind::kSlice) {
      ++specified;
    }
  }
  if (specified > rank) {
    *why = fmt::format("too many indices for a tensor of dimension {}", rank);
    return std::nullopt;
  }
  Sliced out;
  out.value = self;
  int64_t dim = 0;
  for (const IndexItem& item : items) {
    switch (item.kind) {
      case IndexItem::Kind::kInt:
        out.value = Ref(b.Call("aten.select.int", {out.value, Argument::Int(dim), Argument::Int(item.value)}));
        out.same = false;
        break;
      case IndexItem::Kind::kSlice: {
        // applySlice's shortcut: start 0, stop == the dim's length, step 1 records nothing.
        const TensorMeta* now = MetaOf(out.value);
        bool whole = now && dim < static_cast<int64_t>(now->sizes.size()) && now->sizes[dim].is_static() &&
                     item.start == 0 && item.step == 1 && item.stop == now->sizes[dim].value();
        if (!whole) {
          out.value = Ref(SliceOf(b, out.value, dim, item));
          out.same = false;
        }
        ++dim;
        break;
      }
      case IndexItem::Kind::kEllipsis: dim += rank - specified; break;
      case IndexItem::Kind::kNone:
        out.value = Ref(b.Call("aten.unsqueeze.default", {out.value, Argument::Int(dim)}));
        out.same = false;
        ++dim;
        break;
      case IndexItem::Kind::kTensor:
        // recordTensorIndex: the tensor indexes this dim; earlier unindexed dims get None.
        out.tensors.resize(dim + 1, Argument::None());
        out.tensors[dim] = item.tensor;
        out.has_tensors = true;
        ++dim;
        break;
    }
  }
  return out;
}

LoweringResult GetItem(AtenBuilder& b, const TorchCall& call, std::string* why) {
  const Argument& self = call.args.at(0);
  const Argument& index = call.args.at(1);
  if (self.is_sequence() && index.kind() == Argument::Kind::kInt) {
    // `x.size()[0]`: an element of a value `size` made (a dim or its sym_size node).
    int64_t i = index.as_int() < 0 ? index.as_int() + static_cast<int64_t>(self.items().size()) : index.as_int();
    if (i >= 0 && i < static_cast<int64_t>(self.items().size())) return self.items()[i];
    *why = "the index is out of range";
    return std::nullopt;
  }
  if (!self.is_node()) {
    *why = "it indexes a value that is not a node";
    return std::nullopt;
  }
  const NodeMeta* meta = self.as_node()->meta();
  bool tensor = meta && meta->kind == ValueKind::kTensor;
  // getitem of a multi-output op stays getitem (AOT prints `getitem = flex_attention[0]`).
  if (!tensor) return Ref(b.Call("operator.getitem", {self, index}));
  auto items = ParseIndex(index, why);
  if (!items) return std::nullopt;
  if (index.kind() != Argument::Kind::kTuple) {
    // THPVariable_getitem's single-index paths.
    const IndexItem& item = (*items)[0];
    switch (item.kind) {
      case IndexItem::Kind::kNone: return Ref(b.Call("aten.unsqueeze.default", {self, Argument::Int(0)}));
      case IndexItem::Kind::kEllipsis: return Ref(b.Call("aten.alias.default", {self}));
      case IndexItem::Kind::kInt:
        return Ref(b.Call("aten.select.int", {self, Argument::Int(0), Argument::Int(item.value)}));
      case IndexItem::Kind::kSlice: return Ref(SliceOf(b, self, 0, item));
      case IndexItem::Kind::kTensor: break;  // wrapped in a tuple: applySlicing
    }
  }
  auto sliced = ApplySlicing(b, self, *items, why);
  if (!sliced) return std::nullopt;
  if (!sliced->has_tensors) {
    // ensure a shallow copy for things like x[...] (at::alias)
    if (sliced->same) return Ref(b.Call("aten.alias.default", {self}));
    return sliced->value;
  }
  return Ref(b.Call("aten.index.Tensor", {sliced->value, Argument::List(sliced->tensors)}));
}

// at::indexing::copy_to(dst, src).
void CopyTo(AtenBuilder& b, const Argument& dst, const Argument& src) {
  const TensorMeta* d = MetaOf(dst);
  const TensorMeta* s = MetaOf(src);
  if (d && s && d->sizes == s->sizes) {
    b.Call("aten.copy_.default", {dst, src});
    return;
  }
  if (s && s->sizes.empty() && s->device == "cpu") {
    b.Call("aten.fill_.Tensor", {dst, src});
    return;
  }
  // slicePrefix1sSize: strip away unit dimensions from the left of src.
  std::vector<Argument> kept;
  if (s) {
    size_t first = 0;
    while (first < s->sizes.size() && s->sizes[first].is_static() && s->sizes[first].value() == 1) ++first;
    for (size_t i = first; i < s->sizes.size(); ++i) {
      const Dim& size = s->sizes[i];
      kept.push_back(size.is_static() ? Argument::Int(size.value()) : Argument::Raw(size.ToString()));
    }
  }
  Node* view = b.Call("aten.view.default", {src, Argument::List(kept)});
  Argument expanded = Ref(view);
  // expand_inplace: expanded only when the sizes differ.
  if (d && view->tensor() && view->tensor()->sizes != d->sizes) {
    std::vector<Argument> sizes;
    for (const Dim& size : d->sizes) {
      sizes.push_back(size.is_static() ? Argument::Int(size.value()) : Argument::Raw(size.ToString()));
    }
    expanded = Ref(b.Call("aten.expand.default", {expanded, Argument::List(sizes)}));
  }
  b.Call("aten.copy_.default", {dst, expanded});
}

LoweringResult SetItem(AtenBuilder& b, const TorchCall& call, std::string* why) {
  if (call.args.size() != 3 || !call.args[0].is_node()) {
    *why = "setitem of a value that is not a node";
    return std::nullopt;
  }
  const Argument& self = call.args[0];
  const TensorMeta* meta = MetaOf(self);
  if (!meta) {
    *why = "the tensor's shape is unknown";
    return std::nullopt;
  }
  Argument value = call.args[2];
  if (value.kind() == Argument::Kind::kInt || value.kind() == Argument::Kind::kFloat ||
      value.kind() == Argument::Kind::kBool) {
    // valueToTensor -> scalarToTensor: on CPU a constant made outside the
    // dispatcher (scalar_tensor_static), elsewhere at::scalar_tensor(v, x.options()).
    Device device;
    if (meta->device.empty() || !Device::Parse(meta->device, &device)) {
      *why = "the tensor's device is not stated (torch makes the number a tensor on it)";
      return std::nullopt;
    }
    if (device.type == "cpu") {
      *why = "a number written into a CPU tensor (a constant tensor made outside the dispatcher) is not modelled";
      return std::nullopt;
    }
    value = Ref(b.Call("aten.scalar_tensor.default", {value},
                       {{"dtype", Argument::OfDType(meta->dtype)},
                        {"layout", Argument::OfLayout(Layout::kStrided)},
                        {"device", Argument::OfDevice(device)}}));
  } else if (!TensorValue(value)) {
    *why = "the value is neither a tensor nor a number";
    return std::nullopt;
  }
  const Argument& index = call.args[1];
  if (index.kind() == Argument::Kind::kBool && !index.as_bool()) return self;  // x[False] = v does nothing
  auto items = ParseIndex(index, why);
  if (!items) return std::nullopt;
  if (index.kind() != Argument::Kind::kTuple) {
    const IndexItem& item = (*items)[0];
    switch (item.kind) {
      case IndexItem::Kind::kEllipsis: CopyTo(b, self, value); return self;
      case IndexItem::Kind::kNone:
        CopyTo(b, Ref(b.Call("aten.unsqueeze.default", {self, Argument::Int(0)})), value);
        return self;
      case IndexItem::Kind::kInt:
        CopyTo(b, Ref(b.Call("aten.select.int", {self, Argument::Int(0), Argument::Int(item.value)})), value);
        return self;
      case IndexItem::Kind::kSlice:
        break;  // the same shortcut rule as a tuple's slice (set_item passes disable_slice_optimization)
      case IndexItem::Kind::kTensor: break;
    }
  }
  auto sliced = ApplySlicing(b, self, *items, why);
  if (!sliced) return std::nullopt;
  if (!sliced->has_tensors) {
    CopyTo(b, sliced->value, value);
    return self;
  }
  // index_put_ with the value viewed without its leading 1s.
  const TensorMeta* v = MetaOf(value);
  if (v) {
    size_t first = 0;
    while (first < v->sizes.size() && v->sizes[first].is_static() && v->sizes[first].value() == 1) ++first;
    if (first > 0) {
      std::vector<Argument> kept;
      for (size_t i = first; i < v->sizes.size(); ++i) {
        kept.push_back(v->sizes[i].is_static() ? Argument::Int(v->sizes[i].value())
                                               : Argument::Raw(v->sizes[i].ToString()));
      }
      value = Ref(b.Call("aten.view.default", {value, Argument::List(kept)}));
    }
  }
  b.Call("aten.index_put_.default", {sliced->value, Argument::List(sliced->tensors), value});
  return self;
}

}  // namespace

void AddIndexingLowerings(LoweringTable& table) {
  table["getitem"] = GetItem;
  table["setitem"] = SetItem;
}

}  // namespace airscope

#include "core/pass/inductor_noop_table.h"

#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/analysis/known_strides.h"
#include "core/analysis/node_util.h"
#include "core/ops/op_helpers.h"
#include "core/ops/op_registry.h"

namespace airscope {
namespace {

constexpr int64_t kMaxInt64 = std::numeric_limits<int64_t>::max();  // torch's 2**63 - 1

const Node* Arg0(const Node& node) { return FindNodeArg(node, 0, "self"); }
const Node* Arg1(const Node& node) { return FindNodeArg(node, 1, "src"); }
const Node* FirstCatInput(const Node& node) {  // cat's lambda args: args[0][0]
  const Argument* tensors = FindArg(node, 0, "tensors");
  if (!tensors || !tensors->is_sequence() || tensors->items().empty()) return nullptr;
  const Argument& first = tensors->items()[0];
  return first.is_node() ? first.as_node() : nullptr;
}

// A size-like argument as a Dim: a Python int, or a SymInt node (`Sym(s0)`).
std::optional<Dim> DimOf(const Argument& arg) {
  if (arg.kind() == Argument::Kind::kInt) return Dim(arg.as_int());
  if (!arg.is_node() || !arg.as_node()->meta()) return std::nullopt;
  const NodeMeta& meta = *arg.as_node()->meta();
  std::string_view text = meta.annotation;
  if (meta.kind != ValueKind::kSymInt || !text.starts_with("Sym(") || !text.ends_with(")")) return std::nullopt;
  text = text.substr(4, text.size() - 5);
  bool digits = !text.empty() && text.find_first_not_of("0123456789-") == std::string_view::npos;
  if (digits) return Dim(std::stoll(std::string(text)));
  return Dim::Symbol(std::string(text));
}

// statically_known_true(a == b) for an argument and a size.
bool KnownEqual(const Argument* arg, const Dim& dim) {
  if (!arg) return false;
  std::optional<Dim> d = DimOf(*arg);
  return d && *d == dim;
}
bool IsInt(const Argument* arg, int64_t value) {
  return arg && arg->kind() == Argument::Kind::kInt && arg->as_int() == value;
}
// The dim'th size of `tensor` (Python indexing: negative counts from the end).
std::optional<Dim> SizeAt(const TensorMeta& tensor, const Argument* dim_arg) {
  int64_t dim = dim_arg ? (dim_arg->kind() == Argument::Kind::kInt ? dim_arg->as_int() : -kMaxInt64) : 0;
  int64_t rank = static_cast<int64_t>(tensor.sizes.size());
  if (dim < -rank || dim >= rank) return std::nullopt;
  return tensor.sizes[dim < 0 ? dim + rank : dim];
}
// end >= 2**63-1 or end >= size, statically.
bool EndCoversAll(const Argument* end, const Dim& size) {
  if (!end || end->kind() != Argument::Kind::kInt) return false;
  if (end->as_int() == kMaxInt64) return true;
  return size.is_static() && end->as_int() >= size.value();
}

// slice_noop(self, dim=0, start=None, end=None, step=1)
bool SliceNoop(const Node& node) {
  const TensorMeta* self = TensorOf(Arg0(node));
  const Argument* start = FindArg(node, 2, "start");
  const Argument* end = FindArg(node, 3, "end");
  const Argument* step = FindArg(node, 4, "step");
  if (!self || !start || start->is_none() || !end || end->is_none()) return false;  // Inductor: None -> False
  std::optional<Dim> size = SizeAt(*self, FindArg(node, 1, "dim"));
  return size && IsInt(start, 0) && EndCoversAll(end, *size) && (!step || IsInt(step, 1));
}

// slice_scatter_noop(self, src, dim=0, start=None, end=None, step=1)
bool SliceScatterNoop(const Node& node) {
  const TensorMeta* self = TensorOf(Arg0(node));
  const TensorMeta* src = TensorOf(Arg1(node));
  if (!self || !src || self->sizes != src->sizes) return false;
  const Argument* start = FindArg(node, 3, "start");
  const Argument* end = FindArg(node, 4, "end");
  const Argument* step = FindArg(node, 5, "step");
  std::optional<Dim> size = SizeAt(*self, FindArg(node, 2, "dim"));
  bool start_zero = !start || start->is_none() || IsInt(start, 0);
  bool end_all = !end || end->is_none() || (size && EndCoversAll(end, *size));
  return size && start_zero && end_all && (!step || IsInt(step, 1));
}

bool AllInts(const Argument* list, int64_t value) {
  if (!list || !list->is_sequence()) return false;
  for (const Argument& item : list->items()) {
    if (!IsInt(&item, value)) return false;
  }
  return true;
}
bool RepeatNoop(const Node& node) { return AllInts(FindArg(node, 1, "repeats"), 1); }
bool ConstantPadNoop(const Node& node) { return AllInts(FindArg(node, 1, "pad"), 0); }

bool ConvertElementTypeNoop(const Node& node) {
  const TensorMeta* x = TensorOf(Arg0(node));
  const Argument* dtype = FindArg(node, 1, "dtype");
  return x && dtype && dtype->kind() == Argument::Kind::kDType && x->dtype == dtype->as_dtype();
}

// x.device == decode_device(device): a device without an index is the
// current one, which airscope's simulated device numbers 0.
bool DevicePutNoop(const Node& node) {
  const TensorMeta* x = TensorOf(Arg0(node));
  const Argument* device = FindArg(node, 1, "device");
  if (!x || x->device.empty() || !device || device->kind() != Argument::Kind::kDevice) return false;
  std::string wanted = device->as_device().ToString();
  if (wanted.find(':') == std::string::npos && wanted != "cpu") wanted += ":0";
  return wanted == x->device;
}

// is_integer_dtype: the signed and unsigned integer types, not bool.
bool IntNoop(const Node& node) {
  const TensorMeta* x = TensorOf(Arg0(node));
  return x != nullptr && IsIntegral(x->dtype);
}

// pow_noop(a, b): isinstance(b, int) and b == 1 (1.0 is a float: not a noop).
bool PowNoop(const Node& node) { return IsInt(FindArg(node, 1, "exponent"), 1); }

bool CatNoop(const Node& node) {
  const Argument* tensors = FindArg(node, 0, "tensors");
  return tensors && tensors->is_sequence() && tensors->items().size() == 1;
}

// view_default_noop: sym_eq(arg.shape, tuple(size)); a -1 never equals a size.
bool ViewDefaultNoop(const Node& node) {
  const TensorMeta* x = TensorOf(Arg0(node));
  const Argument* size = FindArg(node, 1, "size");
  if (!x || !size || !size->is_sequence() || size->items().size() != x->sizes.size()) return false;
  for (size_t i = 0; i < x->sizes.size(); ++i) {
    if (!KnownEqual(&size->items()[i], x->sizes[i])) return false;
  }
  return true;
}

bool ViewDtypeNoop(const Node& node) { return ConvertElementTypeNoop(node); }

bool TrueNoop(const Node&) { return true; }

const std::map<std::string, NoopRule, std::less<>>& NoopRules() {
  static const auto* table = new std::map<std::string, NoopRule, std::less<>>{
      {"aten.slice.Tensor", {Arg0, SliceNoop}},
      {"aten.slice_scatter.default", {Arg1, SliceScatterNoop}},
      {"aten.repeat.default", {Arg0, RepeatNoop}},
      {"aten.constant_pad_nd.default", {Arg0, ConstantPadNoop}},
      {"prims.convert_element_type.default", {Arg0, ConvertElementTypeNoop}},
      {"prims.device_put.default", {Arg0, DevicePutNoop}},
      {"aten.ceil.default", {Arg0, IntNoop}},
      {"aten.floor.default", {Arg0, IntNoop}},
      {"aten.round.default", {Arg0, IntNoop}},
      {"aten.trunc.default", {Arg0, IntNoop}},
      {"aten.pow.Tensor_Scalar", {Arg0, PowNoop}},
      {"aten.cat.default", {FirstCatInput, CatNoop}},
      {"aten.view.default", {Arg0, ViewDefaultNoop}},
      {"aten.view.dtype", {Arg0, ViewDtypeNoop}},
      {"aten.copy.default", {Arg1, TrueNoop}},
      {"aten.alias.default", {Arg0, TrueNoop}},
      {"aten.clone.default", {Arg0, TrueNoop}},
  };
  return *table;
}

}  // namespace

const NoopRule* FindNoopRule(std::string_view target) {
  auto it = NoopRules().find(StripTorchOps(target));
  return it == NoopRules().end() ? nullptr : &it->second;
}

bool SameMeta(const Node& a, const Node& b) {
  const TensorMeta* x = TensorOf(&a);
  const TensorMeta* y = TensorOf(&b);
  if (!x || !y || x->dtype == DType::kUnknown || x->sizes != y->sizes || x->dtype != y->dtype ||
      x->device != y->device) {
    return false;
  }
  // Strides as torch has them, where airscope knows (same_meta compares them).
  const KnownStrides sa = KnownStridesOf(&a);
  const KnownStrides sb = KnownStridesOf(&b);
  return sa.strides.has_value() && sb.strides.has_value() && *sa.strides == *sb.strides;
}

}  // namespace airscope

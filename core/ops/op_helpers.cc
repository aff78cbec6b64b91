#include "core/ops/op_helpers.h"

#include <charconv>
#include <cmath>

#include "core/ir/graph.h"

namespace airscope {
namespace {

enum class Category { kBool, kInt, kFloat, kComplex };

Category CategoryOf(DType t) {
  if (t == DType::kBool) return Category::kBool;
  if (t == DType::kComplex32 || t == DType::kComplex64 || t == DType::kComplex128) return Category::kComplex;
  if (IsFloatingPoint(t)) return Category::kFloat;
  return Category::kInt;
}

bool IsUnsigned(DType t) {
  return t == DType::kUInt8 || t == DType::kUInt16 || t == DType::kUInt32 || t == DType::kUInt64;
}

DType SignedOfSize(int size) {
  switch (size) {
    case 1: return DType::kInt8;
    case 2: return DType::kInt16;
    case 4: return DType::kInt32;
    default: return DType::kInt64;
  }
}

DType ToComplex(DType t) {
  if (t == DType::kFloat64) return DType::kComplex128;
  if (t == DType::kFloat16) return DType::kComplex32;
  return DType::kComplex64;
}

// c10's combine_categories: a lower-priority operand only matters when it
// is of a higher category than the higher-priority result.
DType CombineCategories(DType higher, DType lower) {
  if (higher == DType::kUnknown) return lower;
  if (lower == DType::kUnknown) return higher;
  if (CategoryOf(higher) == Category::kComplex) return higher;
  if (CategoryOf(lower) == Category::kComplex) {
    return CategoryOf(higher) == Category::kFloat ? ToComplex(higher) : lower;
  }
  if (CategoryOf(higher) == Category::kFloat) return higher;
  if (higher == DType::kBool || CategoryOf(lower) == Category::kFloat) return PromoteTypes(higher, lower);
  return higher;
}

DType PromoteSkipUnknown(DType a, DType b) {
  if (a == DType::kUnknown) return b;
  if (b == DType::kUnknown) return a;
  return PromoteTypes(a, b);
}

// "Sym(s0)" -> "s0".
std::string SymbolOfNode(const Node& n) {
  const NodeMeta* meta = n.meta();
  if (meta && meta->kind == ValueKind::kSymInt) {
    std::string_view a = meta->annotation;
    if (a.substr(0, 4) == "Sym(" && a.size() > 5 && a.back() == ')') return std::string(a.substr(4, a.size() - 5));
    if (!a.empty()) return std::string(a);
  }
  return n.name();
}

Result<const TensorMeta*> TensorOfArgument(const Node& node, const Argument& arg, std::string_view name) {
  if (!arg.is_node()) return OpError(node, "argument '{}' is not a tensor", name);
  const Node* input = arg.as_node();
  const NodeMeta* meta = input->meta();
  if (!meta || !meta->tensor()) {
    if (meta && meta->kind == ValueKind::kTuple) {
      return OpError(node, "input '{}' is a tuple, not a tensor", input->name());
    }
    return OpError(node, "input '{}' has no shape", input->name());
  }
  return meta->tensor();
}

void AddTensorBytes(const NodeMeta* meta, double* total, bool* known) {
  if (!meta) {
    *known = false;
    return;
  }
  if (meta->kind != ValueKind::kTensor && meta->kind != ValueKind::kTuple) return;
  for (const TensorMeta& t : meta->tensors) {
    if (t.dtype == DType::kUnknown && t.sizes.empty()) continue;  // a None element
    auto bytes = t.NumBytes();
    if (!bytes) {
      *known = false;
      return;
    }
    *total += static_cast<double>(*bytes);
  }
}

}  // namespace

std::string OpLabel(const Node& node) {
  std::string_view t = StripTorchOps(node.target());
  size_t first = t.find('.');
  if (first == std::string_view::npos) return std::string(t);
  std::string_view rest = t.substr(first + 1);
  size_t second = rest.find('.');
  return std::string(second == std::string_view::npos ? rest : rest.substr(0, second));
}

const Argument* FindArg(const Node& node, size_t index, std::string_view name) {
  if (index < node.args().size()) return &node.args()[index];
  return node.kwarg(name);
}

Node* FindNodeArg(const Node& node, size_t index, std::string_view name) {
  const Argument* arg = FindArg(node, index, name);
  return arg && arg->is_node() ? arg->as_node() : nullptr;
}

Result<const TensorMeta*> TensorArg(const Node& node, size_t index, std::string_view name) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg) return OpError(node, "missing argument '{}'", name);
  return TensorOfArgument(node, *arg, name);
}

Result<const TensorMeta*> OptionalTensorArg(const Node& node, size_t index, std::string_view name) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg || arg->is_none()) return static_cast<const TensorMeta*>(nullptr);
  return TensorOfArgument(node, *arg, name);
}

Result<std::vector<const TensorMeta*>> TensorListArg(const Node& node, size_t index, std::string_view name) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg || !arg->is_sequence()) return OpError(node, "argument '{}' is not a list of tensors", name);
  std::vector<const TensorMeta*> out;
  for (const Argument& item : arg->items()) {
    AIRSCOPE_ASSIGN_OR_RETURN(auto t, TensorOfArgument(node, item, name));
    out.push_back(t);
  }
  return out;
}

Result<int64_t> IntArg(const Node& node, size_t index, std::string_view name, std::optional<int64_t> fallback) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg || arg->is_none()) {
    if (fallback) return *fallback;
    return OpError(node, "missing argument '{}'", name);
  }
  if (arg->kind() == Argument::Kind::kInt) return arg->as_int();
  if (arg->kind() == Argument::Kind::kBool) return static_cast<int64_t>(arg->as_bool());
  return OpError(node, "argument '{}' is not an int", name);
}

Result<std::optional<int64_t>> OptionalIntArg(const Node& node, size_t index, std::string_view name) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg || arg->is_none()) return std::optional<int64_t>();
  if (arg->kind() == Argument::Kind::kInt) return std::optional<int64_t>(arg->as_int());
  return OpError(node, "argument '{}' is not an int", name);
}

Result<bool> BoolArg(const Node& node, size_t index, std::string_view name, bool fallback) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg || arg->is_none()) return fallback;
  if (arg->kind() == Argument::Kind::kBool) return arg->as_bool();
  if (arg->kind() == Argument::Kind::kInt) return arg->as_int() != 0;
  return OpError(node, "argument '{}' is not a bool", name);
}

Result<std::vector<int64_t>> IntListArg(const Node& node, size_t index, std::string_view name,
                                        std::optional<std::vector<int64_t>> fallback) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg || arg->is_none()) {
    if (fallback) return *fallback;
    return OpError(node, "missing argument '{}'", name);
  }
  if (arg->kind() == Argument::Kind::kInt) return std::vector<int64_t>{arg->as_int()};
  if (!arg->is_sequence()) return OpError(node, "argument '{}' is not a list of ints", name);
  std::vector<int64_t> out;
  for (const Argument& item : arg->items()) {
    if (item.kind() != Argument::Kind::kInt) return OpError(node, "argument '{}' is not a list of ints", name);
    out.push_back(item.as_int());
  }
  return out;
}

Result<std::vector<Dim>> DimListArg(const Node& node, size_t index, std::string_view name) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg) return OpError(node, "missing argument '{}'", name);
  std::vector<Argument> single;
  std::span<const Argument> items;
  if (arg->is_sequence()) {
    items = arg->items();
  } else {
    single.push_back(*arg);
    items = single;
  }
  std::vector<Dim> out;
  for (const Argument& item : items) {
    switch (item.kind()) {
      case Argument::Kind::kInt: out.emplace_back(item.as_int()); break;
      case Argument::Kind::kNode: {
        // A SymInt node whose value is known (`Sym(4)`) is a static size.
        std::string symbol = SymbolOfNode(*item.as_node());
        int64_t value = 0;
        auto [ptr, ec] = std::from_chars(symbol.data(), symbol.data() + symbol.size(), value);
        if (ec == std::errc() && ptr == symbol.data() + symbol.size()) {
          out.emplace_back(value);
        } else {
          out.push_back(Dim::Symbol(std::move(symbol)));
        }
        break;
      }
      case Argument::Kind::kString:
      case Argument::Kind::kRaw: out.push_back(Dim::Symbol(item.as_string())); break;
      default: return OpError(node, "argument '{}' is not a list of sizes", name);
    }
  }
  return out;
}

Result<std::vector<Dim>> StridesArg(const Node& node, size_t index, const std::vector<Dim>& sizes) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto strides, DimListArg(node, index, "stride"));
  if (strides.size() != sizes.size()) {
    return OpError(node, "mismatch in length of strides and shape ({} strides for size {})", strides.size(),
                   FormatDims(sizes));
  }
  return strides;
}

Result<std::optional<DType>> DTypeArg(const Node& node, size_t index, std::string_view name) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg || arg->is_none()) return std::optional<DType>();
  if (arg->kind() == Argument::Kind::kDType) return std::optional<DType>(arg->as_dtype());
  if (arg->kind() == Argument::Kind::kRaw || arg->kind() == Argument::Kind::kString) {
    if (auto t = ParseTorchDType(arg->as_string())) return std::optional<DType>(*t);
  }
  return OpError(node, "argument '{}' is not a dtype", name);
}

std::string DeviceKwarg(const Node& node) {
  const Argument* arg = node.kwarg("device");
  if (!arg) return "";
  if (arg->kind() == Argument::Kind::kDevice) return arg->as_device().ToString();
  if (arg->kind() == Argument::Kind::kString) return arg->as_string();
  return "";
}

Result<int64_t> NormalizeDim(const Node& node, int64_t dim, size_t rank) {
  int64_t r = std::max<int64_t>(static_cast<int64_t>(rank), 1);  // torch wraps scalars as rank 1
  if (dim < -r || dim >= r) {
    return OpError(node, "dim {} out of range for a tensor of rank {}", dim, rank);
  }
  return dim < 0 ? dim + r : dim;
}

Result<std::vector<Dim>> Broadcast(const Node& node, std::span<const Dim> a, std::span<const Dim> b) {
  size_t rank = std::max(a.size(), b.size());
  std::vector<Dim> out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Aligned from the right; a missing leading dim acts as 1.
    Dim da = i < rank - a.size() ? Dim(1) : a[i - (rank - a.size())];
    Dim db = i < rank - b.size() ? Dim(1) : b[i - (rank - b.size())];
    if (da == db || db == Dim(1)) {
      out[i] = da;
    } else if (da == Dim(1)) {
      out[i] = db;
    } else if (da.is_static() && db.is_static()) {
      return OpError(node, "cannot broadcast {} with {}: dims {} and {} differ", FormatDims(a), FormatDims(b),
                     da.ToString(), db.ToString());
    } else {
      out[i] = da.is_static() ? da : (db.is_static() ? db : da);
    }
  }
  return out;
}

DType PromoteTypes(DType a, DType b) {
  if (a == b) return a;
  if (a == DType::kUnknown || b == DType::kUnknown) return DType::kUnknown;
  Category ca = CategoryOf(a), cb = CategoryOf(b);
  if (ca != cb) {
    if (ca < cb) std::swap(a, b), std::swap(ca, cb);  // a is now the higher category
    if (ca == Category::kComplex && cb == Category::kFloat && ItemSize(b) * 2 > ItemSize(a)) return ToComplex(b);
    return a;
  }
  switch (ca) {
    case Category::kBool: return a;
    case Category::kInt: {
      if (IsUnsigned(a) == IsUnsigned(b)) return ItemSize(a) >= ItemSize(b) ? a : b;
      DType s = IsUnsigned(a) ? b : a, u = IsUnsigned(a) ? a : b;
      if (ItemSize(s) > ItemSize(u)) return s;
      return SignedOfSize(std::min(ItemSize(u) * 2, 8));
    }
    case Category::kFloat:
      // Same-size floats of different formats (f16/bf16, the f8s) meet in f32.
      if (ItemSize(a) == ItemSize(b)) return DType::kFloat32;
      return ItemSize(a) > ItemSize(b) ? a : b;
    case Category::kComplex: return ItemSize(a) >= ItemSize(b) ? a : b;
  }
  return a;
}

Result<Operand> OperandArg(const Node& node, size_t index, std::string_view name) {
  const Argument* arg = FindArg(node, index, name);
  if (!arg) return OpError(node, "missing argument '{}'", name);
  Operand op;
  switch (arg->kind()) {
    case Argument::Kind::kBool:
      op.dtype = DType::kBool;
      op.is_scalar = true;
      return op;
    case Argument::Kind::kInt:
      op.dtype = DType::kInt64;
      op.is_scalar = true;
      return op;
    case Argument::Kind::kFloat:
      op.dtype = DType::kFloat32;
      op.is_scalar = true;
      return op;
    case Argument::Kind::kRaw: {
      // Printed floats the loader kept verbatim (`inf`, `-inf`, `nan`).
      std::string_view t = arg->as_string();
      if (t.find_first_of(".en") != std::string_view::npos) {
        op.dtype = DType::kFloat32;
        op.is_scalar = true;
        return op;
      }
      return OpError(node, "argument '{}' ({}) is not a number or tensor", name, t);
    }
    case Argument::Kind::kNode: {
      const NodeMeta* meta = arg->as_node()->meta();
      if (meta && meta->kind == ValueKind::kSymInt) {
        op.dtype = DType::kInt64;
        op.is_scalar = true;
        return op;
      }
      AIRSCOPE_ASSIGN_OR_RETURN(auto t, TensorOfArgument(node, *arg, name));
      op.tensor = t;
      op.dtype = t->dtype;
      return op;
    }
    default: return OpError(node, "argument '{}' is not a number or tensor", name);
  }
}

DType ResultType(std::span<const Operand> operands) {
  DType dim_result = DType::kUnknown, zero_result = DType::kUnknown, scalar_result = DType::kUnknown;
  for (const Operand& op : operands) {
    if (op.is_scalar) {
      scalar_result = PromoteSkipUnknown(scalar_result, op.dtype);
    } else if (op.tensor && op.tensor->sizes.empty()) {
      zero_result = PromoteSkipUnknown(zero_result, op.dtype);
    } else {
      dim_result = PromoteSkipUnknown(dim_result, op.dtype);
    }
  }
  return CombineCategories(dim_result, CombineCategories(zero_result, scalar_result));
}

TensorMeta Like(const TensorMeta& like, std::vector<Dim> sizes) { return Like(like, std::move(sizes), like.dtype); }

TensorMeta Like(const TensorMeta& like, std::vector<Dim> sizes, DType dtype) {
  TensorMeta out;
  out.dtype = dtype;
  out.sizes = std::move(sizes);
  out.device = like.device;
  return out;
}

Result<NodeMeta> InferLikeSelf(const Node& node) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto self, TensorArg(node, 0, "self"));
  return TensorResult(Like(*self, self->sizes));
}

TensorMeta NoneElement() { return TensorMeta{}; }

NodeMeta TensorResult(TensorMeta tensor) {
  NodeMeta meta;
  meta.kind = ValueKind::kTensor;
  meta.source = MetaSource::kInferred;
  meta.tensors.push_back(std::move(tensor));
  return meta;
}

NodeMeta TupleResult(std::vector<TensorMeta> tensors) {
  NodeMeta meta;
  meta.kind = ValueKind::kTuple;
  meta.source = MetaSource::kInferred;
  meta.tensors = std::move(tensors);
  return meta;
}

std::optional<double> InputBytes(const Node& node) {
  double total = 0;
  bool known = true;
  for (const Node* input : node.inputs()) AddTensorBytes(input->meta(), &total, &known);
  if (!known) return std::nullopt;
  return total;
}

std::optional<double> OutputBytes(const Node& node) {
  double total = 0;
  bool known = true;
  AddTensorBytes(node.meta(), &total, &known);
  if (!known) return std::nullopt;
  return total;
}

std::optional<double> Elements(const TensorMeta* tensor) {
  if (!tensor) return std::nullopt;
  auto n = tensor->NumElements();
  if (!n) return std::nullopt;
  return static_cast<double>(*n);
}

std::optional<double> OutputElements(const Node& node) {
  const NodeMeta* meta = node.meta();
  if (!meta || meta->tensors.empty()) return std::nullopt;
  return Elements(&meta->tensors[0]);
}

CostFn ElementwiseCost(double flops_per_element) {
  return [flops_per_element](const Node& node) -> std::optional<OpCost> {
    auto elements = OutputElements(node);
    auto read = InputBytes(node);
    auto written = OutputBytes(node);
    if (!elements || !read || !written) return std::nullopt;
    return OpCost{flops_per_element * *elements, *read, *written};
  };
}

CostFn ZeroCost() {
  return [](const Node&) -> std::optional<OpCost> { return OpCost{}; };
}

CostFn CopyCost() {
  return [](const Node& node) -> std::optional<OpCost> {
    auto read = InputBytes(node);
    auto written = OutputBytes(node);
    if (!read || !written) return std::nullopt;
    return OpCost{0, *read, *written};
  };
}

void AddOp(OpRegistry& registry, std::string name, OpCategory category, InferFn infer, CostFn cost, bool inplace) {
  OpInfo info;
  info.name = std::move(name);
  info.category = category;
  info.infer = std::move(infer);
  info.cost = std::move(cost);
  info.inplace = inplace;
  registry.Register(std::move(info));
}

}  // namespace airscope

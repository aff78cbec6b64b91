#include "core/dynamo/guards.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

namespace airscope {
namespace {

std::string DeviceArg(std::string_view device) {
  size_t colon = device.find(':');
  if (device == "cpu" || colon == std::string_view::npos) return device.substr(0, 3) == "npu" ? "0" : "None";
  return std::string(device.substr(colon + 1));
}

std::string DimText(const DimGuard& dim) {
  return dim.kind == DimKind::kStatic && !dim.specialized ? fmt::format("{}", dim.value) : "None";
}

// The shape-env guards of a symbol's first source, as Dynamo prints them.
// Gears: guard_bool(min <= d <= max) refines the symbol's range, printed as
// one; each guard_bool(d <= left | d >= right) is a sympy Or of relations
// canonicalized to <= (symbolic_shapes.canonicalize_bool_expr), printed by
// sympy's StrPrinter as `(a) | (b)`.
std::vector<std::string> ShapeGuards(const DimGuard& dim, const std::string& source) {
  if (dim.kind == DimKind::kGears) {
    std::vector<std::string> lines;
    if (dim.gears.empty()) return lines;
    lines.push_back(fmt::format("{} <= {} <= {}", dim.gears.front(), source, dim.gears.back()));
    for (size_t i = 0; i + 1 < dim.gears.size(); ++i) {
      lines.push_back(fmt::format("({} <= {}) | ({} <= {})", source, dim.gears[i], dim.gears[i + 1], source));
    }
    return lines;
  }
  if (dim.max == std::numeric_limits<int64_t>::max()) return {fmt::format("{} <= {}", dim.min, source)};
  return {fmt::format("{} <= {} <= {}", dim.min, source, dim.max)};
}

// Whether size `v` passes ShapeGuards(dim)[k].
bool PassesShapeGuard(const DimGuard& dim, size_t k, int64_t v) {
  if (dim.kind != DimKind::kGears) return v >= dim.min && v <= dim.max;
  if (k == 0) return v >= dim.gears.front() && v <= dim.gears.back();
  return v <= dim.gears[k - 1] || v >= dim.gears[k];
}

std::string TypeIdGuard(const std::string& source, PyScalar::Type type) {
  std::string_view name = type == PyScalar::Type::kBool    ? "bool"
                          : type == PyScalar::Type::kFloat ? "float"
                          : type == PyScalar::Type::kStr   ? "str"
                                                           : "int";
  return fmt::format("___check_type_id({}, <id({})>)", source, name);
}

// Whether call input `in` passes scalar guard `g`, and the first failing
// guard's text when not.
std::optional<std::string> ScalarFailure(const ScalarGuard& g, const std::string& name, const CallInput& in) {
  std::string source = fmt::format("L['{}']", name);
  if (g.type == PyScalar::Type::kBool) {
    // ID_MATCH: True and False are singletons.
    if (!in.scalar || in.scalar->type != PyScalar::Type::kBool || in.scalar->value != g.value.value) {
      return fmt::format("___check_obj_id({}, <id({})>)", source, g.value.repr);
    }
    return std::nullopt;
  }
  if (!in.scalar || in.scalar->type != g.type) return TypeIdGuard(source, g.type);
  if (!g.symbolic && !(*in.scalar == g.value)) return fmt::format("{} == {}", source, g.value.repr);
  return std::nullopt;
}

}  // namespace

std::string_view DimKindName(DimKind kind) {
  switch (kind) {
    case DimKind::kStatic: return "static";
    case DimKind::kSymbolic: return "symbolic";
    case DimKind::kGears: return "gears";
  }
  return "?";
}

std::string_view ScalarTypeName(DType dtype) {
  switch (dtype) {
    case DType::kFloat32: return "Float";
    case DType::kFloat16: return "Half";
    case DType::kBFloat16: return "BFloat16";
    case DType::kFloat64: return "Double";
    case DType::kFloat8E4M3Fn: return "Float8_e4m3fn";
    case DType::kFloat8E5M2: return "Float8_e5m2";
    case DType::kInt8: return "Char";
    case DType::kInt16: return "Short";
    case DType::kInt32: return "Int";
    case DType::kInt64: return "Long";
    case DType::kUInt8: return "Byte";
    case DType::kUInt16: return "UInt16";
    case DType::kUInt32: return "UInt32";
    case DType::kUInt64: return "UInt64";
    case DType::kBool: return "Bool";
    case DType::kComplex32: return "ComplexHalf";
    case DType::kComplex64: return "ComplexFloat";
    case DType::kComplex128: return "ComplexDouble";
    case DType::kUnknown: break;
  }
  return "Undefined";
}

std::string DispatchKeySetFor(std::string_view device) {
  std::string_view type = device.substr(0, device.find(':'));
  std::string backend = type == "npu" ? "PrivateUse1" : type == "cuda" ? "CUDA" : type == "meta" ? "Meta" : "CPU";
  return fmt::format("DispatchKeySet({0}, BackendSelect, ADInplaceOrView, Autograd{0})", backend);
}

std::string SizeSource(std::string_view input, size_t dim) { return fmt::format("L['{}'].size()[{}]", input, dim); }

TensorMeta TensorGuard::ToMeta() const {
  TensorMeta meta;
  if (scalar) return meta;  // not a tensor
  meta.dtype = dtype;
  meta.device = device;
  bool dynamic = false;
  for (const DimGuard& dim : sizes) {
    meta.sizes.push_back(dim.kind == DimKind::kStatic ? Dim(dim.value) : Dim::Symbol(dim.symbol));
    dynamic = dynamic || dim.kind != DimKind::kStatic;
  }
  // Strides are stated only when they are not the contiguous ones.
  bool contiguous = true;
  int64_t expect = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (!strides[i]) break;
    if (*strides[i] != expect) contiguous = false;
    if (sizes[i].kind != DimKind::kStatic) break;
    expect *= std::max<int64_t>(sizes[i].value, 1);
  }
  if (!contiguous && !dynamic) {
    for (const auto& s : strides) meta.strides.push_back(Dim(s.value_or(0)));
  }
  return meta;
}

GuardSet::GuardSet(std::vector<TensorGuard> tensors) : tensors_(std::move(tensors)) { Compile(); }

void GuardSet::Compile() {
  checks_.clear();
  gears_.clear();
  std::map<std::string, std::pair<uint16_t, uint16_t>> first_use;  // symbol -> (input, dim)
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const TensorGuard& t = tensors_[i];
    auto in = static_cast<uint16_t>(i);
    if (t.scalar) {
      checks_.push_back({Op::kScalar, in, 0, 0, 0, 0, 0});
      continue;
    }
    checks_.push_back({Op::kHeader, in, 0, 0, 0,
                       static_cast<int64_t>(PackHeader(t.dtype, DeviceCode(t.device), t.requires_grad, t.sizes.size())),
                       0});
    for (size_t d = 0; d < t.sizes.size(); ++d) {
      const DimGuard& dim = t.sizes[d];
      auto dd = static_cast<uint16_t>(d);
      if (dim.kind == DimKind::kStatic) {
        checks_.push_back({Op::kSize, in, dd, 0, 0, dim.value, 0});
        continue;
      }
      auto [it, fresh] = first_use.emplace(dim.symbol, std::make_pair(in, dd));
      if (!fresh) {
        checks_.push_back({Op::kEqual, in, dd, it->second.first, it->second.second, 0, 0});
      } else if (dim.kind == DimKind::kGears) {
        checks_.push_back(
            {Op::kGears, in, dd, 0, 0, static_cast<int64_t>(gears_.size()), static_cast<int64_t>(dim.gears.size())});
        gears_.insert(gears_.end(), dim.gears.begin(), dim.gears.end());
      } else {
        checks_.push_back({Op::kRange, in, dd, 0, 0, dim.min, dim.max});
      }
    }
    for (size_t d = 0; d < t.strides.size(); ++d) {
      if (t.strides[d]) checks_.push_back({Op::kStride, in, static_cast<uint16_t>(d), 0, 0, *t.strides[d], 0});
    }
  }
}

bool GuardSet::Check(std::span<const CallInput> inputs) const {
  if (inputs.size() != tensors_.size()) return false;
  for (const FlatCheck& c : checks_) {
    const CallInput& in = inputs[c.input];
    switch (c.op) {
      case Op::kHeader:
        if (in.scalar || in.header != static_cast<uint64_t>(c.a)) return false;
        break;
      case Op::kScalar:
        if (ScalarFailure(*tensors_[c.input].scalar, tensors_[c.input].name, in)) return false;
        break;
      case Op::kSize:
        if (in.sizes[c.dim] != c.a) return false;
        break;
      case Op::kStride:
        if (in.strides[c.dim] != c.a) return false;
        break;
      case Op::kRange: {
        int64_t v = in.sizes[c.dim];
        if (v < c.a || v > c.b) return false;
        break;
      }
      case Op::kGears: {
        int64_t v = in.sizes[c.dim];
        const int64_t* begin = gears_.data() + c.a;
        if (std::find(begin, begin + c.b, v) == begin + c.b) return false;
        break;
      }
      case Op::kEqual:
        if (in.sizes[c.dim] != inputs[c.other_input].sizes[c.other_dim]) return false;
        break;
    }
  }
  return true;
}

std::optional<std::string> GuardSet::FirstFailure(std::span<const CallInput> inputs) const {
  if (inputs.size() != tensors_.size()) {
    return fmt::format("len(L) == {} (got {} inputs)", tensors_.size(), inputs.size());
  }
  // The tensor checks first, in check_tensor's own order; then the shape env.
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const TensorGuard& t = tensors_[i];
    const CallInput& in = inputs[i];
    if (t.scalar) {
      if (std::optional<std::string> failed = ScalarFailure(*t.scalar, t.name, in)) return failed;
      continue;
    }
    std::string prefix = fmt::format("tensor '{}'", t.name);
    if (in.scalar) {
      return fmt::format("{} is not a torch.Tensor", prefix);
    }
    if (DispatchKeySetFor(t.device) != DispatchKeySetFor(in.device)) {
      return fmt::format("{} dispatch key set mismatch. expected {}, actual {}", prefix, DispatchKeySetFor(t.device),
                         DispatchKeySetFor(in.device));
    }
    if (t.dtype != in.dtype) {
      return fmt::format("{} dtype mismatch. expected {}, actual {}", prefix, ScalarTypeName(t.dtype),
                         ScalarTypeName(in.dtype));
    }
    if (DeviceCode(t.device) != DeviceCode(in.device)) {
      return fmt::format("{} device index mismatch. expected {}, actual {}", prefix, DeviceArg(t.device),
                         DeviceArg(in.device));
    }
    if (t.requires_grad != in.requires_grad) {
      return fmt::format("{} requires_grad mismatch. expected requires_grad={}", prefix, t.requires_grad ? 1 : 0);
    }
    if (t.sizes.size() != in.sizes.size()) {
      return fmt::format("{} rank mismatch. expected {}, actual {}", prefix, t.sizes.size(), in.sizes.size());
    }
    for (size_t d = 0; d < t.sizes.size(); ++d) {
      if (t.sizes[d].kind == DimKind::kStatic && !t.sizes[d].specialized && t.sizes[d].value != in.sizes[d]) {
        return fmt::format("{} size mismatch at index {}. expected {}, actual {}", prefix, d, t.sizes[d].value,
                           in.sizes[d]);
      }
    }
    for (size_t d = 0; d < t.strides.size(); ++d) {
      if (t.strides[d] && *t.strides[d] != in.strides[d]) {
        return fmt::format("{} stride mismatch at index {}. expected {}, actual {}", prefix, d, *t.strides[d],
                           in.strides[d]);
      }
    }
  }
  std::map<std::string, std::pair<size_t, size_t>> first_use;
  for (size_t i = 0; i < tensors_.size(); ++i) {
    if (tensors_[i].scalar) continue;
    for (size_t d = 0; d < tensors_[i].sizes.size(); ++d) {
      const DimGuard& dim = tensors_[i].sizes[d];
      int64_t v = inputs[i].sizes[d];
      std::string source = SizeSource(tensors_[i].name, d);
      if (dim.kind == DimKind::kStatic) {
        if (dim.specialized && v != dim.value) return fmt::format("{} == {}  # {} = {}", source, dim.value, source, v);
        continue;
      }
      auto [it, fresh] = first_use.emplace(dim.symbol, std::make_pair(i, d));
      if (!fresh) {
        auto [oi, od] = it->second;
        if (inputs[oi].sizes[od] != v) {
          return fmt::format("{} == {}  # {} != {}", source, SizeSource(tensors_[oi].name, od), v,
                             inputs[oi].sizes[od]);
        }
        continue;
      }
      std::vector<std::string> guards = ShapeGuards(dim, source);
      for (size_t k = 0; k < guards.size(); ++k) {
        if (!PassesShapeGuard(dim, k, v)) return fmt::format("{}  # {} = {}", guards[k], source, v);
      }
    }
  }
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> GuardSet::InputGuards(size_t i) const {
  const TensorGuard& t = tensors_[i];
  if (!t.scalar) return {{"TENSOR_MATCH", TensorLines()[i]}};
  std::string source = fmt::format("L['{}']", t.name);
  const ScalarGuard& g = *t.scalar;
  if (g.type == PyScalar::Type::kBool) {
    return {{"ID_MATCH", fmt::format("___check_obj_id({}, <id({})>)", source, g.value.repr)}};
  }
  std::vector<std::pair<std::string, std::string>> guards = {{"TYPE_MATCH", TypeIdGuard(source, g.type)}};
  if (!g.symbolic) guards.emplace_back("EQUALS_MATCH", fmt::format("{} == {}", source, g.value.repr));
  return guards;
}

size_t GuardSet::count() const {
  size_t n = ShapeEnvLines().size();
  for (const TensorGuard& t : tensors_) {
    n += !t.scalar ? 1 : t.scalar->type == PyScalar::Type::kBool || t.scalar->symbolic ? 1 : 2;
  }
  return n;
}

std::vector<std::string> GuardSet::TensorLines() const {
  std::vector<std::string> lines;
  for (size_t i = 0; i < tensors_.size(); ++i) {
    const TensorGuard& t = tensors_[i];
    if (t.scalar) {
      std::vector<std::string> parts;
      for (const auto& [kind, text] : InputGuards(i)) parts.push_back(text);
      lines.push_back(fmt::format("{}", fmt::join(parts, " and ")));
      continue;
    }
    std::vector<std::string> sizes, strides;
    for (const DimGuard& d : t.sizes) sizes.push_back(DimText(d));
    for (const auto& s : t.strides) strides.push_back(s ? fmt::format("{}", *s) : "None");
    lines.push_back(
        fmt::format("check_tensor(L['{}'], Tensor, {}, {}, device={}, requires_grad={}, size=[{}], stride=[{}])",
                    t.name, DispatchKeySetFor(t.device), TorchName(t.dtype), DeviceArg(t.device),
                    t.requires_grad ? "True" : "False", fmt::join(sizes, ", "), fmt::join(strides, ", ")));
  }
  return lines;
}

std::vector<std::string> GuardSet::ShapeEnvLines() const {
  std::vector<std::string> lines;
  std::map<std::string, std::string> first_source;
  for (const TensorGuard& t : tensors_) {
    if (t.scalar) continue;  // a SymInt is an unspecified symbol: no range guards
    for (size_t d = 0; d < t.sizes.size(); ++d) {
      const DimGuard& dim = t.sizes[d];
      std::string source = SizeSource(t.name, d);
      if (dim.kind == DimKind::kStatic) {
        if (dim.specialized) lines.push_back(fmt::format("{} == {}", source, dim.value));
        continue;
      }
      auto [it, fresh] = first_source.emplace(dim.symbol, source);
      if (!fresh) {
        lines.push_back(fmt::format("{} == {}", source, it->second));
      } else {
        for (std::string& line : ShapeGuards(dim, source)) lines.push_back(std::move(line));
      }
    }
  }
  return lines;
}

}  // namespace airscope

#include "core/ir/argument.h"

#include <array>
#include <cassert>
#include <charconv>
#include <cmath>

#include <fmt/format.h>

#include "core/ir/node.h"

namespace airscope {
namespace {

constexpr std::array<std::string_view, 4> kMemoryFormatNames = {"torch.contiguous_format", "torch.preserve_format",
                                                                "torch.channels_last", "torch.channels_last_3d"};
constexpr std::array<std::string_view, 8> kLayoutNames = {"torch.strided",    "torch.sparse_coo", "torch.sparse_csr",
                                                          "torch.sparse_csc", "torch.sparse_bsr", "torch.sparse_bsc",
                                                          "torch._mkldnn",    "torch.jagged"};

template <typename Enum, size_t N>
bool ParseTorchEnum(std::string_view text, const std::array<std::string_view, N>& names, Enum* out) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == text || names[i].substr(6) == text) {
      *out = static_cast<Enum>(i);
      return true;
    }
  }
  return false;
}

bool IsIdentifierChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

}  // namespace

std::string_view TorchName(MemoryFormat format) { return kMemoryFormatNames[static_cast<size_t>(format)]; }
std::string_view TorchName(Layout layout) { return kLayoutNames[static_cast<size_t>(layout)]; }
bool ParseMemoryFormat(std::string_view text, MemoryFormat* out) {
  return ParseTorchEnum(text, kMemoryFormatNames, out);
}
bool ParseLayout(std::string_view text, Layout* out) { return ParseTorchEnum(text, kLayoutNames, out); }

std::string Device::ToString() const { return index < 0 ? type : fmt::format("{}:{}", type, index); }

std::string Device::Repr() const {
  return index < 0 ? fmt::format("device(type='{}')", type) : fmt::format("device(type='{}', index={})", type, index);
}

bool Device::Parse(std::string_view text, Device* out) {
  // torch's device types; anything else is not a device spec.
  static constexpr std::array<std::string_view, 12> kTypes = {"cpu", "cuda", "npu",  "meta",          "mps", "xpu",
                                                              "hpu", "xla",  "lazy", "privateuseone", "ipu", "mtia"};
  size_t colon = text.find(':');
  std::string_view type = text.substr(0, colon);
  bool known = false;
  for (std::string_view t : kTypes) known = known || t == type;
  if (!known) return false;
  int index = -1;
  if (colon != std::string_view::npos) {
    std::string_view digits = text.substr(colon + 1);
    if (digits.empty()) return false;
    auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    if (ec != std::errc() || ptr != digits.data() + digits.size() || index < 0) return false;
  }
  for (char c : type) {
    if (!IsIdentifierChar(c)) return false;
  }
  out->type = std::string(type);
  out->index = index;
  return true;
}

Argument Argument::Bool(bool value) { return Argument(Storage(value)); }
Argument Argument::Int(int64_t value) { return Argument(Storage(value)); }
Argument Argument::Float(double value) { return Argument(Storage(value)); }
Argument Argument::String(std::string value) {
  return Argument(Storage(StringBox{std::make_shared<const std::string>(std::move(value)), false}));
}
Argument Argument::Raw(std::string text) {
  return Argument(Storage(StringBox{std::make_shared<const std::string>(std::move(text)), true}));
}
Argument Argument::NodeRef(Node* node) {
  assert(node != nullptr);
  return Argument(Storage(node));
}
Argument Argument::List(std::vector<Argument> items) {
  return Argument(Storage(ListBox{std::make_shared<const std::vector<Argument>>(std::move(items)), false}));
}
Argument Argument::Tuple(std::vector<Argument> items) {
  return Argument(Storage(ListBox{std::make_shared<const std::vector<Argument>>(std::move(items)), true}));
}
Argument Argument::OfDType(DType dtype) { return Argument(Storage(dtype)); }
Argument Argument::OfDevice(Device device) {
  return Argument(Storage(DeviceBox{std::make_shared<const Device>(std::move(device))}));
}
Argument Argument::OfMemoryFormat(MemoryFormat format) { return Argument(Storage(format)); }
Argument Argument::OfLayout(Layout layout) { return Argument(Storage(layout)); }

Argument::Kind Argument::kind() const {
  switch (storage_.index()) {
    case 0: return Kind::kNone;
    case 1: return Kind::kBool;
    case 2: return Kind::kInt;
    case 3: return Kind::kFloat;
    case 4: return std::get<StringBox>(storage_).raw ? Kind::kRaw : Kind::kString;
    case 5: return Kind::kNode;
    case 6: return std::get<ListBox>(storage_).tuple ? Kind::kTuple : Kind::kList;
    case 7: return Kind::kDType;
    case 8: return Kind::kDevice;
    case 9: return Kind::kMemoryFormat;
    default: return Kind::kLayout;
  }
}

bool Argument::as_bool() const { return std::get<bool>(storage_); }
int64_t Argument::as_int() const { return std::get<int64_t>(storage_); }
double Argument::as_float() const { return std::get<double>(storage_); }
const std::string& Argument::as_string() const { return *std::get<StringBox>(storage_).text; }
DType Argument::as_dtype() const { return std::get<DType>(storage_); }
const Device& Argument::as_device() const { return *std::get<DeviceBox>(storage_).device; }
MemoryFormat Argument::as_memory_format() const { return std::get<MemoryFormat>(storage_); }
Layout Argument::as_layout() const { return std::get<Layout>(storage_); }

bool Argument::ContainsNode() const {
  if (is_node()) return true;
  if (!is_sequence()) return false;
  for (const Argument& item : items()) {
    if (item.ContainsNode()) return true;
  }
  return false;
}

bool Argument::SameAs(const Argument& other) const {
  Kind k = kind();
  if (k != other.kind()) return false;
  switch (k) {
    case Kind::kNone: return true;
    case Kind::kBool: return as_bool() == other.as_bool();
    case Kind::kInt: return as_int() == other.as_int();
    case Kind::kFloat: {
      double a = as_float(), b = other.as_float();
      return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
    }
    case Kind::kString:
    case Kind::kRaw: return as_string() == other.as_string();
    case Kind::kNode: return as_node()->name() == other.as_node()->name();
    case Kind::kList:
    case Kind::kTuple: {
      auto a = items(), b = other.items();
      if (a.size() != b.size()) return false;
      for (size_t i = 0; i < a.size(); ++i) {
        if (!a[i].SameAs(b[i])) return false;
      }
      return true;
    }
    case Kind::kDType: return as_dtype() == other.as_dtype();
    case Kind::kDevice: return as_device() == other.as_device();
    case Kind::kMemoryFormat: return as_memory_format() == other.as_memory_format();
    case Kind::kLayout: return as_layout() == other.as_layout();
  }
  return false;
}

bool SameArgs(std::span<const Argument> a, std::span<const Argument> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!a[i].SameAs(b[i])) return false;
  }
  return true;
}

bool SameKwargs(std::span<const Kwarg> a, std::span<const Kwarg> b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || !a[i].value.SameAs(b[i].value)) return false;
  }
  return true;
}

}  // namespace airscope

// Argument: one value in a node's args or kwargs, as torch.fx allows them:
// None, bool, int, float (incl. inf/-inf/nan), str, a node reference,
// list/tuple of arguments, torch.dtype, torch.device, torch.memory_format,
// torch.layout, and Raw: text airscope could not interpret, kept verbatim so
// that nothing a loader saw is ever lost.
//
// An Argument is an immutable value, cheap to copy (24 bytes; strings and
// lists are shared, never mutated in place). Node references are raw
// pointers owned by the Graph; only the Graph may build arguments that point
// at its nodes into a node (it keeps `users` consistent).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "core/ir/dtype.h"

namespace airscope {

class Node;

enum class MemoryFormat : uint8_t { kContiguous, kPreserve, kChannelsLast, kChannelsLast3d };
enum class Layout : uint8_t { kStrided, kSparseCoo, kSparseCsr, kSparseCsc, kSparseBsr, kSparseBsc, kMkldnn, kJagged };

// `torch.contiguous_format` ... and back.
std::string_view TorchName(MemoryFormat format);
std::string_view TorchName(Layout layout);
bool ParseMemoryFormat(std::string_view text, MemoryFormat* out);  // with or without `torch.`
bool ParseLayout(std::string_view text, Layout* out);

struct Device {
  std::string type;  // "cpu", "cuda", "npu", "meta", ...
  int index = -1;    // -1: no index
  // torch's str(): "cpu", "npu:0".
  std::string ToString() const;
  // torch's repr(): "device(type='cpu')", "device(type='npu', index=0)".
  std::string Repr() const;
  // Parses "cpu", "npu:0", "cuda". Rejects anything that is not a device spec.
  static bool Parse(std::string_view text, Device* out);
  bool operator==(const Device&) const = default;
};

class Argument {
 public:
  enum class Kind : uint8_t {
    kNone,
    kBool,
    kInt,
    kFloat,
    kString,
    kNode,
    kList,
    kTuple,
    kDType,
    kDevice,
    kMemoryFormat,
    kLayout,
    kRaw,
  };

  Argument() = default;  // None
  static Argument None() { return Argument(); }
  static Argument Bool(bool value);
  static Argument Int(int64_t value);
  static Argument Float(double value);
  static Argument String(std::string value);
  static Argument NodeRef(Node* node);
  static Argument List(std::vector<Argument> items);
  static Argument Tuple(std::vector<Argument> items);
  static Argument OfDType(DType dtype);
  static Argument OfDevice(Device device);
  static Argument OfMemoryFormat(MemoryFormat format);
  static Argument OfLayout(Layout layout);
  // Text kept verbatim; printed back exactly as given in every format.
  static Argument Raw(std::string text);

  Kind kind() const;
  // Inline: passes ask these of every argument of every node.
  bool is_none() const { return storage_.index() == kNoneIndex; }
  bool is_node() const { return storage_.index() == kNodeIndex; }
  bool is_sequence() const { return storage_.index() == kListIndex; }

  // Accessors assert on the wrong kind.
  bool as_bool() const;
  int64_t as_int() const;
  double as_float() const;
  const std::string& as_string() const;  // kString and kRaw
  Node* as_node() const { return std::get<Node*>(storage_); }
  std::span<const Argument> items() const { return *std::get<ListBox>(storage_).items; }  // kList and kTuple
  DType as_dtype() const;
  const Device& as_device() const;
  MemoryFormat as_memory_format() const;
  Layout as_layout() const;

  // Calls fn(Node*) for every node reference, depth first, in order.
  template <typename Fn>
  void ForEachNode(Fn&& fn) const {
    if (is_node()) {
      fn(as_node());
    } else if (is_sequence()) {
      for (const Argument& item : items()) item.ForEachNode(fn);
    }
  }
  bool ContainsNode() const;
  // Returns a copy with every node reference n replaced by fn(n).
  template <typename Fn>
  Argument MapNodes(Fn&& fn) const {
    if (is_node()) return NodeRef(fn(as_node()));
    if (!is_sequence() || !ContainsNode()) return *this;
    std::vector<Argument> mapped;
    mapped.reserve(items().size());
    for (const Argument& item : items()) mapped.push_back(item.MapNodes(fn));
    return kind() == Kind::kList ? List(std::move(mapped)) : Tuple(std::move(mapped));
  }

  // Structural equality; node references compare by node name, so arguments
  // of two different graphs can be compared.
  bool SameAs(const Argument& other) const;

 private:
  struct StringBox {
    std::shared_ptr<const std::string> text;
    bool raw;
  };
  struct ListBox {
    std::shared_ptr<const std::vector<Argument>> items;
    bool tuple;
  };
  struct DeviceBox {
    std::shared_ptr<const Device> device;
  };
  using Storage = std::variant<std::monostate, bool, int64_t, double, StringBox, Node*, ListBox, DType, DeviceBox,
                               MemoryFormat, Layout>;
  // Indices of Storage's alternatives, for the inline tests above.
  static constexpr size_t kNoneIndex = 0, kNodeIndex = 5, kListIndex = 6;
  static_assert(std::is_same_v<std::variant_alternative_t<kNoneIndex, Storage>, std::monostate>);
  static_assert(std::is_same_v<std::variant_alternative_t<kNodeIndex, Storage>, Node*>);
  static_assert(std::is_same_v<std::variant_alternative_t<kListIndex, Storage>, ListBox>);
  explicit Argument(Storage storage) : storage_(std::move(storage)) {}
  Storage storage_;
};

struct Kwarg {
  std::string name;
  Argument value;
};

// Element-wise Argument::SameAs (same length, same values in order); for
// kwargs the names match too, in the same order.
bool SameArgs(std::span<const Argument> a, std::span<const Argument> b);
bool SameKwargs(std::span<const Kwarg> a, std::span<const Kwarg> b);

}  // namespace airscope

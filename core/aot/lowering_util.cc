// Shared helpers of the lowering rules (lowering_util.h).
#include "core/aot/lowering_util.h"

#include <algorithm>

namespace airscope {

Argument Ref(Node* node) { return Argument::NodeRef(node); }

// A node known to make one tensor.
bool TensorValue(const Argument& arg) { return arg.is_node() && arg.as_node()->tensor() != nullptr; }

std::optional<double> NumberOf(const Argument* arg) {
  if (!arg) return std::nullopt;
  if (arg->kind() == Argument::Kind::kInt) return static_cast<double>(arg->as_int());
  if (arg->kind() == Argument::Kind::kFloat) return arg->as_float();
  return std::nullopt;
}
std::optional<bool> BoolOf(const Argument* arg, bool fallback) {
  if (!arg || arg->is_none()) return fallback;
  if (arg->kind() == Argument::Kind::kBool) return arg->as_bool();
  return std::nullopt;
}
std::optional<int64_t> IntOf(const Argument* arg) {
  if (arg && arg->kind() == Argument::Kind::kInt) return arg->as_int();
  return std::nullopt;
}
// An int list given as one list argument or as the trailing positional ints
// of a method call (`x.view(2, 8)`, `x.permute(1, 0)`).
std::optional<std::vector<Argument>> IntsFrom(const TorchCall& call, size_t first, std::string_view keyword) {
  const Argument* arg = call.Arg(first, keyword);
  if (!arg) return std::nullopt;
  if (arg->is_sequence()) return std::vector<Argument>(arg->items().begin(), arg->items().end());
  std::vector<Argument> items;
  for (size_t i = first; i < call.args.size(); ++i) items.push_back(call.args[i]);
  return items;
}
std::optional<std::vector<int64_t>> StaticInts(const std::vector<Argument>& items) {
  std::vector<int64_t> out;
  for (const Argument& item : items) {
    if (item.kind() != Argument::Kind::kInt) return std::nullopt;
    out.push_back(item.as_int());
  }
  return out;
}
Argument IntList(const std::vector<int64_t>& values) {
  std::vector<Argument> items;
  for (int64_t v : values) items.push_back(Argument::Int(v));
  return Argument::List(std::move(items));
}
// Static sizes of a tensor value, or nullopt.
std::optional<std::vector<int64_t>> SizesOf(const Argument& value) {
  const TensorMeta* meta = MetaOf(value);
  if (!meta) return std::nullopt;
  std::vector<int64_t> out;
  for (const Dim& d : meta->sizes) {
    if (!d.is_static()) return std::nullopt;
    out.push_back(d.value());
  }
  return out;
}
const Argument* Self(const TorchCall& call, std::string* why) {
  const Argument* self = call.Arg(0, "input");
  if (!self) self = call.Arg(0, "self");
  if (!self || !self->is_node()) {
    *why = "its first argument is not a tensor";
    return nullptr;
  }
  return self;
}
// Passes on the keyword arguments a rule does not model; empty when none.
std::string UnmodelledKwargs(const TorchCall& call, std::initializer_list<std::string_view> known) {
  for (const Kwarg& kw : call.kwargs) {
    if (std::find(known.begin(), known.end(), kw.name) == known.end()) return kw.name;
  }
  return "";
}

}  // namespace airscope

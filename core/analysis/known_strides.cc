#include "core/analysis/known_strides.h"

#include <optional>
#include <string_view>

#include "core/analysis/node_util.h"
#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

bool IsPreserveFormat(const Node& node) {
  const Argument* format = node.kwarg("memory_format");
  return !format || format->is_none() ||
         (format->kind() == Argument::Kind::kMemoryFormat && format->as_memory_format() == MemoryFormat::kPreserve);
}

// Whether torch gives `node`'s result an argument's layout, and which
// (null when that argument is missing: then the layout is unknown).
std::optional<const Node*> LayoutSource(const Node& node, const TensorMeta& result) {
  if (node.op() != OpKind::kCallFunction) return std::nullopt;
  std::string_view target = CallTarget(node);
  const Node* self = FindNodeArg(node, 0, "self");
  bool keeps = target == "aten.slice.Tensor" || target == "aten.view.dtype" || target == "aten.alias.default" ||
               target == "prims.convert_element_type.default" || target == "prims.device_put.default" ||
               target == "aten.ceil.default" || target == "aten.floor.default" || target == "aten.round.default" ||
               target == "aten.trunc.default" || target == "aten.pow.Tensor_Scalar" ||
               target == "aten.slice_scatter.default" || target == "aten.copy.default" ||
               // preserve_format (their default): a dense input's strides (torch's empty_like)
               ((target == "aten.clone.default" || TakesItsInputsLayout(node)) && IsPreserveFormat(node));
  // A view or expand to the same sizes keeps the strides.
  if ((target == "aten.view.default" || target == "aten.expand.default") && self && TensorOf(self) &&
      TensorOf(self)->sizes == result.sizes) {
    keeps = true;
  }
  return keeps ? std::optional<const Node*>(self) : std::nullopt;
}

bool AllocatesContiguous(const Node& node) {
  std::string_view target = CallTarget(node);
  return target == "aten.repeat.default" || target == "aten.constant_pad_nd.default" || target == "aten.cat.default" ||
         target == "aten.clone.default" || KnownContiguous(&node);
}

KnownStrides Walk(const Node* node, int depth) {
  KnownStrides known;
  const TensorMeta* t = TensorOf(node);
  if (!t || depth > 64) return known;
  if (!t->strides.empty()) return {KnownStrides::Why::kStated, t->strides, nullptr};
  if (node->op() == OpKind::kPlaceholder) return {KnownStrides::Why::kGraphInput, t->ContiguousStrides(), nullptr};
  if (std::optional<const Node*> from = LayoutSource(*node, *t)) {
    if (!*from) return known;
    known.why = KnownStrides::Why::kKeepsLayout;
    known.from = *from;
    known.strides = Walk(*from, depth + 1).strides;
    return known;
  }
  if (node->op() == OpKind::kCallFunction && AllocatesContiguous(*node)) {
    return {KnownStrides::Why::kAllocates, t->ContiguousStrides(), nullptr};
  }
  return known;
}

}  // namespace

KnownStrides KnownStridesOf(const Node* node) { return Walk(node, 0); }

}  // namespace airscope

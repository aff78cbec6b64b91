// remove_noop: Inductor's remove_noop_ops. A call that provably returns its
// input unchanged (same sizes, dtype, device and layout) is replaced by that
// input and erased. Unknown meta never counts as "the same": such nodes stay.
#include <fmt/format.h>

#include <limits>
#include <map>
#include <string>

#include "core/ops/op_helpers.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/pass_util.h"

namespace airscope {
namespace {

Node* Self(const Node& node) {
  const Argument* arg = FindArg(node, 0, "self");
  return arg && arg->is_node() ? arg->as_node() : nullptr;
}

bool SameValueShape(const TensorMeta& a, const TensorMeta& b) {
  return a.dtype == b.dtype && a.sizes == b.sizes && a.device == b.device && a.dtype != DType::kUnknown;
}

// An argument that is a Python number equal to `value`.
bool IsNumber(const Argument* arg, double value) {
  if (!arg) return false;
  if (arg->kind() == Argument::Kind::kInt) return static_cast<double>(arg->as_int()) == value;
  if (arg->kind() == Argument::Kind::kFloat) return arg->as_float() == value;
  return false;
}

bool IsNoneOr(const Argument* arg, auto&& pred) { return !arg || arg->is_none() || pred(*arg); }

// Whether anything mutates `node`'s value in place (then an alias is not a copy).
bool Mutated(const Node* node, const OpRegistry& registry) {
  for (const Node* user : node->users()) {
    const OpInfo* info = user->op() == OpKind::kCallFunction ? registry.Find(user->target()) : nullptr;
    if (info && info->inplace && !user->args().empty() && user->args()[0].is_node() &&
        user->args()[0].as_node() == node) {
      return true;
    }
  }
  return false;
}

// The rule for one node: true when `node` returns `self` unchanged.
bool IsNoop(const Node& node, Node* self, const OpRegistry& registry) {
  const TensorMeta* in = TensorOf(self);
  const TensorMeta* out = TensorOf(&node);
  if (!in || !out || !SameValueShape(*in, *out)) return false;
  std::string_view t = CallTarget(node);
  if (t == "aten.alias.default" || t == "aten.detach.default" || t == "aten.lift_fresh.default" ||
      t == "aten.view.default" || t == "aten._unsafe_view.default" || t == "aten.reshape.default" ||
      t == "aten.expand.default" || t == "aten.lift_fresh_copy.default") {
    return true;  // sizes equal: the same view of the same storage
  }
  if (t == "aten._reshape_alias.default") {
    const Argument* strides = FindArg(node, 2, "stride");
    if (!strides || !strides->is_sequence() || !in->strides.empty() || !KnownContiguous(self)) return false;
    std::vector<Dim> contiguous = in->EffectiveStrides();
    if (strides->items().size() != contiguous.size()) return false;
    for (size_t i = 0; i < contiguous.size(); ++i) {
      const Argument& s = strides->items()[i];
      if (s.kind() != Argument::Kind::kInt || !contiguous[i].is_static() || contiguous[i].value() != s.as_int()) {
        return false;
      }
    }
    return true;
  }
  if (t == "aten.t.default") return in->sizes.size() < 2;
  if (t == "aten.transpose.int") {
    const Argument* a = FindArg(node, 1, "dim0");
    const Argument* b = FindArg(node, 2, "dim1");
    if (!a || !b || a->kind() != Argument::Kind::kInt || b->kind() != Argument::Kind::kInt) return false;
    auto na = NormalizeDim(node, a->as_int(), in->sizes.size());
    auto nb = NormalizeDim(node, b->as_int(), in->sizes.size());
    return na.ok() && nb.ok() && *na == *nb;
  }
  if (t == "aten.slice.Tensor") {
    const Argument* dim = FindArg(node, 1, "dim");
    const Argument* start = FindArg(node, 2, "start");
    const Argument* end = FindArg(node, 3, "end");
    const Argument* step = FindArg(node, 4, "step");
    auto d = NormalizeDim(node, dim && dim->kind() == Argument::Kind::kInt ? dim->as_int() : 0, in->sizes.size());
    if (!d.ok() || in->sizes.empty() || !in->sizes[*d].is_static()) return false;
    int64_t size = in->sizes[*d].value();
    bool full_start = IsNoneOr(start, [](const Argument& a) { return a.kind() == Argument::Kind::kInt && a.as_int() == 0; });
    bool full_end = IsNoneOr(end, [size](const Argument& a) { return a.kind() == Argument::Kind::kInt && a.as_int() >= size; });
    bool unit_step = IsNoneOr(step, [](const Argument& a) { return a.kind() == Argument::Kind::kInt && a.as_int() == 1; });
    return full_start && full_end && unit_step;
  }
  // Copies: removing one makes the result alias the input, harmless unless
  // either is mutated in place (then the copy is what keeps them apart).
  bool copy_like = t == "aten.clone.default" || t == "aten._to_copy.default";
  if (copy_like) {
    if (Mutated(self, registry) || Mutated(&node, registry)) return false;
    const Argument* format = node.kwarg("memory_format");
    bool keeps_layout = IsNoneOr(format, [](const Argument& a) {
      return a.kind() == Argument::Kind::kMemoryFormat &&
             (a.as_memory_format() == MemoryFormat::kContiguous || a.as_memory_format() == MemoryFormat::kPreserve);
    });
    if (!keeps_layout || !KnownContiguous(self)) return false;
    if (t == "aten._to_copy.default") {
      const Argument* layout = node.kwarg("layout");
      if (!IsNoneOr(layout, [](const Argument& a) {
            return a.kind() == Argument::Kind::kLayout && a.as_layout() == Layout::kStrided;
          })) {
        return false;
      }
      // dtype and device were compared through the metas above; a device
      // kwarg the meta does not state must name the input's device.
      const Argument* device = node.kwarg("device");
      if (device && !device->is_none() &&
          (device->kind() != Argument::Kind::kDevice || in->device.empty() ||
           device->as_device().ToString() != in->device)) {
        return false;
      }
    }
    return true;
  }
  // Arithmetic identities (Inductor's true_noop for add/sub 0, mul/div 1).
  if (t == "aten.add.Tensor" || t == "aten.add.Scalar" || t == "aten.sub.Tensor" || t == "aten.sub.Scalar") {
    return IsNumber(FindArg(node, 1, "other"), 0);
  }
  if (t == "aten.mul.Tensor" || t == "aten.mul.Scalar" || t == "aten.div.Tensor" || t == "aten.div.Scalar") {
    return IsNumber(FindArg(node, 1, "other"), 1);
  }
  return false;
}

Result<bool> RunRemoveNoop(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  std::map<std::string, int> removed;
  for (Node* node : graph.Nodes()) {  // only `node` itself is erased below
    if (node->op() != OpKind::kCallFunction) continue;
    Node* self = Self(*node);
    if (!self || self == node || !IsNoop(*node, self, registry)) continue;
    ++removed[std::string(CallTarget(*node))];
    graph.ReplaceAllUsesWith(node, self);
    AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
  }
  for (const auto& [target, count] : removed) context.remarks.push_back(fmt::format("removed {} {}", count, target));
  return !removed.empty();
}

}  // namespace

PassInfo OptimizeNoopOpsPass() {
  return {"optimize_noop_ops", "remove clones, views and copies that change nothing (Inductor's remove_noop_ops)",
          "Replaces by its input, and erases, every call that provably returns its input unchanged: "
          "view/_unsafe_view/reshape/expand to the same sizes, alias/detach/lift_fresh, t of a tensor of fewer "
          "than 2 dims, transpose of a dim with itself, a full-range slice, _reshape_alias to contiguous strides "
          "of the same sizes, clone/_to_copy of a known-contiguous tensor keeping dtype, device and layout (and "
          "neither side mutated in place), add/sub of 0 and mul/div by 1 keeping the dtype. Leaves alone every "
          "node whose own or input meta is unknown, and copies whose input's layout is not known to be "
          "contiguous (a clone of a transposed view really moves data). Models Inductor's remove_noop_ops "
          "post-grad pass.",
          PassKind::kPipeline, RunRemoveNoop, {"remove_noop"}};
}

}  // namespace airscope

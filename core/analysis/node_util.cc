#include "core/analysis/node_util.h"

#include <optional>

#include <fmt/format.h>

namespace airscope {
namespace {

constexpr std::string_view kTorchOps = "torch.ops.";

// "aten.hardtanh_.default" -> {"aten", "hardtanh_", "default"}; false for other shapes.
bool SplitTargetParts(std::string_view target, std::string_view* ns, std::string_view* op, std::string_view* overload) {
  size_t first = target.find('.');
  if (first == std::string_view::npos) return false;
  size_t second = target.find('.', first + 1);
  if (second == std::string_view::npos || target.find('.', second + 1) != std::string_view::npos) return false;
  *ns = target.substr(0, first);
  *op = target.substr(first + 1, second - first - 1);
  *overload = target.substr(second + 1);
  return !ns->empty() && !op->empty() && !overload->empty() && *ns != "operator";
}

}  // namespace

std::string TorchTarget(std::string_view target) {
  if (target.substr(0, kTorchOps.size()) == kTorchOps) return std::string(target);
  std::string_view ns, op, overload;
  if (!SplitTargetParts(target, &ns, &op, &overload)) return std::string(target);
  return fmt::format("{}{}", kTorchOps, target);
}

NodeSpec CallSpec(std::string_view target, std::vector<Argument> args, std::vector<Kwarg> kwargs, std::string hint) {
  NodeSpec spec;
  spec.op = OpKind::kCallFunction;
  spec.target = TorchTarget(target);
  spec.args = std::move(args);
  spec.kwargs = std::move(kwargs);
  spec.name = std::move(hint);
  return spec;
}

namespace {

// What the registry infers for `node` (source kInferred), if it can.
std::optional<NodeMeta> Inferred(const Node& node, const OpRegistry& registry) {
  const OpInfo* info = registry.Find(node.target());
  if (!info || !info->infer) return std::nullopt;
  Result<NodeMeta> meta = info->infer(node);
  if (!meta.ok()) return std::nullopt;
  NodeMeta value = std::move(meta).value();
  value.source = MetaSource::kInferred;
  return value;
}

}  // namespace

bool InferMeta(Node* node, const OpRegistry& registry) {
  std::optional<NodeMeta> meta = Inferred(*node, registry);
  if (!meta) {
    node->clear_meta();
    return false;
  }
  node->set_meta(std::move(*meta));
  return true;
}

Node* InsertCall(Graph& graph, Node* position, NodeSpec spec, std::string_view stream, const OpRegistry& registry) {
  Node* node = graph.InsertBefore(position, std::move(spec));
  if (!stream.empty()) graph.SetStream(node, stream);
  InferMeta(node, registry);
  return node;
}

void Retarget(Graph& graph, Node* node, std::string_view target, const OpRegistry& registry,
              bool keep_meta_on_failure) {
  graph.SetTarget(node, TorchTarget(target));
  std::optional<NodeMeta> meta = Inferred(*node, registry);
  if (meta) {
    node->set_meta(std::move(*meta));
  } else if (!keep_meta_on_failure) {
    node->clear_meta();
  }
}

std::string OutOfPlaceTarget(std::string_view inplace_target) {
  std::string_view ns, op, overload;
  if (!SplitTargetParts(StripTorchOps(inplace_target), &ns, &op, &overload)) return "";
  if (op.size() < 2 || op.back() != '_' || op[op.size() - 2] == '_') return "";
  return fmt::format("{}.{}.{}", ns, op.substr(0, op.size() - 1), overload);
}

std::string InplaceTarget(std::string_view target) {
  std::string_view ns, op, overload;
  if (!SplitTargetParts(StripTorchOps(target), &ns, &op, &overload)) return "";
  if (op.back() == '_' || op.front() == '_') return "";  // already in-place, or a private op
  return fmt::format("{}.{}_.{}", ns, op, overload);
}

bool HasSideEffects(const Node& node, const OpRegistry& registry) {
  if (node.op() != OpKind::kCallFunction) return true;
  std::string_view target = CallTarget(node);
  if (target.substr(0, 4) == "air.") return true;  // stream/event ops order the device
  if (target == "aten._local_scalar_dense.default" || target == "aten.item.default") return true;
  if (target.find("rand") != std::string_view::npos || target.find("dropout") != std::string_view::npos) return true;
  const OpInfo* info = registry.Find(target);
  if (!info) return true;  // unknown: it may do anything
  return info->inplace;
}

FlatNodeMap<size_t> Positions(const Graph& graph) {
  FlatNodeMap<size_t> out(graph.size());
  size_t i = 0;
  for (const Node* node : graph) out[node] = i++;
  return out;
}

const TensorMeta* TensorOf(const Node* node) { return node ? node->tensor() : nullptr; }

bool TakesItsInputsLayout(const Node& node) {
  std::string_view target = CallTarget(node);
  return target.find("_like.") != std::string_view::npos || target.starts_with("aten.zero.");
}

namespace {

// Stated contiguous strides, or a fresh result of an op that always writes
// a contiguous tensor (matmul, reductions, creation from sizes). Not the
// creation ops that take a tensor's layout: `*_like` and aten.zero (which
// is zeros_like) default to preserve_format, and empty_strided is given its
// strides.
bool ContiguousByItself(const Node* node, const TensorMeta& tensor) {
  if (!tensor.strides.empty()) return !tensor.HasNonContiguousStrides();
  if (node->op() != OpKind::kCallFunction) return false;
  const OpInfo* info = OpRegistry::Builtin().Find(node->target());
  if (!info || info->inplace) return false;
  if (info->category == OpCategory::kCreation)
    return !TakesItsInputsLayout(*node) && !IsTarget(*node, "aten.empty_strided.default");
  return info->category == OpCategory::kMatmul || info->category == OpCategory::kReduction;
}

}  // namespace

bool KnownContiguous(const Node* node) {
  const TensorMeta* tensor = TensorOf(node);
  if (!tensor) return false;
  if (ContiguousByItself(node, *tensor)) return true;
  // A pointwise result follows its inputs' layout (TensorIterator), a
  // *_like result its input's: contiguous when every tensor input is,
  // judged one level up only (no recursion over long chains; unknown means
  // "not known contiguous").
  if (!tensor->strides.empty() || node->op() != OpKind::kCallFunction) return false;
  const OpInfo* info = OpRegistry::Builtin().Find(node->target());
  if (!info || info->inplace || (info->category != OpCategory::kPointwise && !TakesItsInputsLayout(*node))) {
    return false;
  }
  for (const Node* input : node->inputs()) {
    const TensorMeta* in = TensorOf(input);
    if (!in || !ContiguousByItself(input, *in)) return false;
  }
  return true;
}

Result<size_t> EliminateDeadCode(Graph& graph, const OpRegistry& registry) {
  size_t erased = 0;
  for (Node* node = graph.back(); node;) {
    Node* prev = node->prev();
    if (node->op() == OpKind::kCallFunction && node->users().empty() && !HasSideEffects(*node, registry)) {
      AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
      ++erased;
    }
    node = prev;
  }
  return erased;
}

const TensorMeta* TensorArgOf(const Argument& arg) { return arg.is_node() ? TensorOf(arg.as_node()) : nullptr; }

Node* PositionalNodeArg(const Node& node, size_t i) {
  return i < node.args().size() && node.args()[i].is_node() ? node.args()[i].as_node() : nullptr;
}

std::map<std::string, Node*> SymIntPlaceholders(const Graph& graph) {
  std::map<std::string, Node*> out;
  for (Node* node : graph.Placeholders()) {
    const NodeMeta* meta = node->meta();
    if (!meta || meta->kind != ValueKind::kSymInt) continue;
    std::string_view text = meta->annotation;
    if (text.size() > 5 && text.starts_with("Sym(") && text.ends_with(")")) {
      out[std::string(text.substr(4, text.size() - 5))] = node;
    }
  }
  return out;
}

}  // namespace airscope

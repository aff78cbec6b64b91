#include "repl/graph_views.h"

#include "core/suggest.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <utility>

#include <fmt/format.h>

#include "core/analysis/alias_analysis.h"
#include "core/analysis/known_strides.h"
#include "core/fx/python_repr.h"
#include "core/glob.h"
#include "core/ops/dim_math.h"
#include "core/ops/op_registry.h"
#include "core/ops/shape_inference.h"

namespace airscope {
namespace {

// Sizes stated without a dtype (Dynamo's graph-sizes table states none):
// the sizes are known, the bytes and cost are not. "?" is not a guess.
bool HasSizesWithoutDtype(const NodeMeta& meta) {
  return std::any_of(meta.tensors.begin(), meta.tensors.end(),
                     [](const TensorMeta& t) { return t.dtype == DType::kUnknown && !t.sizes.empty(); });
}

std::string FormatBytes(double bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes) : fmt::format("{:.2f} {}", bytes, kUnits[unit]);
}

std::string FormatCount(double value) {
  static constexpr const char* kUnits[] = {"", "K", "M", "G", "T", "P"};
  int unit = 0;
  while (value >= 1000 && unit < 5) {
    value /= 1000;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f}", value) : fmt::format("{:.2f}{}", value, kUnits[unit]);
}

std::string NodeList(const std::vector<Node*>& nodes) {
  if (nodes.empty()) return "(none)";
  std::string out;
  for (size_t i = 0; i < nodes.size(); ++i) {
    if (i == 12) {
      out += fmt::format(", ... ({} in all)", nodes.size());
      break;
    }
    if (i) out += ", ";
    out += nodes[i]->name();
  }
  return out;
}

// For a call whose strides nobody stated, so `node` shows contiguous ones:
// its first tensor input whose stated layout is not contiguous. torch gives
// many ops such an input's layout (TensorIterator's pointwise ops, the
// *_like ops and clone with preserve_format); airscope does not model which,
// so the contiguous strides shown are then an assumption that may be wrong.
// Null for views (their strides are computed) and when no input says so.
const Node* InputWithOtherLayout(const Node& node, const OpRegistry& registry) {
  if (node.op() != OpKind::kCallFunction || IsViewOp(node, registry)) return nullptr;
  for (const Node* input : node.inputs()) {
    const TensorMeta* t = input->tensor();
    if (t != nullptr && t->HasNonContiguousStrides()) return input;
  }
  return nullptr;
}

// Why the contiguous strides airscope gives a call without stated ones may
// be wrong, or "" when they are right as far as airscope knows. The layout
// rules are core/analysis/known_strides.h's, which optimize_noop_ops reads
// too; for an op they do not cover, an input of another stated layout is the
// sign (InputWithOtherLayout).
std::string LayoutAssumption(const Node& node, const OpRegistry& registry) {
  const TensorMeta* t = node.tensor();
  if (node.op() != OpKind::kCallFunction || IsViewOp(node, registry) || !t || !t->strides.empty()) return "";
  KnownStrides known = KnownStridesOf(&node);
  if (known.strides) {
    if (*known.strides == t->ContiguousStrides()) return "";
    return fmt::format("torch gives it {}'s layout, strides {}, which airscope's shapes do not carry",
                       known.from ? known.from->name() : "an input", FormatDims(*known.strides));
  }
  const Node* other = InputWithOtherLayout(node, registry);
  if (!other) return "";
  return fmt::format(
      "input {} has strides {}, and torch gives many ops their input's layout, which airscope does "
      "not model",
      other->name(), FormatDims(other->tensor()->strides));
}

// For a view: the op its chain of views starts from, when that op's strides
// are such an assumption (LayoutAssumption): the view's computed strides
// rest on it. Null otherwise.
const Node* ViewOfAssumedLayout(const Node& node, const OpRegistry& registry) {
  const Node* base = &node;
  while (base->op() == OpKind::kCallFunction && IsViewOp(*base, registry)) {
    const Argument* arg0 = base->args().empty() ? nullptr : &base->args()[0];
    if (arg0 == nullptr || !arg0->is_node()) return nullptr;
    base = arg0->as_node();
  }
  if (base == &node) return nullptr;
  return LayoutAssumption(*base, registry).empty() ? nullptr : base;
}

}  // namespace

std::string ValueString(const Node& node) {
  const NodeMeta* meta = node.meta();
  if (!meta) return "?";
  std::string shape = meta->ShapeString();
  return shape.empty() ? "-" : shape;
}

std::string StreamString(const Node& node) { return node.stream().empty() ? "default" : node.stream(); }

bool MatchesPattern(std::string_view pattern, std::string_view text) {
  if (pattern.find_first_of("*?") == std::string_view::npos) return text.find(pattern) != std::string_view::npos;
  return GlobMatch(pattern, text);
}

bool NodeMatches(const Node& node, std::string_view pattern) {
  return MatchesPattern(pattern, node.name()) || MatchesPattern(pattern, node.target()) ||
         MatchesPattern(pattern, OpHistogramKey(node));
}

Result<const Node*> FindNodeOrError(const Graph& graph, std::string_view name) {
  if (const Node* node = graph.Find(name)) return node;
  std::vector<std::string> names;
  for (const Node* n : graph) names.push_back(n->name());
  std::string suggestion = DidYouMean(name, names);
  if (!suggestion.empty()) return Status::Errorf("no node named '{}' in graph '{}'{}", name, graph.name(), suggestion);
  return Status::Errorf("no node named '{}' in graph '{}' (try find {})", name, graph.name(), name);
}

void DescribeNode(const Node& node, const OpRegistry& registry, CommandOutput& out) {
  out.Styled(Style::kHeading, "node {}", node.name());
  out.Print("  op:       {}", OpKindName(node.op()));
  out.Print("  target:   {}", node.target());
  std::vector<Argument> args(node.args().begin(), node.args().end());
  out.Print("  args:     {}", FormatFxArg(Argument::Tuple(std::move(args))));
  std::string kwargs = "{";
  for (size_t i = 0; i < node.kwargs().size(); ++i) {
    if (i) kwargs += ", ";
    kwargs += node.kwargs()[i].name + ": " + FormatFxArg(node.kwargs()[i].value);
  }
  out.Print("  kwargs:   {}}}", kwargs);
  const NodeMeta* meta = node.meta();
  std::string source = !meta ? "" : meta->source == MetaSource::kAnnotated ? " (annotated" : " (inferred";
  if (meta) {
    source += HasSizesWithoutDtype(*meta) ? "; dtype unknown, so bytes and cost are too)" : ")";
  }
  out.Print("  value:    {}{}", ValueString(node), source);
  if (std::string disagreement = AnnotationDisagreement(node, registry); !disagreement.empty()) {
    // Shapes, bytes and costs built on this value rest on the annotation.
    out.Styled(Style::kBad,
               "            {}: the file and airscope's inference disagree (an edited file, or a rule airscope "
               "models otherwise); what is built on this value uses the annotation",
               disagreement);
  }
  if (!meta && node.op() == OpKind::kCallFunction) {
    // Say why there is no shape: usually an input without one.
    const OpInfo* info = registry.Find(node.target());
    if (info && info->infer) {
      Result<NodeMeta> inferred = info->infer(node);
      if (!inferred.ok()) out.Styled(Style::kDim, "            not inferred: {}", inferred.status().message());
    }
  }
  if (const TensorMeta* t = meta ? meta->tensor() : nullptr) {
    std::string strides = FormatDims(t->EffectiveStrides());
    if (std::string assumption = LayoutAssumption(node, registry); !assumption.empty()) {
      out.Styled(Style::kBad, "  strides:  {} (assumed contiguous: {})", strides, assumption);
    } else if (const Node* base = ViewOfAssumedLayout(node, registry)) {
      out.Styled(Style::kBad, "  strides:  {} (computed from {}'s, which are assumed contiguous: see node {})", strides,
                 base->name(), base->name());
    } else {
      out.Print("  strides:  {}{}", strides, t->strides.empty() ? " (contiguous)" : "");
    }
    if (!t->device.empty()) out.Print("  device:   {}", t->device);
    if (auto bytes = t->NumBytes()) out.Print("  bytes:    {}", FormatBytes(static_cast<double>(*bytes)));
  }
  out.Print("  stream:   {}", StreamString(node));
  out.Print("  inputs:   {}", NodeList(node.inputs()));
  out.Print("  users:    {}", NodeList(node.users().ToVector()));
  if (node.op() == OpKind::kCallFunction) {
    const OpInfo* info = registry.Find(node.target());
    if (!info) {
      out.Print("  registry: not in the op registry (kept as an opaque node)");
    } else {
      std::string cost = "cost unknown (shapes missing or symbolic)";
      if (info->cost) {
        if (auto c = info->cost(node)) {
          cost = fmt::format("{} FLOPs, {} read, {} written", FormatCount(c->flops), FormatBytes(c->bytes_read),
                             FormatBytes(c->bytes_written));
        }
      }
      out.Print("  registry: {}{}, {}", OpCategoryName(info->category), info->inplace ? " (in-place)" : "", cost);
    }
  }
  if (meta && !meta->stack_trace.empty()) {
    out.Print("  source:");
    size_t start = 0;
    while (start < meta->stack_trace.size()) {
      size_t end = meta->stack_trace.find('\n', start);
      if (end == std::string::npos) end = meta->stack_trace.size();
      out.Print("    {}", std::string_view(meta->stack_trace).substr(start, end - start));
      start = end + 1;
    }
  }
}

void DescribeStats(const Graph& graph, const OpRegistry& registry, CommandOutput& out) {
  std::map<OpKind, size_t> by_op;
  std::map<std::string, size_t> histogram;
  // Calls are counted per target string (interned by the graph) and named
  // once per target after the walk: a key built per node was most of `stats`.
  // (The key is the target alone: the op kind only changes the name for a
  // call_method/call_module target starting with torch.ops. or operator.,
  // which no method or submodule is called.)
  std::unordered_map<const std::string*, std::pair<const Node*, size_t>> calls_by_target;
  OpLookup lookup(registry);
  double tensor_bytes = 0;
  size_t known_shapes = 0, unknown_ops = 0, sizes_without_dtype = 0;
  for (const Node* node : graph) {
    ++by_op[node->op()];
    bool is_op =
        node->op() == OpKind::kCallFunction || node->op() == OpKind::kCallMethod || node->op() == OpKind::kCallModule;
    if (is_op) {
      auto& [example, count] = calls_by_target[&node->target()];
      if (!example) example = node;
      ++count;
    } else {
      ++histogram[OpHistogramKey(*node)];
    }
    if (const NodeMeta* meta = node->meta();
        meta && (meta->kind == ValueKind::kTensor || meta->kind == ValueKind::kTuple)) {
      bool all_known = !meta->tensors.empty();
      for (const TensorMeta& t : meta->tensors) {
        auto bytes = t.NumBytes();
        if (bytes) tensor_bytes += static_cast<double>(*bytes);
        all_known = all_known && (bytes.has_value() || (t.dtype == DType::kUnknown && t.sizes.empty()));
      }
      if (all_known) ++known_shapes;
      if (!all_known && HasSizesWithoutDtype(*meta)) ++sizes_without_dtype;
    }
    if (is_op && (node->op() != OpKind::kCallFunction || !lookup.Find(*node))) ++unknown_ops;
  }
  for (const auto& [target, call] : calls_by_target) histogram[OpHistogramKey(*call.first)] += call.second;
  size_t unknown_cost = 0;
  OpCost total = TotalCost(graph, registry, &unknown_cost);
  out.Styled(Style::kHeading, "graph {}: {} nodes", graph.name(), graph.size());
  std::vector<std::string> kinds;
  for (const auto& [op, count] : by_op) kinds.push_back(fmt::format("{} {}", OpKindName(op), count));
  out.Print("  by op kind:   {}", fmt::join(kinds, ", "));
  std::vector<Node*> inputs = graph.Placeholders();
  std::vector<std::string> input_desc;
  for (const Node* n : inputs) input_desc.push_back(fmt::format("{} {}", n->name(), ValueString(*n)));
  out.Print("  inputs:       {}", inputs.size());
  for (size_t i = 0; i < input_desc.size() && i < 8; ++i) out.Print("    {}", input_desc[i]);
  if (input_desc.size() > 8) out.Print("    ... {} more", input_desc.size() - 8);
  size_t output_count = 0;
  if (const Node* output = graph.output(); output && !output->args().empty()) {
    const Argument& value = output->args()[0];
    output_count = value.is_sequence() ? value.items().size() : 1;
  }
  out.Print("  outputs:      {}", output_count);
  out.Print(
      "  tensor bytes: {} ({} of {} nodes with known shapes{})", FormatBytes(tensor_bytes), known_shapes, graph.size(),
      sizes_without_dtype == 0 ? ""
                               : fmt::format("; {} more with sizes but no dtype, so no bytes", sizes_without_dtype));
  out.Print("  compute:      {} FLOPs, {} read, {} written ({} ops with unknown cost, {} not in the registry)",
            FormatCount(total.flops), FormatBytes(total.bytes_read), FormatBytes(total.bytes_written), unknown_cost,
            unknown_ops);
  std::vector<std::pair<std::string, size_t>> sorted(histogram.begin(), histogram.end());
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  size_t width = 0;
  for (const auto& [key, count] : sorted) width = std::max(width, key.size());
  out.Print("  ops:");
  for (const auto& [key, count] : sorted) out.Print("    {:<{}}  {}", key, width, count);
}

}  // namespace airscope

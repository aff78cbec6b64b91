#include "core/dynamo/compile_for_call.h"

#include <set>
#include <string>

#include <fmt/format.h>

#include "core/ops/specialize.h"

namespace airscope {
namespace {

// The graph's placeholders as it was traced: their own metas, or nullopt when
// one states no tensor (a graph printed without shapes has no traced sizes).
std::optional<std::vector<TensorMeta>> TracedInputs(const Graph& graph) {
  std::vector<TensorMeta> traced;
  for (const Node* p : graph.Placeholders()) {
    const NodeMeta* meta = p->meta();
    if (meta && meta->kind == ValueKind::kSymInt) {
      traced.emplace_back();  // SpecializeInputs keeps a SymInt's own meta
      continue;
    }
    const TensorMeta* tensor = p->tensor();
    if (!tensor) return std::nullopt;
    traced.push_back(*tensor);
  }
  return traced;
}

std::string Describe(const Graph& graph, const std::vector<TensorMeta>& metas) {
  std::vector<std::string> parts;
  std::vector<Node*> placeholders = graph.Placeholders();
  for (size_t i = 0; i < placeholders.size() && i < metas.size(); ++i) {
    if (!metas[i].sizes.empty() || metas[i].dtype != DType::kUnknown) {
      parts.push_back(fmt::format("{}={}", placeholders[i]->name(), metas[i].ShapeString()));
    }
  }
  return fmt::format("{}", fmt::join(parts, " "));
}

}  // namespace

Result<std::unique_ptr<Graph>> CompileForCall(const Graph& graph, const std::vector<TensorMeta>& inputs,
                                              const std::vector<TensorMeta>& hints, const OpRegistry& registry) {
  InferenceReport at_inputs;
  Result<std::unique_ptr<Graph>> specialized = SpecializeInputs(graph, inputs, registry, &at_inputs);
  if (!specialized.ok()) return specialized.status().WithPrefix("compile");
  // Dynamo's fake tensors carry the call's own sizes as hints, and torch
  // decides every size check on a symbol by its hint (guarding on it): so an
  // op that refuses the call's sizes fails the compile even where the entry's
  // dims are symbolic.
  InferenceReport at_hints;
  const InferenceReport* checked = &at_inputs;
  if (hints != inputs) {
    Result<std::unique_ptr<Graph>> hinted = SpecializeInputs(graph, hints, registry, &at_hints);
    if (!hinted.ok()) return hinted.status().WithPrefix("compile");
    checked = &at_hints;
  }
  if (checked->refused.empty()) return specialized;
  // What the ops refuse at the sizes the graph was traced at is the trace's
  // own business (an op airscope's rules get wrong would refuse there too):
  // only refusals these sizes bring are the call's.
  std::set<std::string> at_trace;
  std::optional<std::vector<TensorMeta>> traced = TracedInputs(graph);
  if (traced) {
    InferenceReport report;
    if (SpecializeInputs(graph, *traced, registry, &report).ok()) {
      for (const InferenceReport::Refusal& r : report.refused) at_trace.insert(r.node);
    }
  }
  for (const InferenceReport::Refusal& r : checked->refused) {
    if (at_trace.count(r.node)) continue;
    std::string trace = traced ? fmt::format(
                                     "This graph was traced at {} and holds that trace's sizes: run on it, "
                                     "torch's fake-tensor propagation raises this too. The model itself may "
                                     "take the new sizes (Dynamo traces its code again, and a size the code "
                                     "computes from an input follows it), which airscope, holding only the "
                                     "graph, cannot check.",
                                     Describe(graph, *traced))
                               : "The graph states no traced sizes: torch's fake-tensor propagation raises this on it.";
    return Status::Errorf("compile: node '{}' refuses the call's sizes ({}): {}. {} Nothing was compiled or cached.",
                          r.node, Describe(graph, hints), r.message, trace);
  }
  return specialized;
}

}  // namespace airscope

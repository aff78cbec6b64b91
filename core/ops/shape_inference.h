// Shape inference over a whole graph: fills NodeMeta (source kInferred) for
// every node that has none and whose op the registry can infer, in graph
// order (no recursion). Annotated meta is never overwritten; where both exist
// a disagreement, or an op that refuses the inputs an annotated node reads,
// is reported as a warning, not fixed.
#pragma once

#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"

namespace airscope {

struct InferenceReport {
  size_t inferred = 0;                // nodes given meta by inference
  size_t annotated = 0;               // nodes that already had meta
  size_t unknown_ops = 0;             // nodes whose target the registry does not know (kept opaque)
  std::vector<std::string> warnings;  // "node 'x': annotation f32[2, 2] but inferred f32[2, 3]", first 20
  size_t disagreements = 0;           // all of them (AnnotationDisagreement), warnings or not
  // Nodes without meta whose op is known but whose inference failed (e.g. an
  // input has no shape); they stay without meta. errors: the first 20 messages.
  size_t failed = 0;
  std::vector<std::string> errors;  // "node 'mm': mm: inner dims 3 and 4 differ"
  // The failures above whose inputs all had static sizes: not a shape airscope
  // could not know but inputs the op refuses, as torch's fake-tensor
  // propagation would refuse them (a size baked into a view at trace time,
  // mm of a non-square input with itself), in graph order.
  struct Refusal {
    std::string node;
    std::string message;  // the op's own words: "view: shape '[32, 128]' is invalid for input of size 8192"
  };
  std::vector<Refusal> refused;
};

InferenceReport InferShapes(Graph& graph, const OpRegistry& registry);

// For an annotated call_function node whose op can be inferred: how the
// annotation and inference disagree ("annotation f32[8, 255] but inferred
// f32[8, 256]", or "annotation X but the op refuses its inputs: ..." when all
// its inputs are static), or "" when they agree or cannot be compared (no
// annotation, a Sym/opaque one, an input without a shape, an unknown op).
std::string AnnotationDisagreement(const Node& node, const OpRegistry& registry);

// Sum of OpCost over the graph's nodes (nodes with unknown cost are counted in *unknown).
OpCost TotalCost(const Graph& graph, const OpRegistry& registry, size_t* unknown = nullptr);

}  // namespace airscope

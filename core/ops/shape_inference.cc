#include "core/ops/shape_inference.h"

#include <fmt/format.h>

#include "core/ops/op_helpers.h"

namespace airscope {
namespace {

constexpr size_t kMaxMessages = 20;

std::string Describe(const NodeMeta& meta) {
  std::string shape = meta.ShapeString();
  return shape.empty() ? "?" : shape;
}

// Annotation and inference agree when they describe the same tensors by
// dtype and sizes; strides and device are left out on purpose (many
// annotations state neither, and inference does not compute strides).
bool SameTensors(const NodeMeta& annotated, const NodeMeta& inferred) {
  if (annotated.kind != inferred.kind) return false;
  if (annotated.tensors.size() != inferred.tensors.size()) return false;
  for (size_t i = 0; i < annotated.tensors.size(); ++i) {
    if (annotated.tensors[i].dtype != inferred.tensors[i].dtype) return false;
    if (annotated.tensors[i].sizes != inferred.tensors[i].sizes) return false;
  }
  return true;
}

void Note(std::vector<std::string>* messages, std::string message) {
  if (messages->size() < kMaxMessages) messages->push_back(std::move(message));
}

// The first node `node` reads that has no meta, or nullptr. Such a node's
// inference cannot know its operands, so it is not asked: on a graph whose
// inputs state no shapes (print(gm.graph)) that is every node, and formatting
// a million "has no shape" errors nobody reads was a tenth of a 1M-node load.
const Node* FirstInputWithoutMeta(const Node& node) {
  const Node* missing = nullptr;
  auto check = [&missing](const Node* input) {
    if (!missing && !input->meta()) missing = input;
  };
  for (const Argument& arg : node.args()) arg.ForEachNode(check);
  for (const Kwarg& kwarg : node.kwargs()) kwarg.value.ForEachNode(check);
  return missing;
}

// Whether every tensor `node` reads has static sizes (so its op's refusal is
// about these sizes, not about a symbol it cannot reason about).
bool InputsAllStatic(const Node& node) {
  bool all = true;
  auto check = [&all](const Node* input) {
    const NodeMeta* meta = input->meta();
    if (!meta) return;
    for (const TensorMeta& t : meta->tensors) {
      for (const Dim& d : t.sizes) all = all && d.is_static();
    }
  };
  for (const Argument& arg : node.args()) arg.ForEachNode(check);
  for (const Kwarg& kwarg : node.kwargs()) kwarg.value.ForEachNode(check);
  return all;
}

// How an annotation and the node's inference disagree, or "". Only tensor
// values are compared: a kSymInt/kOpaque annotation is verbatim text
// inference cannot reproduce. An annotation does not make inputs the op
// refuses valid: that is said too, rather than the annotation kept quietly.
std::string Disagreement(const Node& node, const NodeMeta& annotated, const Result<NodeMeta>& inferred) {
  bool comparable = annotated.kind == ValueKind::kTensor || annotated.kind == ValueKind::kTuple;
  if (!comparable) return "";
  if (inferred.ok()) {
    return SameTensors(annotated, *inferred)
               ? ""
               : fmt::format("annotation {} but inferred {}", Describe(annotated), Describe(*inferred));
  }
  if (!InputsAllStatic(node)) return "";
  return fmt::format("annotation {} but the op refuses its inputs: {}", Describe(annotated),
                     inferred.status().message());
}

}  // namespace

std::string AnnotationDisagreement(const Node& node, const OpRegistry& registry) {
  const NodeMeta* annotated = node.meta();
  if (!annotated || annotated->source != MetaSource::kAnnotated || node.op() != OpKind::kCallFunction) return "";
  const OpInfo* info = registry.Find(node.target());
  if (!info || !info->infer || FirstInputWithoutMeta(node)) return "";
  return Disagreement(node, *annotated, info->infer(node));
}

InferenceReport InferShapes(Graph& graph, const OpRegistry& registry) {
  InferenceReport report;
  OpLookup lookup(registry);
  // Graph order is topological for a linted graph, so one forward walk sees
  // every input before its users; no recursion, so deep graphs are fine.
  for (Node* node : graph) {
    const NodeMeta* existing = node->meta();
    if (existing) ++report.annotated;
    if (node->op() == OpKind::kCallMethod || node->op() == OpKind::kCallModule) {
      ++report.unknown_ops;  // Tensor methods and submodules have no rules (aten graphs have neither)
      continue;
    }
    if (node->op() != OpKind::kCallFunction) continue;  // placeholders, get_attr, output: nothing to infer
    const OpInfo* info = lookup.Find(*node);
    if (!info) {
      ++report.unknown_ops;
      continue;
    }
    if (!info->infer) continue;
    if (const Node* missing = FirstInputWithoutMeta(*node)) {
      if (existing) continue;  // nothing to compare the annotation with
      ++report.failed;
      if (report.errors.size() < kMaxMessages) {
        Note(&report.errors,
             fmt::format("node '{}': {}: input '{}' has no shape", node->name(), OpLabel(*node), missing->name()));
      }
      continue;
    }
    Result<NodeMeta> inferred = info->infer(*node);
    if (existing) {
      std::string disagreement = Disagreement(*node, *existing, inferred);
      if (!disagreement.empty()) {
        ++report.disagreements;
        Note(&report.warnings, fmt::format("node '{}': {}", node->name(), disagreement));
        if (!inferred.ok()) report.refused.push_back({node->name(), inferred.status().message()});
      }
      continue;
    }
    if (!inferred.ok()) {
      ++report.failed;
      Note(&report.errors, fmt::format("node '{}': {}", node->name(), inferred.status().message()));
      if (InputsAllStatic(*node)) report.refused.push_back({node->name(), inferred.status().message()});
      continue;
    }
    NodeMeta meta = std::move(inferred).value();
    meta.source = MetaSource::kInferred;
    node->set_meta(std::move(meta));
    ++report.inferred;
  }
  return report;
}

OpCost TotalCost(const Graph& graph, const OpRegistry& registry, size_t* unknown) {
  OpCost total;
  OpLookup lookup(registry);
  size_t missing = 0;
  for (const Node* node : graph) {
    bool is_op =
        node->op() == OpKind::kCallFunction || node->op() == OpKind::kCallMethod || node->op() == OpKind::kCallModule;
    if (!is_op) continue;
    const OpInfo* info = node->op() == OpKind::kCallFunction ? lookup.Find(*node) : nullptr;
    std::optional<OpCost> cost;
    if (info && info->cost) cost = info->cost(*node);
    if (!cost) {
      ++missing;
      continue;
    }
    total.flops += cost->flops;
    total.bytes_read += cost->bytes_read;
    total.bytes_written += cost->bytes_written;
  }
  if (unknown) *unknown = missing;
  return total;
}

}  // namespace airscope

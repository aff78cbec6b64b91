#include "core/ops/specialize.h"

#include "core/ops/shape_inference.h"

namespace airscope {

Result<std::unique_ptr<Graph>> SpecializeInputs(const Graph& graph, const std::vector<TensorMeta>& inputs,
                                                const OpRegistry& registry, InferenceReport* report) {
  std::unique_ptr<Graph> specialized = graph.Clone();
  std::vector<Node*> placeholders = specialized->Placeholders();
  if (placeholders.size() != inputs.size()) {
    return Status::Errorf("the graph takes {} inputs, {} given", placeholders.size(), inputs.size());
  }
  // Shapes are derived again from the inputs; parameters (get_attr) and ops
  // the registry cannot infer keep what their annotation said.
  for (Node* node : *specialized) {
    if (node->op() == OpKind::kPlaceholder || node->op() == OpKind::kGetAttr) continue;
    if (node->op() == OpKind::kCallFunction && !registry.Find(node->target())) continue;
    node->clear_meta();
  }
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (placeholders[i]->meta() && placeholders[i]->meta()->kind == ValueKind::kSymInt) continue;
    NodeMeta meta;
    meta.kind = ValueKind::kTensor;
    meta.source = MetaSource::kAnnotated;
    meta.tensors.push_back(inputs[i]);
    placeholders[i]->set_meta(std::move(meta));
  }
  InferenceReport inferred = InferShapes(*specialized, registry);
  if (report) *report = std::move(inferred);
  return specialized;
}

}  // namespace airscope

#include "core/dynamo/compile_for_call.h"

#include "core/ops/specialize.h"

namespace airscope {

Result<std::unique_ptr<Graph>> CompileForCall(const Graph& graph, const std::vector<TensorMeta>& inputs,
                                              const OpRegistry& registry) {
  Result<std::unique_ptr<Graph>> specialized = SpecializeInputs(graph, inputs, registry);
  if (!specialized.ok()) return specialized.status().WithPrefix("compile");
  return specialized;
}

}  // namespace airscope

// RenameAsTraced: AOT re-traces the graph, so every op node of its output is
// named afresh after its op in graph order by FX's _Namespace (`add`, `add_1`,
// ...): an `add_` functionalized into add.Tensor is printed as `add`.
#include <fmt/format.h>

#include <string>
#include <unordered_map>
#include <unordered_set>

#include "core/aot/aot.h"
#include "core/ops/op_helpers.h"

namespace airscope {

Status RenameAsTraced(Graph& graph) {
  std::vector<Node*> calls;
  std::unordered_set<std::string> kept;  // names of nodes that keep theirs
  for (Node* node : graph) {
    if (node->op() == OpKind::kCallFunction) {
      calls.push_back(node);
    } else {
      kept.insert(node->name());
    }
  }
  // Two phases, so that a name is free before another node takes it.
  for (size_t i = 0; i < calls.size(); ++i) {
    AIRSCOPE_RETURN_IF_ERROR(graph.Rename(calls[i], fmt::format("aot_renaming_{}", i)));
  }
  std::unordered_map<std::string, int> counts;
  for (Node* node : calls) {
    std::string base = OpLabel(*node);
    if (!Graph::IsLegalName(base)) base = "node";
    std::string name;
    do {
      int& count = counts[base];
      name = count == 0 ? base : fmt::format("{}_{}", base, count);
      ++count;
    } while (kept.count(name) || graph.Find(name));
    AIRSCOPE_RETURN_IF_ERROR(graph.Rename(node, name));
  }
  return Status::Ok();
}

}  // namespace airscope

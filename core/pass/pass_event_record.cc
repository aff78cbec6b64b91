// event_record: TorchAir's apply_event_record (torchair/_acl_concrete_graph/
// graph_pass.py:683-706). A user may write air.wait([tensor]) meaning "wait until the
// stream that produced this tensor got this far"; an event needs a record,
// so one is placed right after the tensor and the wait waits on it.
#include <map>

#include "core/fx/python_repr.h"

#include "core/analysis/stream_util.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

Result<bool> EventRecord(Graph& graph, PassContext& context) {
  bool changed = false;
  std::map<std::string, Node*> record_after;  // waited tensor -> its record (reused)
  for (Node* node : graph.Nodes()) {
    if (!IsTarget(*node, kWait)) continue;
    if (node->args().empty() || !node->args()[0].is_sequence()) {
      return Status::Errorf("air.wait '{}' takes a list of records or tensors as args[0]", node->name());
    }
    bool rewritten = false;
    std::vector<Argument> waited;
    for (const Argument& item : node->args()[0].items()) {
      if (!item.is_node()) {
        // TorchAir reads wait_node.target: an AttributeError for anything but a node.
        return Status::Errorf("air.wait '{}': args[0] holds {}, not a node", node->name(), FormatPythonArg(item));
      }
      if (IsTarget(*item.as_node(), kRecord)) {
        waited.push_back(item);
        continue;
      }
      Node* tensor = item.as_node();
      auto [it, inserted] = record_after.try_emplace(tensor->name(), nullptr);
      if (inserted)
        it->second =
            InsertCall(graph, tensor, /*before=*/false, kRecord, {}, {}, context.registry, FxOverloadName(kRecord));
      waited.push_back(Argument::NodeRef(it->second));
      rewritten = true;
    }
    if (!rewritten) continue;
    // TorchAir: node.args = (new_args,), a list.
    graph.SetArgs(node, {Argument::List(std::move(waited))});
    changed = true;
  }
  return changed;
}

}  // namespace

PassInfo EventRecordPass() {
  return {
      "apply_event_record",
      "give every tensor passed to air.wait an air.record after it (apply_event_record)",
      "TorchAir's apply_event_record (_acl_concrete_graph/graph_pass.py:683-706, fx2acl_converter.py:257). For every\n"
      "air.wait.default node, each entry of args[0] that is not an air.record node (a tensor the user waits\n"
      "for) gets an air.record.default() inserted right after the node that makes it - one record per\n"
      "waited tensor, reused when the same tensor is waited for twice - and the wait then waits on those\n"
      "records (args become ([records],), a list, as TorchAir sets node.args = (new_args,)). Waits that\n"
      "already name records are left alone. Codegen (f2a:780-798) then emits a torch.npu.Event per record,\n"
      "recorded on the current stream, and a wait per record; airscope's lower makes them event tasks.",
      PassKind::kPipeline,
      EventRecord,
      {"event_record"},
      EffectPolicy::kPreserveValues,
      PassOrigin::kTorchAir};
}

}  // namespace airscope

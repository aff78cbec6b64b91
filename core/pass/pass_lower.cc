// lower: the last stage. It puts every node on the stream TorchAir's
// generated forward runs it on (fx2acl_converter.py:647-735: the lines after
// a user-stream scope_enter, up to and including its scope_exit, inside
// `with torch.npu.stream(...)`), then checks the graph can become a TaskGraph:
// BuildTaskGraph is the one definition of "lowerable", so lower walks the
// graph as it does (CountTasks) and reports its error rather than keep a
// second copy of the rules.
#include <fmt/format.h>

#include "core/analysis/stream_util.h"
#include "core/lower/task_graph.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

Result<bool> Lower(Graph& graph, PassContext& context) {
  AIRSCOPE_ASSIGN_OR_RETURN(std::vector<std::string> streams, StreamsFromScopes(graph));
  bool changed = false;
  size_t i = 0;
  for (Node* node : graph.Nodes()) {
    const std::string& stream = streams[i++];
    if (node->stream() == stream) continue;
    graph.SetStream(node, stream);
    changed = true;
  }
  const OpRegistry& registry = context.registry ? *context.registry : OpRegistry::Builtin();
  // A wait for an event nothing records is TorchAir's to compile (it checks
  // nothing of the kind); capture refuses it (ACL 107024) and `check` names it.
  AIRSCOPE_ASSIGN_OR_RETURN(TaskCounts tasks, CountTasks(graph, registry));
  context.remarks.push_back(fmt::format("{} device tasks on {} stream(s)", tasks.tasks, tasks.streams));
  if (tasks.unrecorded_waits > 0) {
    context.remarks.push_back(
        fmt::format("{} wait(s) for an event no earlier task records: capture refuses them "
                    "(ACL 107024), eager cannot run them; `check` names them",
                    tasks.unrecorded_waits));
  }
  return changed;
}

}  // namespace

PassInfo LowerPass() {
  return {"lower",
          "check every node becomes a device task on its stream (kernel, memcpy, event)",
          "The last stage, modelling what TorchAir's AclConcreteGraph does when it captures the FX graph into an\n"
          "aclgraph: every node becomes a device task (a kernel, a memcpy for copy_/_to_copy, an event record or\n"
          "wait, a host sync for _local_scalar_dense/item) or is a no-op (placeholders, get_attr, output, views,\n"
          "getitem, scope markers). Puts every node on the stream TorchAir's codegen (fx2acl_converter.py:647-735)\n"
          "runs it on: after a user-stream air.scope_enter line, `with torch.npu.stream(<label>)` up to and\n"
          "including the matching scope_exit; nested scopes: the innermost user stream; a scope that names no\n"
          "user stream keeps the enclosing one; the scope_enter itself on the enclosing stream. This overrides\n"
          "the stream labels earlier passes computed (add_stream_label_to_node_meta puts a scope_enter on its own\n"
          "stream; those labels only steer TorchAir's passes) and any stream set directly (a rewrite rule's `set\n"
          "stream`): TorchAir's codegen knows streams only from scopes. Then it\n"
          "checks that no node is a call_method or call_module (those cannot be launched) and notes waits whose\n"
          "event no earlier task records (TorchAir compiles them; capture refuses them with ACL 107024 and an\n"
          "eager run cannot run them). Changed when it assigned a stream.",
          PassKind::kPipeline,
          Lower,
          {},
          EffectPolicy::kUnchecked};
}

}  // namespace airscope

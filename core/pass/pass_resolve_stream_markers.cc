// resolve_stream_markers: turns TorchAir's scope markers into a stream per
// node (Node::stream), the way the AclConcreteGraph assigns the nodes between
// air.scope_enter and air.scope_exit to the scope's stream when it builds
// the captured graph. After it, streams are explicit and the markers are
// no-ops for lowering.
#include "core/pass/builtin_passes.h"
#include "core/pass/stream_util.h"

namespace airscope {
namespace {

Result<bool> ResolveStreamMarkers(Graph& graph, PassContext&) {
  Result<std::vector<std::string>> streams = StreamsFromScopes(graph);
  if (!streams.ok()) return streams.status();
  bool changed = false;
  size_t i = 0;
  for (Node* node : graph.Nodes()) {
    const std::string& stream = (*streams)[i++];
    if (node->stream() == stream) continue;
    graph.SetStream(node, stream);
    changed = true;
  }
  return changed;
}

}  // namespace

PassInfo ResolveDefaultStreamMarkersPass() {
  return {"resolve_default_stream_markers", "put every node between a user-stream scope_enter and its scope_exit on that stream",
          "Models how TorchAir's AclConcreteGraph (torchair/_acl_concrete_graph) runs the nodes between\n"
          "air.scope_enter(['_user_stream_label'], [STREAM]) and its air.scope_exit on STREAM. Sets Node::stream\n"
          "for every node: inside nested scopes the innermost user stream wins (a scope that names no user\n"
          "stream keeps the enclosing one); the scope_enter/scope_exit markers themselves sit on the enclosing\n"
          "stream; records, waits and the tagged events of event_closure take the stream of where they sit (so\n"
          "the tagged wait after a scope_enter runs on the scope's stream); nodes outside every scope, the\n"
          "placeholders and the output are on the default stream \"\". Fails, naming the node, on unpaired scopes.",
          PassKind::kPipeline, ResolveStreamMarkers, {"resolve_stream_markers"}};
}

}  // namespace airscope

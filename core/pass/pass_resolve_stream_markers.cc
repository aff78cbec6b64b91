// resolve_default_stream_markers: TorchAir's pass
// (_acl_concrete_graph/graph_pass.py:1358-1447). replace_stream_event_pass
// cannot put the compile-time current stream's id into the graph (it is only
// known when the graph runs), so it writes marker strings; this pass turns
// them into nodes that read torch.npu.current_stream() at run time.
// It does not assign streams (lower does, as TorchAir's codegen does).
#include <array>

#include "core/analysis/stream_util.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

// replace_stream_event.py:7-9.
constexpr std::array<std::string_view, 3> kMarkers = {"DEFAULT_STREAM_ID_MARKER", "DEFAULT_DEVICE_INDEX_MARKER",
                                                      "DEFAULT_DEVICE_TYPE_MARKER"};
// The Stream attribute each marker stands for, in kMarkers' order.
constexpr std::array<std::string_view, 3> kAttributes = {"stream_id", "device_index", "device_type"};

// torch.fx never names a node after a Python builtin (its _Namespace treats
// them as taken), so these start at `getattr_1` / `str_1`.
constexpr const char* kGetattrHint = "getattr_1";
constexpr const char* kStrHint = "str_1";

// WHITELIST_OPS (gp:1383-1388).
bool Whitelisted(const Node& node) {
  return IsTarget(node, kTaggedRecordOnStream) || IsTarget(node, kTaggedWaitOnStream) ||
         IsTarget(node, kTaggedStreamWaitStream) || IsTarget(node, kScopeEnter);
}

// The marker's index when `arg` is a top-level str equal to one, else -1.
int MarkerIndex(const Argument& arg) {
  if (arg.kind() != Argument::Kind::kString) return -1;
  for (size_t i = 0; i < kMarkers.size(); ++i) {
    if (arg.as_string() == kMarkers[i]) return static_cast<int>(i);
  }
  return -1;
}

bool HasMarker(const Graph& graph) {
  for (const Node* node : graph) {
    if (!Whitelisted(*node)) continue;
    for (const Argument& arg : node->args()) {
      if (MarkerIndex(arg) >= 0) return true;
    }
  }
  return false;
}

Result<bool> ResolveDefaultStreamMarkers(Graph& graph, PassContext&) {
  if (!HasMarker(graph)) return false;
  // Before the first node, in TorchAir's order: current_stream, then per
  // attribute getattr(current_stream, attr) and str(getattr).
  Node* first = graph.front();
  // A Python function target: spelled as is (CallSpec would read it as an op overload).
  Node* current =
      graph.InsertBefore(first, NodeSpec{OpKind::kCallFunction, "torch.npu.current_stream", {}, {}, "current_stream"});
  std::array<Node*, 3> as_str{};
  for (size_t i = 0; i < kAttributes.size(); ++i) {
    Node* attr = graph.InsertBefore(
        first, CallSpec("getattr", {Argument::NodeRef(current), Argument::String(std::string(kAttributes[i]))}, {},
                        kGetattrHint));
    as_str[i] = graph.InsertBefore(first, CallSpec("str", {Argument::NodeRef(attr)}, {}, kStrHint));
  }
  for (Node* node : graph.Nodes()) {
    if (!Whitelisted(*node)) continue;
    std::vector<Argument> args = node->args();
    bool update = false;
    for (Argument& arg : args) {
      int marker = MarkerIndex(arg);
      if (marker < 0) continue;
      arg = Argument::NodeRef(as_str[marker]);
      update = true;
    }
    if (update) graph.SetArgs(node, std::move(args));
  }
  return true;
}

}  // namespace

PassInfo ResolveDefaultStreamMarkersPass() {
  return {"resolve_default_stream_markers",
          "turn DEFAULT_*_MARKER strings into run-time torch.npu.current_stream() reads",
          "TorchAir's resolve_default_stream_markers (_acl_concrete_graph/graph_pass.py:1358-1447, called at\n"
          "fx2acl_converter.py:299-301). replace_stream_event_pass writes the strings DEFAULT_STREAM_ID_MARKER,\n"
          "DEFAULT_DEVICE_INDEX_MARKER, DEFAULT_DEVICE_TYPE_MARKER where a stream is the compile-time current\n"
          "stream. Only in nodes whose target is air.tagged_event_record_on_stream, air.tagged_event_wait_on_stream,\n"
          "air.tagged_stream_wait_stream or air.scope_enter (.default), and only top-level str args (not strings\n"
          "inside a list), are such markers replaced. If there is none, nothing changes. Else, before the first\n"
          "node: cs = torch.npu.current_stream(), then for stream_id, device_index, device_type in that order\n"
          "getattr(cs, ATTR) and str(...), and each marker arg becomes its str node.\n"
          "Decided, following the source: scope_enter carries its markers inside its values list (args[1]), so\n"
          "they are NOT replaced. (They never get here: apply_event_closure_with_multi_stream, earlier, int()s\n"
          "them in _extract_user_stream_info, gp:601-606 - Python's ValueError, which airscope reports there.)\n"
          "This pass does not assign streams: lower does, as TorchAir's\n"
          "codegen does. airscope simplifies: the getattr/str nodes run nothing on the simulated device.",
          PassKind::kPipeline,
          ResolveDefaultStreamMarkers,
          {"resolve_stream_markers"},
          EffectPolicy::kPreserveValues,
          PassOrigin::kTorchAir};
}

}  // namespace airscope

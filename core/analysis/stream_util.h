// Helpers shared by the stream passes (TorchAir's AclConcreteGraph passes,
// torchair/_acl_concrete_graph/graph_pass.py) and the task-graph builder:
// recognising air.* stream-control nodes, reading a scope's user stream,
// inserting calls with inferred meta, and what the stream of every node is
// according to its scope markers.
//
// Targets are compared without the `torch.ops.` prefix, so a graph may spell
// them either way; nodes these helpers create use FX's spelling
// (`torch.ops.air.record.default`).
#pragma once

#include <optional>
#include <string>
#include <unordered_map>
#include <string_view>
#include <vector>

#include "core/analysis/node_util.h"  // IsTarget, CallSpec, InferMeta
#include "core/ir/graph.h"
#include "core/ir/node_slot_map.h"
#include "core/ops/op_registry.h"
#include "core/status.h"

namespace airscope {

inline constexpr std::string_view kScopeEnter = "air.scope_enter.default";
inline constexpr std::string_view kScopeExit = "air.scope_exit.default";
inline constexpr std::string_view kRecord = "air.record.default";
inline constexpr std::string_view kWait = "air.wait.default";
inline constexpr std::string_view kTaggedRecord = "air.tagged_event_record.default";
inline constexpr std::string_view kTaggedWait = "air.tagged_event_wait.default";
inline constexpr std::string_view kTaggedRecordOnStream = "air.tagged_event_record_on_stream.default";
inline constexpr std::string_view kTaggedWaitOnStream = "air.tagged_event_wait_on_stream.default";
inline constexpr std::string_view kTaggedStreamWaitStream = "air.tagged_stream_wait_stream.default";
inline constexpr std::string_view kRecordTaggedStream = "air.record_tagged_stream_.default";
// The label TorchAir's scope_enter carries when the scope names a user stream.
inline constexpr std::string_view kUserStreamLabel = "_user_stream_label";

// For a scope_enter whose args[0] holds "_user_stream_label": its stream,
// args[1][0]. nullopt for other scope_enters (and for any other node).
std::optional<std::string> UserStreamOf(const Node& scope_enter);

// Creates `target(args, kwargs)` (short or full spelling; stored in FX's)
// before or after `position`, and gives it meta from the registry's shape
// inference when the op is known and inference succeeds. `hint` names it
// (default: the op's name, as rewrite rules name their nodes).
Node* InsertCall(Graph& graph, Node* position, bool before, std::string_view target, std::vector<Argument> args,
                 std::vector<Kwarg> kwargs, const OpRegistry* registry, std::string hint = "");

// The name torch.fx gives a node that a pass creates with
// graph.call_function(<OpOverload>): the op and overload joined by '_'
// ("air.tagged_event_record.default" -> "tagged_event_record_default"), as
// TorchAir's passes name the nodes they insert.
std::string FxOverloadName(std::string_view target);

// Nodes that do no device work: placeholders, get_attr, output, views
// (registry category kView), getitem, sym_size, the scope markers.
bool IsNoOpNode(const Node& node, const OpRegistry& registry);

// TorchAir's add_stream_label_to_node_meta (_utils/graph_utils.py:18-55):
// walks the graph in order; a scope_enter pushes the current label and, when
// "_user_stream_label" is among args[0], makes args[1][0] current (the label
// is assumed to be the FIRST value, as TorchAir assumes); a scope_exit keeps
// the current label and then pops (an exit with nothing to pop is ignored, as
// in TorchAir). Every node's stream (meta["stream_label"]; "" = None, the
// default stream) is set to the current label, the scope_enter getting its
// own new label. StreamLabels computes the labels (passes that only read
// them: cat optimization, pattern and reinplace passes); AddStreamLabelToNodeMeta
// stores them as node streams and returns whether any changed. Never fail.
// A label per node, each distinct label stored once (a string per node made
// the map of a 1M-node graph 80 MB).
class StreamLabelMap {
 public:
  const std::string* Find(const Node* node) const {
    const uint32_t* label = label_of_.Find(node);
    return label ? &labels_[*label] : nullptr;
  }
  // Throws std::out_of_range for a node the map has no label for.
  const std::string& At(const Node* node) const { return labels_[label_of_.At(node)]; }
  // How many different labels the nodes have.
  size_t distinct_labels() const { return labels_.size(); }

 private:
  friend StreamLabelMap StreamLabels(const Graph& graph);
  NodeSlotMap<uint32_t> label_of_;  // index into labels_
  std::vector<std::string> labels_;
};
StreamLabelMap StreamLabels(const Graph& graph);
bool AddStreamLabelToNodeMeta(Graph& graph);

// The stream every node runs on in TorchAir's generated forward
// (fx2acl_converter.py:647-735, `with torch.npu.stream(...)` opened after a
// user-stream scope_enter line and closed after its scope_exit line), in
// graph order: inside a user-stream scope the innermost scope's stream, the
// scope_enter on the enclosing stream and the scope_exit on the scope's
// stream, "" elsewhere. Scopes that do not
// name a user stream inherit the enclosing stream. Fails, naming the node, on
// a scope_exit without a scope_enter or a scope never closed.
Result<std::vector<std::string>> StreamsFromScopes(const Graph& graph);

}  // namespace airscope

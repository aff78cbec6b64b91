// replace_stream_event_pass: TorchAir's pass on Dynamo's torch-level graph,
// before AOT (_acl_concrete_graph/replace_stream_event.py:26-200, called at
// npu_fx_compiler.py:942-943). Dynamo records torch.npu streams and events as
// Python calls (torch.npu.Stream(), event.record(), torch.npu.set_stream(s));
// a captured graph cannot run those, so TorchAir turns them into its tagged
// air.* ops and turns set_stream into air.scope_enter/scope_exit, keeping a
// stack of the streams set. The node edits are TorchAir's, in its order.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/analysis/stream_util.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

// TorchAir's markers for "the compile-time current stream" (rse:7-9).
constexpr std::string_view kStreamIdMarker = "DEFAULT_STREAM_ID_MARKER";
constexpr std::string_view kDeviceIndexMarker = "DEFAULT_DEVICE_INDEX_MARKER";
constexpr std::string_view kDeviceTypeMarker = "DEFAULT_DEVICE_TYPE_MARKER";
// The targets TorchAir assigns: OpOverloadPackets (no overload), as FX prints them.
constexpr std::string_view kPacketScopeEnter = "torch.ops.air.scope_enter";
constexpr std::string_view kPacketScopeExit = "torch.ops.air.scope_exit";
constexpr std::string_view kPacketRecord = "torch.ops.air.tagged_event_record";
constexpr std::string_view kPacketWait = "torch.ops.air.tagged_event_wait";
constexpr std::string_view kPacketRecordOnStream = "torch.ops.air.tagged_event_record_on_stream";
constexpr std::string_view kPacketWaitOnStream = "torch.ops.air.tagged_event_wait_on_stream";
constexpr std::string_view kPacketStreamWaitStream = "torch.ops.air.tagged_stream_wait_stream";
constexpr std::string_view kPacketRecordTaggedStream = "torch.ops.air.record_tagged_stream_";
// c10::DeviceType::PrivateUse1, the NPU's device type (Stream.device_type).
constexpr int64_t kNpuDeviceType = 20;

// The torch.npu function a call_function names, however Dynamo spelled its
// module: torch.npu.X, torch_npu.npu.X, or torch_npu.npu.<module>.X -> "X".
std::string_view NpuFunction(const Node& node) {
  if (node.op() != OpKind::kCallFunction) return {};
  std::string_view target = node.target();
  for (std::string_view prefix : {"torch.npu.", "torch_npu.npu."}) {
    if (target.substr(0, prefix.size()) != prefix) continue;
    std::string_view rest = target.substr(prefix.size());
    size_t dot = rest.find('.');
    if (dot == std::string_view::npos) return rest;
    if (rest.find('.', dot + 1) == std::string_view::npos) return rest.substr(dot + 1);
  }
  return {};
}

// _is_event (rse:203-212): torch.npu.Event() or an event Dynamo got from outside.
bool IsEvent(const Node& node) {
  return NpuFunction(node) == "Event" ||
         (node.op() == OpKind::kCallFunction && node.target() == "torch._dynamo.utils.get_user_object_from_id");
}

struct StreamInfo {
  std::string id, device_index, device_type;  // as TorchAir's str() of them, or the markers
};

// What TorchAir's walk keeps (rse:37-43): the stream stack, the streams made
// in the graph, each stream node's info, and which stream a current_stream()
// node stands for. A stream is its Stream node, or nullptr for TorchAir's
// "default_stream" (the stream current when the graph began).
class StreamEventRewriter {
 public:
  StreamEventRewriter(Graph& graph, PassContext& context)
      : graph_(graph), graph_id_(fmt::format("graph_{}_", context.dynamo_graph_counter)) {}

  Result<bool> Run() {
    for (Node* node : graph_.Nodes()) {
      if (node->op() == OpKind::kCallFunction) {
        AIRSCOPE_RETURN_IF_ERROR(VisitFunction(node));
      } else if (node->op() == OpKind::kCallMethod) {
        AIRSCOPE_RETURN_IF_ERROR(VisitMethod(node));
      }
      if (NpuFunction(*node) == "set_stream") AIRSCOPE_RETURN_IF_ERROR(SetStream(node));
    }
    if (!stack_.empty()) {
      return Status::Error(
          "RuntimeError: When use npugraph_ex, you must make sure at the end of your code set stream to the same "
          "stream as the begin of your code.\n"
          "E.g: at the begin of your code, call 'enter_stream = torch.npu.current_stream()', and at the end of your "
          "code, call 'torch.npu.set_stream(enter_stream)'. \n"
          "A more recommended way is to use 'with torch.npu.stream()' instead of 'torch.npu.set_stream()'");
    }
    return changed_;
  }

 private:
  Status VisitFunction(Node* node) {
    std::string_view fn = NpuFunction(*node);
    if (IsEvent(*node)) return Status::Ok();  // TorchAir creates the event of tag graph_id + name; the node stays
    if (fn == "fake_record_stream") {
      // record_tagged_stream_(tensor, <stream node's name>): the bare name, without graph_id (rse:80-82).
      if (node->args().size() < 2 || !node->args()[1].is_node()) {
        return Status::Errorf("torch.npu.fake_record_stream '{}' takes (tensor, stream node)", node->name());
      }
      Replace(node, kPacketRecordTaggedStream, {node->args()[0], Argument::String(node->args()[1].as_node()->name())});
    } else if (fn == "Stream") {
      new_streams_.push_back(node);
      info_[node] = StreamInfo{std::to_string(new_streams_.size()), "0", std::to_string(kNpuDeviceType)};
    } else if (fn == "current_stream") {
      // TorchAir reads the node's example value; airscope takes the stream current at this point.
      info_[node] = current_ ? info_[current_] : DefaultStreamInfo();
      current_of_[node] = current_;
    }
    return Status::Ok();
  }

  Status VisitMethod(Node* node) {
    const std::string& method = node->target();
    if (node->args().empty() || !node->args()[0].is_node()) return Status::Ok();
    Node* self = node->args()[0].as_node();
    if (method == "record" || method == "wait") {
      bool record = method == "record";
      std::string tag = graph_id_ + self->name();
      if (node->args().size() > 1) {
        AIRSCOPE_ASSIGN_OR_RETURN(StreamInfo on, InfoOf(node->args()[1]));
        Replace(node, record ? kPacketRecordOnStream : kPacketWaitOnStream, OnStreamArgs(tag, on));
      } else {
        Replace(node, record ? kPacketRecord : kPacketWait, {Argument::String(tag), Argument::Bool(true)});
      }
    } else if (method == "wait_event") {
      if (node->args().size() < 2 || !node->args()[1].is_node()) return Status::Ok();
      AIRSCOPE_ASSIGN_OR_RETURN(StreamInfo on, InfoOf(node->args()[0]));
      Replace(node, kPacketWaitOnStream, OnStreamArgs(graph_id_ + node->args()[1].as_node()->name(), on));
    } else if (method == "wait_stream") {
      if (node->args().size() < 2) return Status::Ok();
      AIRSCOPE_ASSIGN_OR_RETURN(StreamInfo on, InfoOf(node->args()[0]));
      AIRSCOPE_ASSIGN_OR_RETURN(StreamInfo other, InfoOf(node->args()[1]));
      Replace(node, kPacketStreamWaitStream,
              {Argument::String(on.id), Argument::String(on.device_index), Argument::String(on.device_type),
               Argument::String(other.id), Argument::String(other.device_index), Argument::String(other.device_type)});
    } else if (method == "record_event") {
      AIRSCOPE_ASSIGN_OR_RETURN(StreamInfo on, InfoOf(node->args()[0]));
      if (node->args().size() > 1 && node->args()[1].is_node()) {
        Node* event = node->args()[1].as_node();
        Node* replaced = Replace(node, kPacketRecordOnStream, OnStreamArgs(graph_id_ + event->name(), on));
        graph_.ReplaceAllUsesWith(replaced, event);
      } else {
        // event=None: a new event, tagged with this node's name.
        Replace(node, kPacketRecordOnStream, OnStreamArgs(graph_id_ + node->name(), on));
      }
    }
    return Status::Ok();
  }

  // rse:156-187.
  Status SetStream(Node* node) {
    if (node->args().empty() || !node->args()[0].is_node()) {
      return Status::Errorf("torch.npu.set_stream '{}' takes a stream node", node->name());
    }
    Node* arg = node->args()[0].as_node();
    Node* to_set = arg;
    bool is_default = false;
    if (auto it = current_of_.find(arg); it != current_of_.end()) {
      to_set = it->second;
      is_default = to_set == nullptr;
    }
    current_ = to_set;
    bool on_stack = !is_default && std::find(stack_.begin(), stack_.end(), to_set) != stack_.end();
    bool made_here = !is_default && std::find(new_streams_.begin(), new_streams_.end(), to_set) != new_streams_.end();
    if (!is_default && !on_stack && made_here) {
      stack_.push_back(to_set);
      std::vector<Argument> keys = {Argument::String("_user_stream_label"), Argument::String("_user_stream_priority"),
                                    Argument::String("_user_stream_id"), Argument::String("_user_stream_device_index"),
                                    Argument::String("_user_stream_device_type")};
      const StreamInfo& info = info_[to_set];
      std::vector<Argument> values = {Argument::String(graph_id_ + to_set->name()), Argument::String("0"),
                                      Argument::String(info.id), Argument::String(info.device_index),
                                      Argument::String(info.device_type)};
      Replace(node, kPacketScopeEnter, {Argument::List(std::move(keys)), Argument::List(std::move(values))});
    } else if (on_stack) {
      while (stack_.back() != to_set) PopInto(node);
    } else if (is_default) {
      while (!stack_.empty()) PopInto(node);
    } else {
      return Status::Errorf(
          "RuntimeError: Can not find stream: {} in FX graph when parse torch.npu.set_stream.Please submit a issue "
          "to TorchAir",
          to_set->name());
    }
    return Status::Ok();
  }

  // Pops the top stream: an air.scope_exit right after `node` (each one
  // before the previous ones, as FX's inserting_after places them).
  void PopInto(Node* node) {
    stack_.pop_back();
    graph_.InsertAfter(node, CallSpec(kPacketScopeExit, {}, {}, "scope_exit"));
    changed_ = true;
  }

  Result<StreamInfo> InfoOf(const Argument& stream) {
    if (stream.is_node()) {
      auto it = info_.find(stream.as_node());
      if (it != info_.end()) return MarkDefault(it->second);
    }
    return Status::Errorf("RuntimeError: Can't get stream info from node:{}, stream_info is: {} stream node(s)",
                          stream.is_node() ? stream.as_node()->name() : std::string("<not a node>"), info_.size());
  }

  // _get_stream_info_from_node: the compile-time current stream becomes the markers.
  static StreamInfo MarkDefault(const StreamInfo& info) {
    if (info.id != DefaultStreamInfo().id) return info;
    return {std::string(kStreamIdMarker), std::string(kDeviceIndexMarker), std::string(kDeviceTypeMarker)};
  }

  static StreamInfo DefaultStreamInfo() { return {"0", "0", std::to_string(kNpuDeviceType)}; }

  static std::vector<Argument> OnStreamArgs(const std::string& tag, const StreamInfo& on) {
    return {Argument::String(tag), Argument::String(on.id), Argument::String(on.device_index),
            Argument::String(on.device_type), Argument::Bool(true)};
  }

  // FX's node.target = ...; node.op = "call_function"; node.args = ...
  // Returns the node that now holds the call.
  Node* Replace(Node* node, std::string_view target, std::vector<Argument> args) {
    if (node->op() != OpKind::kCallFunction) {
      // The IR keeps a node's op kind; a call_method becomes a call_function by
      // a fresh node that takes over its name, uses and place.
      std::string name = node->name();
      Node* fresh = graph_.InsertBefore(node, CallSpec(target, std::move(args), node->kwargs(), "tmp"));
      graph_.ReplaceAllUsesWith(node, fresh);
      (void)graph_.Erase(node);
      (void)graph_.Rename(fresh, name);
      changed_ = true;
      return fresh;
    }
    graph_.SetTarget(node, target);
    graph_.SetArgs(node, std::move(args));  // kwargs stay, as in TorchAir
    changed_ = true;
    return node;
  }

  Graph& graph_;
  std::string graph_id_;
  std::vector<Node*> stack_;                 // stream_stack
  std::vector<Node*> new_streams_;           // new_stream_list
  std::map<const Node*, StreamInfo> info_;   // stream_info_map
  std::map<const Node*, Node*> current_of_;  // current_stream_map (nullptr = "default_stream")
  Node* current_ = nullptr;                  // current_stream (nullptr = "default_stream")
  bool changed_ = false;
};

// npugraph_ex registers TorchAir's stream ops under its own namespace
// (torch.ops.npugraph_ex.scope_enter, ..., nxgp:620-759); airscope's passes know the air.* names only. Said,
// so that a graph npugraph_ex wrote is not taken for one without streams.
void SayNpugraphExNames(const Graph& graph, PassContext& context) {
  const Node* first = nullptr;
  size_t count = 0;
  for (const Node* node : graph) {
    if (node->op() != OpKind::kCallFunction || !StripTorchOps(node->target()).starts_with("npugraph_ex.")) continue;
    first = first ? first : node;
    ++count;
  }
  if (first) {
    context.remarks.push_back(fmt::format(
        "{} node(s) call npugraph_ex's stream/event ops ('{}' is {}): airscope's passes, lowering and checks know "
        "them only by TorchAir's air.* names, so here they are opaque ops and their streams and events are not "
        "modelled",
        count, first->name(), StripTorchOps(first->target())));
  }
}

Result<bool> ReplaceStreamEvent(Graph& graph, PassContext& context) {
  SayNpugraphExNames(graph, context);
  AIRSCOPE_ASSIGN_OR_RETURN(bool changed, StreamEventRewriter(graph, context).Run());
  if (changed && context.config.npugraph_ex) {
    context.remarks.push_back(
        "npugraph_ex's own replace_stream_event_pass makes these ops torch.ops.npugraph_ex.*; airscope writes "
        "TorchAir's torch.ops.air.* (the same schemas and rules)");
  }
  return changed;
}

}  // namespace

PassInfo ReplaceStreamEventPass() {
  return {"replace_stream_event_pass",
          "torch.npu streams/events in Dynamo's graph -> air.tagged_* ops and scope_enter/exit",
          "TorchAir's replace_stream_event_pass (_acl_concrete_graph/replace_stream_event.py:26-200), run on\n"
          "Dynamo's torch-level graph before AOT (npu_fx_compiler.py:942-943). Tags start with\n"
          "graph_id = 'graph_<k>_' (TorchAir's GraphCounter, rse:12-23; airscope: context.dynamo_graph_counter, 0).\n"
          "torch.npu.Event() nodes stay (TorchAir creates the event of tag graph_id+name). e.record() ->\n"
          "air.tagged_event_record(graph_id+e, True); e.record(s) -> air.tagged_event_record_on_stream(tag, id,\n"
          "device_index, device_type, True); e.wait()/e.wait(s) likewise with tagged_event_wait(_on_stream);\n"
          "s.wait_event(e) -> tagged_event_wait_on_stream; s.wait_stream(o) -> tagged_stream_wait_stream(6 strs);\n"
          "s.record_event(e) -> tagged_event_record_on_stream (uses of the node become uses of e), with no event a\n"
          "new tag graph_id+<node>; torch.npu.fake_record_stream(t, s) -> air.record_tagged_stream_(t, '<s>').\n"
          "torch.npu.set_stream(s), with current_stream() nodes standing for the stream current when they ran: a\n"
          "stream made in the graph and not on the stack is pushed and the node becomes\n"
          "air.scope_enter(['_user_stream_label', '_user_stream_priority', '_user_stream_id',\n"
          "'_user_stream_device_index', '_user_stream_device_type'], [graph_id+s, '0', id, index, type]); a stream\n"
          "on the stack pops every stream above it, a scope_exit after the node for each; the initial stream pops\n"
          "all; anything else, and a non-empty stack at the end, are TorchAir's RuntimeErrors. A stream whose id is\n"
          "the compile-time current stream's is written as DEFAULT_STREAM_ID_MARKER, DEFAULT_DEVICE_INDEX_MARKER,\n"
          "DEFAULT_DEVICE_TYPE_MARKER. Targets are the OpOverloadPackets TorchAir assigns (torch.ops.air.scope_enter,\n"
          "no .default; AOT picks the overload). airscope simplifies: stream ids come from the simulated device, not\n"
          "from Dynamo's example values: the compile-time current stream is id 0, the k-th torch.npu.Stream() of the\n"
          "graph is id k, device_index 0, device_type 20 (PrivateUse1), and a current_stream() node is the stream\n"
          "current at that point; torch.npu functions are recognised as torch.npu.X, torch_npu.npu.X or\n"
          "torch_npu.npu.<module>.X; the torch >= 2.10 spellings (torch.ops.streams.record_event/wait_event,\n"
          "get_external_object_by_index) are not modelled; a call_method turned into a call_function keeps its name.",
          PassKind::kPipeline,
          ReplaceStreamEvent,
          {},
          EffectPolicy::kPreserveAliasing,
          PassOrigin::kTorchAir};
}

}  // namespace airscope

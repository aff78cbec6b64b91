// event_closure: TorchAir's apply_event_closure_with_multi_stream
// (torchair/_acl_concrete_graph/graph_pass.py). A captured graph must fork
// every user stream from the capturing (default) stream and join it back
// before the end, or capture fails with ACL_ERROR_RT_STREAM_UNJOINED; this
// pass inserts exactly those fork/join events.
#include <fmt/format.h>

#include "core/pass/builtin_passes.h"
#include "core/pass/stream_util.h"

namespace airscope {
namespace {

std::vector<Argument> TagArgs(const std::string& tag) { return {Argument::String(tag), Argument::Bool(true)}; }

// Sets need_execute=True, keeping the other kwargs. Returns whether it changed.
bool MarkNeedExecute(Graph& graph, Node* node) {
  const Argument* existing = node->kwarg("need_execute");
  if (existing && existing->kind() == Argument::Kind::kBool && existing->as_bool()) return false;
  std::vector<Kwarg> kwargs;
  for (const Kwarg& kw : node->kwargs()) {
    if (kw.name != "need_execute") kwargs.push_back(kw);
  }
  kwargs.push_back({"need_execute", Argument::Bool(true)});
  graph.SetKwargs(node, std::move(kwargs));
  return true;
}

// A tagged event op with this tag already in the graph (the pass was run before).
bool HasTagged(const Graph& graph, std::string_view target, const std::string& tag) {
  for (const Node* n : graph) {
    if (IsTarget(*n, target) && !n->args().empty() && n->args()[0].kind() == Argument::Kind::kString &&
        n->args()[0].as_string() == tag) {
      return true;
    }
  }
  return false;
}

Result<bool> EventClosure(Graph& graph, PassContext& context) {
  bool changed = false;
  std::vector<Node*> user_enters, user_exits;
  std::vector<Node*> open;  // enclosing scope_enters, to pair exits with their enter
  for (Node* node : graph.Nodes()) {
    if (IsTarget(*node, kScopeEnter)) {
      changed |= MarkNeedExecute(graph, node);
      open.push_back(node);
      if (UserStreamOf(*node)) user_enters.push_back(node);
    } else if (IsTarget(*node, kScopeExit)) {
      changed |= MarkNeedExecute(graph, node);
      if (open.empty()) return Status::Errorf("air.scope_exit '{}' has no matching scope_enter", node->name());
      if (UserStreamOf(*open.back())) user_exits.push_back(node);
      open.pop_back();
    }
  }
  if (user_enters.empty()) return changed;
  Node* output = graph.output();
  if (!output) return Status::Error("the graph has no output node to join the streams before");

  const OpRegistry* registry = context.registry;
  // A graph that already starts with the fork record was closed before: its
  // tag stays; only scopes without their wait get one.
  Node* first = graph.front();
  std::string fork_tag;
  if (IsTarget(*first, kTaggedRecord) && !first->args().empty() &&
      first->args()[0].kind() == Argument::Kind::kString) {
    fork_tag = first->args()[0].as_string();
  } else {
    fork_tag = fmt::format("{}_{}", graph.name(), first->name());
    InsertCall(graph, first, /*before=*/true, kTaggedRecord, TagArgs(fork_tag), {}, registry);
    changed = true;
  }
  for (Node* enter : user_enters) {
    if (enter->next() && IsTarget(*enter->next(), kTaggedWait)) continue;
    InsertCall(graph, enter, /*before=*/false, kTaggedWait, TagArgs(fork_tag), {}, registry);
    changed = true;
  }
  for (Node* exit : user_exits) {
    std::string join_tag = fmt::format("{}_{}", graph.name(), exit->name());
    if (HasTagged(graph, kTaggedRecord, join_tag)) continue;
    InsertCall(graph, exit, /*before=*/true, kTaggedRecord, TagArgs(join_tag), {}, registry);
    InsertCall(graph, output, /*before=*/true, kTaggedWait, TagArgs(join_tag), {}, registry);
    changed = true;
  }
  return changed;
}

}  // namespace

PassInfo EventClosurePass() {
  return {"apply_event_closure_with_multi_stream", "fork/join every user stream with tagged events (apply_event_closure_with_multi_stream)",
          "Models TorchAir's apply_event_closure_with_multi_stream (torchair/_acl_concrete_graph/graph_pass.py).\n"
          "Every air.scope_enter/scope_exit gets need_execute=True. If some scope_enter names a user stream\n"
          "(args[0] holds '_user_stream_label', the stream is args[1][0]): fork - an\n"
          "air.tagged_event_record.default(TAG, True) before the first node of the graph, TAG = GRAPH_FIRSTNODE,\n"
          "and an air.tagged_event_wait.default(TAG, True) right after each such scope_enter; join - for each\n"
          "user-stream scope_exit, an air.tagged_event_record.default(EXIT_TAG, True) before it (EXIT_TAG =\n"
          "GRAPH_SCOPEEXITNAME) and an air.tagged_event_wait.default(EXIT_TAG, True) before the output node.\n"
          "Without these a captured graph leaves its side streams unjoined. Running it twice adds nothing more.",
          PassKind::kPipeline, EventClosure, {"event_closure"}};
}

}  // namespace airscope

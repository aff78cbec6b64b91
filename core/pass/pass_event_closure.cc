// apply_event_closure_with_multi_stream: TorchAir's pass
// (_acl_concrete_graph/graph_pass.py:612-680). A captured graph must fork
// every user stream from the capturing stream and join it back before the
// end; this pass inserts exactly the tagged events TorchAir inserts for that,
// in the same places, with the same tags. Like TorchAir it does not look for
// events a previous run inserted: running it twice inserts them twice.
#include <cctype>
#include <span>

#include <fmt/format.h>

#include "core/analysis/stream_util.h"
#include "core/fx/python_repr.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

std::vector<Argument> TagArgs(const std::string& tag) { return {Argument::String(tag), Argument::Bool(true)}; }

// TorchAir: node.kwargs = {**node.kwargs, 'need_execute': True}. Returns whether it changed.
bool MarkNeedExecute(Graph& graph, Node* node) {
  const Argument* existing = node->kwarg("need_execute");
  if (existing && existing->kind() == Argument::Kind::kBool && existing->as_bool()) return false;
  std::vector<Kwarg> kwargs;
  bool replaced = false;
  for (const Kwarg& kw : node->kwargs()) {
    if (kw.name == "need_execute") {
      kwargs.push_back({"need_execute", Argument::Bool(true)});  // a dict update keeps the key's place
      replaced = true;
    } else {
      kwargs.push_back(kw);
    }
  }
  if (!replaced) kwargs.push_back({"need_execute", Argument::Bool(true)});
  graph.SetKwargs(node, std::move(kwargs));
  return true;
}

bool NamesUserStream(const Node& scope_enter) {
  if (scope_enter.args().empty() || !scope_enter.args()[0].is_sequence()) return false;
  for (const Argument& key : scope_enter.args()[0].items()) {
    if (key.kind() == Argument::Kind::kString && key.as_string() == kUserStreamLabel) return true;
  }
  return false;
}

// Python's int(str) on a decimal literal (sign, digits, surrounding blanks, '_' between digits).
bool PythonIntParses(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) text.remove_prefix(1);
  if (text.empty() || text.front() == '_' || text.back() == '_') return false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '_' && text[i + 1] != '_') continue;
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return false;
  }
  return true;
}

// _extract_user_stream_info (gp:592-609): int() of the values of the
// _user_stream_id/_device_index/_device_type keys. airscope keeps nothing of
// the result (it is for codegen), only the error int() raises.
Status CheckUserStreamInfo(const Node& enter) {
  std::span<const Argument> keys = enter.args()[0].items();
  std::span<const Argument> values = enter.args()[1].items();
  for (size_t i = 0; i < keys.size() && i < values.size(); ++i) {
    if (keys[i].kind() != Argument::Kind::kString) continue;
    const std::string& key = keys[i].as_string();
    if (key != "_user_stream_id" && key != "_user_stream_device_index" && key != "_user_stream_device_type") continue;
    if (values[i].kind() == Argument::Kind::kInt) continue;
    if (values[i].kind() == Argument::Kind::kString && PythonIntParses(values[i].as_string())) continue;
    return Status::Errorf("ValueError: invalid literal for int() with base 10: {} (air.scope_enter '{}', key {})",
                          FormatPythonArg(values[i]), enter.name(), key);
  }
  return Status::Ok();
}

Result<bool> EventClosure(Graph& graph, PassContext& context) {
  bool changed = false;
  std::vector<Node*> user_enters, user_exits;
  std::vector<Node*> open;  // scope_enter_nodes_stack
  for (Node* node : graph.Nodes()) {
    if (IsTarget(*node, kScopeEnter)) {
      changed |= MarkNeedExecute(graph, node);
      if (NamesUserStream(*node)) {
        // TorchAir reads node.args[1][0] here (an IndexError without it).
        if (!UserStreamOf(*node)) {
          return Status::Errorf("air.scope_enter '{}' names '_user_stream_label' but args[1][0] is not its label",
                                node->name());
        }
        if (Status info = CheckUserStreamInfo(*node); !info.ok()) return info;
        user_enters.push_back(node);
      }
      open.push_back(node);
    } else if (IsTarget(*node, kScopeExit)) {
      changed |= MarkNeedExecute(graph, node);
      if (!open.empty() && NamesUserStream(*open.back())) user_exits.push_back(node);
      // TorchAir pops unconditionally: IndexError on an exit without an enter (_valid_graph rules that out).
      if (open.empty()) return Status::Errorf("IndexError: pop from empty list (air.scope_exit '{}')", node->name());
      open.pop_back();
    }
  }
  if (user_enters.empty()) return changed;

  const OpRegistry* registry = context.registry;
  Node* first = graph.front();
  std::string enter_tag = fmt::format("{}_{}", context.fx_graph_name, first->name());
  InsertCall(graph, first, /*before=*/true, kTaggedRecord, TagArgs(enter_tag), {}, registry,
             FxOverloadName(kTaggedRecord));
  for (Node* enter : user_enters)
    InsertCall(graph, enter, /*before=*/false, kTaggedWait, TagArgs(enter_tag), {}, registry,
               FxOverloadName(kTaggedWait));

  Node* output = graph.back();
  if (output->op() != OpKind::kOutput) {
    return Status::Errorf("RuntimeError: Graph must have output node as last node, but got {}", output->name());
  }
  for (Node* exit : user_exits) {
    std::string exit_tag = fmt::format("{}_{}", context.fx_graph_name, exit->name());
    InsertCall(graph, exit, /*before=*/true, kTaggedRecord, TagArgs(exit_tag), {}, registry,
               FxOverloadName(kTaggedRecord));
    InsertCall(graph, output, /*before=*/true, kTaggedWait, TagArgs(exit_tag), {}, registry,
               FxOverloadName(kTaggedWait));
  }
  return true;
}

}  // namespace

PassInfo EventClosurePass() {
  return {"apply_event_closure_with_multi_stream",
          "fork/join every user stream with tagged events (apply_event_closure_with_multi_stream)",
          "TorchAir's apply_event_closure_with_multi_stream (_acl_concrete_graph/graph_pass.py:612-680, called at\n"
          "fx2acl_converter.py:247-252). Every air.scope_enter/scope_exit gets the kwarg need_execute=True. The\n"
          "user-stream scopes are the scope_enters whose args[0] holds '_user_stream_label' (their label is\n"
          "args[1][0]) and the scope_exits that close one (the innermost open enter). If there is none, nothing\n"
          "else happens. Else, with TAG = '<fx graph name>_<name of the first node>' (the fx graph name is\n"
          "AclConcreteGraph's 'graph_<N>', airscope's context.fx_graph_name): an\n"
          "air.tagged_event_record.default(TAG, True) before the first node, an air.tagged_event_wait.default(TAG,\n"
          "True) right after each user-stream scope_enter (fork); for each user-stream scope_exit X, with\n"
          "EXIT_TAG = '<fx graph name>_<X>': air.tagged_event_record.default(EXIT_TAG, True) right before X and\n"
          "air.tagged_event_wait.default(EXIT_TAG, True) right before the output node (join). The output node must\n"
          "be last (TorchAir's RuntimeError otherwise). As in TorchAir, a second run inserts the events again.\n"
          "TorchAir int()s the values of the _user_stream_id/_user_stream_device_index/_user_stream_device_type keys\n"
          "(_extract_user_stream_info, gp:592-609): a value that is not an int literal (e.g. a DEFAULT_*_MARKER\n"
          "string left by replace_stream_event_pass) is Python's ValueError, reported as such.\n"
          "airscope simplifies: TorchAir also creates the torch.npu.Event of each tag in a process-global table\n"
          "and collects the labels and stream ids for codegen; airscope has no such table.",
          PassKind::kPipeline,
          EventClosure,
          {"event_closure"},
          EffectPolicy::kPreserveValues,
          PassOrigin::kTorchAir};
}

}  // namespace airscope

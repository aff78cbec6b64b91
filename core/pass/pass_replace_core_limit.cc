// replace_core_limit_nodes: TorchAir's pass (_acl_concrete_graph/
// graph_pass.py:709-787). `torchair.scope.limit_core_num(a, v)` puts an
// air.scope_enter(['_op_aicore_num', '_op_vectorcore_num'], [a, v]) in the
// graph; in a captured graph the limit must be set on the stream itself, so
// the scope becomes torch.npu.set_stream_limit calls that save and restore
// the stream's limits. The node sequence is TorchAir's, including where FX's
// inserting_after puts several nodes after the same one (each right after it,
// so they end up in reverse order of creation).
#include <fmt/format.h>

#include "core/analysis/stream_util.h"
#include "core/fx/python_repr.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

constexpr std::string_view kCurrentStream = "torch.npu.current_stream";
constexpr std::string_view kGetStreamLimit = "torch.npu.get_stream_limit";
constexpr std::string_view kSetStreamLimit = "torch.npu.set_stream_limit";

struct SavedLimit {
  Node* stream;
  Node* aicore;                         // getitem(get_stream_limit(stream), 'cube_core_num')
  Node* vectorcore;                     // getitem(get_stream_limit(stream), 'vector_core_num')
  Argument aicore_num, vectorcore_num;  // the scope's values, as written
};

enum class Opened : uint8_t { kCoreLimit, kStreamSwitch, kOther };

bool HasKeys(const Node& node, std::initializer_list<std::string_view> wanted) {
  if (node.args().empty() || !node.args()[0].is_sequence()) return false;
  for (std::string_view key : wanted) {
    bool found = false;
    for (const Argument& item : node.args()[0].items()) {
      if (item.kind() == Argument::Kind::kString && item.as_string() == key) found = true;
    }
    if (!found) return false;
  }
  return true;
}

// Python's int(x) for the scope's values (strings from limit_core_num, or ints).
Result<int64_t> PythonInt(const Node& node, const Argument& value) {
  if (value.kind() == Argument::Kind::kInt) return value.as_int();
  if (value.kind() == Argument::Kind::kString) {
    const std::string& text = value.as_string();
    size_t used = 0;
    try {
      int64_t parsed = std::stoll(text, &used);
      if (used == text.size()) return parsed;
    } catch (const std::exception&) {}
  }
  return Status::Errorf("ValueError: invalid literal for int() with base 10: {} (air.scope_enter '{}')",
                        FormatPythonArg(value), node.name());
}

Node* Call(Graph& graph, Node* position, bool before, std::string_view target, std::vector<Argument> args,
           std::string hint) {
  NodeSpec spec{OpKind::kCallFunction, std::string(target), std::move(args), {}, std::move(hint)};
  return before ? graph.InsertBefore(position, std::move(spec)) : graph.InsertAfter(position, std::move(spec));
}

Node* GetItem(Graph& graph, Node* position, bool before, Node* limits, const char* key) {
  return Call(graph, position, before, "operator.getitem", {Argument::NodeRef(limits), Argument::String(key)},
              "getitem");
}

Result<bool> EnterCoreLimit(Graph& graph, Node* node, std::vector<SavedLimit>& saved) {
  // TorchAir: aicore_num, vectorcore_num = node.args[1] (exactly two values, in that order).
  if (node->args().size() < 2 || !node->args()[1].is_sequence() || node->args()[1].items().size() != 2) {
    return Status::Errorf("ValueError: air.scope_enter '{}': args[1] must hold exactly the two core numbers",
                          node->name());
  }
  Argument aicore = node->args()[1].items()[0], vectorcore = node->args()[1].items()[1];
  AIRSCOPE_ASSIGN_OR_RETURN(int64_t a_or, PythonInt(*node, aicore));
  int64_t a = a_or;
  AIRSCOPE_ASSIGN_OR_RETURN(int64_t v_or, PythonInt(*node, vectorcore));
  int64_t v = v_or;
  Node* stream = Call(graph, node, true, kCurrentStream, {}, "current_stream");
  Node* limits = Call(graph, node, true, kGetStreamLimit, {Argument::NodeRef(stream)}, "get_stream_limit");
  Node* cube = GetItem(graph, node, true, limits, "cube_core_num");
  Node* vector = GetItem(graph, node, true, limits, "vector_core_num");
  Node* set = Call(graph, node, true, kSetStreamLimit, {Argument::NodeRef(stream), Argument::Int(a), Argument::Int(v)},
                   "set_stream_limit");
  graph.ReplaceAllUsesWith(node, set);
  AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
  saved.push_back({stream, cube, vector, aicore, vectorcore});
  return true;
}

// A stream switch inside a core-limit scope: the new stream gets the same limits.
Result<bool> EnterStreamSwitch(Graph& graph, Node* node, std::vector<SavedLimit>& saved) {
  const SavedLimit& last = saved.back();
  AIRSCOPE_ASSIGN_OR_RETURN(int64_t a_or, PythonInt(*node, last.aicore_num));
  int64_t a = a_or;
  AIRSCOPE_ASSIGN_OR_RETURN(int64_t v_or, PythonInt(*node, last.vectorcore_num));
  int64_t v = v_or;
  Node* stream = Call(graph, node, false, kCurrentStream, {}, "current_stream");
  Node* limits = Call(graph, stream, false, kGetStreamLimit, {Argument::NodeRef(stream)}, "get_stream_limit");
  // Created in the order set, vector, cube, each right after `limits`.
  Call(graph, limits, false, kSetStreamLimit, {Argument::NodeRef(stream), Argument::Int(a), Argument::Int(v)},
       "set_stream_limit");
  Node* vector = GetItem(graph, limits, false, limits, "vector_core_num");
  Node* cube = GetItem(graph, limits, false, limits, "cube_core_num");
  saved.push_back({stream, cube, vector, last.aicore_num, last.vectorcore_num});
  return true;
}

Result<bool> ReplaceCoreLimitNodes(Graph& graph, PassContext& context) {
  std::vector<Opened> opened;     // scope_enter_stack
  std::vector<SavedLimit> saved;  // core_limit_stack
  bool changed = false, enable_core_limit = false;
  for (Node* node : graph.Nodes()) {
    if (IsTarget(*node, kScopeEnter)) {
      if (HasKeys(*node, {"_op_aicore_num", "_op_vectorcore_num"})) {
        {
          Result<bool> entered = EnterCoreLimit(graph, node, saved);
          if (!entered.ok()) return entered.status();
          changed = true;
        }
        opened.push_back(Opened::kCoreLimit);
      } else if (HasKeys(*node, {"_user_stream_label", "_user_stream_priority"}) && !saved.empty()) {
        {
          Result<bool> entered = EnterStreamSwitch(graph, node, saved);
          if (!entered.ok()) return entered.status();
          changed = true;
        }
        opened.push_back(Opened::kStreamSwitch);
      } else {
        opened.push_back(Opened::kOther);
      }
    } else if (IsTarget(*node, kScopeExit)) {
      if (opened.empty()) return Status::Errorf("IndexError: pop from empty list (air.scope_exit '{}')", node->name());
      Opened last = opened.back();
      opened.pop_back();
      if (last != Opened::kOther) {
        SavedLimit restore = saved.back();
        saved.pop_back();
        Node* set = Call(graph, node, false, kSetStreamLimit,
                         {Argument::NodeRef(restore.stream), Argument::NodeRef(restore.aicore),
                          Argument::NodeRef(restore.vectorcore)},
                         "set_stream_limit");
        if (last == Opened::kCoreLimit) {
          graph.ReplaceAllUsesWith(node, set);
          AIRSCOPE_RETURN_IF_ERROR(graph.Erase(node));
        }
        changed = true;
      }
    }
    enable_core_limit |= !saved.empty();
  }
  if (enable_core_limit && context.config.aclnn_static_shape_kernel &&
      CompareVersions(context.env.cann_version, "9.0.0") < 0) {
    context.remarks.push_back(fmt::format(
        "UserWarning: When both static shape kernel and core limit are enabled, only core limit will take effect, "
        "static shape kernel will be disabled. CANN 9.0.0 or later supports enabling both features. (assumed CANN {})",
        context.env.cann_version));
  }
  return changed;
}

}  // namespace

PassInfo ReplaceCoreLimitNodesPass() {
  return {"replace_core_limit_nodes",
          "core-limit scopes -> torch.npu.set_stream_limit on the stream (replace_core_limit_nodes)",
          "TorchAir's replace_core_limit_nodes (_acl_concrete_graph/graph_pass.py:709-787, called at\n"
          "fx2acl_converter.py:295-296). For every air.scope_enter whose keys (args[0]) include '_op_aicore_num'\n"
          "and '_op_vectorcore_num' (torchair.scope.limit_core_num(a, v)): before it s = torch.npu.current_stream(),\n"
          "l = torch.npu.get_stream_limit(s), getitem(l, 'cube_core_num'), getitem(l, 'vector_core_num'),\n"
          "torch.npu.set_stream_limit(s, int(a), int(v)) (a, v = args[1], exactly two values); the scope_enter is\n"
          "erased. A scope_enter with '_user_stream_label' and '_user_stream_priority' inside a core-limit scope is\n"
          "kept, and right after it the new stream gets the same limits: current_stream, get_stream_limit, then\n"
          "getitem cube, getitem vector, set_stream_limit (that order: FX's inserting_after puts each node right\n"
          "after get_stream_limit). At the matching scope_exit, set_stream_limit(s, saved cube, saved vector)\n"
          "is inserted after it, and a core-limit scope_exit is erased. Other scopes are left alone. If a core\n"
          "limit was seen and config.experimental_config.aclgraph._aclnn_static_shape_kernel is on with CANN <\n"
          "9.0.0 (the device model's CANN, named in the remark), TorchAir's warning is left as a remark.\n"
          "airscope simplifies: targets are spelled torch.npu.current_stream/get_stream_limit/set_stream_limit as\n"
          "TorchAir's source writes them (FX prints them by their defining torch_npu module), they run nothing on\n"
          "the simulated device, and TorchAir also turns the static-kernel option off, which airscope only reports.",
          PassKind::kPipeline,
          ReplaceCoreLimitNodes,
          {},
          EffectPolicy::kPreserveValues,
          PassOrigin::kTorchAir};
}

}  // namespace airscope

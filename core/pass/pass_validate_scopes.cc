// _valid_graph: TorchAir's check, after the user's custom passes, that
// air.scope_enter/scope_exit and npu.super_kernel_scope_begin/end come in
// pairs (npu_fx_compiler.py:413-478). It raises RuntimeError with the texts
// below; airscope returns them as the pass's error, verbatim, so a user sees
// exactly what TorchAir would have said. It never changes the graph.
#include <algorithm>

#include <fmt/format.h>

#include "core/analysis/stream_util.h"
#include "core/fx/python_repr.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

constexpr std::string_view kSuperKernelBegin = "npu.super_kernel_scope_begin.default";
constexpr std::string_view kSuperKernelEnd = "npu.super_kernel_scope_end.default";

// Python's repr of `node.args` (a tuple): "(a, b)", "(a,)", "()".
std::string ArgsRepr(const Node& node) {
  std::vector<std::string> items;
  for (const Argument& arg : node.args()) items.push_back(FormatPythonArg(arg));
  if (items.size() == 1) return fmt::format("({},)", items[0]);
  return fmt::format("({})", fmt::join(items, ", "));
}

// Python's repr of `node.args[0] if len(node.args) > 0 else None`.
std::string FirstArgRepr(const Node& node) { return node.args().empty() ? "None" : FormatPythonArg(node.args()[0]); }

bool SameScopeName(const Node& a, const Node& b) {
  if (a.args().empty() || b.args().empty()) return a.args().empty() && b.args().empty();
  return a.args()[0].SameAs(b.args()[0]);
}

std::string ReprList(const std::vector<const Node*>& nodes, std::string (*repr)(const Node&)) {
  std::vector<std::string> items;
  for (const Node* n : nodes) items.push_back(repr(*n));
  return fmt::format("[{}]", fmt::join(items, ", "));
}

constexpr std::string_view kCheckYourCode =
    "Please check your code or your post_grad_custom_pre_pass post_grad_custom_post_pass!"
    "This error may also occur in a Dynamo graph break scenario.";

Result<bool> ValidGraph(Graph& graph, PassContext&) {
  std::vector<const Node*> scope_enters;
  std::vector<const Node*> super_kernel_begins;
  for (const Node* node : graph) {
    if (IsTarget(*node, kScopeEnter)) {
      scope_enters.push_back(node);
    } else if (IsTarget(*node, kScopeExit)) {
      if (scope_enters.empty()) {
        return Status::Errorf(
            "RuntimeError: When you call the torch.ops.air.scope_exit operator: {}, you must first call the "
            "torch.ops.air.scope_enter operator, as they must be called in pairs. {}",
            node->name(), kCheckYourCode);
      }
      scope_enters.pop_back();
    } else if (IsTarget(*node, kSuperKernelBegin)) {
      super_kernel_begins.push_back(node);
    } else if (IsTarget(*node, kSuperKernelEnd)) {
      if (super_kernel_begins.empty()) {
        return Status::Errorf(
            "RuntimeError: When you call the torch.npu.super_kernel_scope_end operator: {}, you must first call the "
            "torch.npu.super_kernel_scope_begin, as they must be called in pairs. {}",
            node->name(), kCheckYourCode);
      }
      // Pairs by scope name (args[0]), in any order: the first open begin with the same name.
      auto match = std::find_if(super_kernel_begins.begin(), super_kernel_begins.end(),
                                [&](const Node* begin) { return SameScopeName(*begin, *node); });
      if (match == super_kernel_begins.end()) {
        return Status::Errorf(
            "RuntimeError: No matching torch.npu.super_kernel_scope_begin found for "
            "torch.npu.super_kernel_scope_end operator '{}' with scope_name='{}'. Available unmatched scope_names "
            "are: {}. Please ensure that each super_kernel_scope_end has a corresponding super_kernel_scope_begin "
            "with the same scope_name parameter.",
            node->name(),
            node->args().empty()                                ? "None"
            : node->args()[0].kind() == Argument::Kind::kString ? node->args()[0].as_string()
                                                                : FormatPythonArg(node->args()[0]),
            ReprList(super_kernel_begins, FirstArgRepr));
      }
      super_kernel_begins.erase(match);
    }
  }
  if (!scope_enters.empty()) {
    return Status::Errorf(
        "RuntimeError: After you call the torch.ops.air.scope_enter operator, there is no paired call to the "
        "torch.ops.air.scope_exit operator. The parameters for these torch.ops.air.scope_enter calls are:{}. {}",
        ReprList(scope_enters, ArgsRepr), kCheckYourCode);
  }
  if (!super_kernel_begins.empty()) {
    return Status::Errorf(
        "RuntimeError: After you call the torch.npu.super_kernel_scope_begin operator, there is no paired call to "
        "the torch.npu.super_kernel_scope_end operator. The parameters for these "
        "torch.npu.super_kernel_scope_begin calls are:{}. {}",
        ReprList(super_kernel_begins, FirstArgRepr), kCheckYourCode);
  }
  return false;
}

}  // namespace

PassInfo ValidGraphPass() {
  return {"_valid_graph",
          "check that scope_enter/exit and super_kernel_scope_begin/end pair up (_valid_graph)",
          "TorchAir's _valid_graph (npu_fx_compiler.py:413-478), run after post_grad_custom_post_pass\n"
          "(nfc:683). air.scope_enter/air.scope_exit are matched with a stack: an exit with no open enter, or\n"
          "enters left open at the end, raise TorchAir's RuntimeError (the message is TorchAir's, verbatim,\n"
          "listing the args of the open enters). npu.super_kernel_scope_begin/end are matched by scope name\n"
          "(args[0]) in any order: an end with no open begin, an end whose name matches no open begin, or\n"
          "begins left open raise TorchAir's RuntimeErrors. The first problem in graph order is reported\n"
          "(TorchAir raises at the first one too). Never changes the graph. airscope simplifies: Python's\n"
          "repr of the args is airscope's Python spelling of them (nodes print as their names).",
          PassKind::kPipeline,
          ValidGraph,
          {"validate_scopes"},
          EffectPolicy::kPreserveValues,
          PassOrigin::kTorchAir};
}

}  // namespace airscope

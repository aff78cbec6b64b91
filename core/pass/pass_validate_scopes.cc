// validate_scopes: air.scope_enter / air.scope_exit must pair up and nest.
// TorchAir finds an unpaired scope late (when it assigns streams); checking
// it as its own stage names the offending nodes before anything else runs.
#include <fmt/format.h>

#include "core/pass/builtin_passes.h"
#include "core/pass/stream_util.h"

namespace airscope {
namespace {

Result<bool> ValidateScopes(Graph& graph, PassContext&) {
  std::vector<const Node*> open;
  std::vector<std::string> problems;
  for (const Node* node : graph) {
    if (IsTarget(*node, kScopeEnter)) {
      open.push_back(node);
    } else if (IsTarget(*node, kScopeExit)) {
      if (open.empty()) {
        problems.push_back(fmt::format("air.scope_exit '{}' has no matching scope_enter", node->name()));
      } else {
        open.pop_back();
      }
    }
  }
  for (const Node* enter : open) {
    std::optional<std::string> stream = UserStreamOf(*enter);
    problems.push_back(fmt::format("air.scope_enter '{}' (stream {}) is never closed", enter->name(),
                                   stream ? *stream : "not a user stream"));
  }
  if (!problems.empty()) return Status::Error(fmt::format("{}", fmt::join(problems, "; ")));
  return false;
}

}  // namespace

PassInfo ValidGraphPass() {
  return {"_valid_graph", "check that air.scope_enter/scope_exit pair up and nest",
          "Checks that every air.scope_enter has a matching air.scope_exit after it and that scopes nest\n"
          "(a stack, innermost closed first). An unpaired marker is an error naming every such node, e.g.\n"
          "\"air.scope_exit 'scope_exit_1' has no matching scope_enter\" or \"air.scope_enter 'scope_enter'\n"
          "(stream stream_1) is never closed\". Never changes the graph. TorchAir has no separate pass for\n"
          "this: its stream assignment in torchair/_acl_concrete_graph/graph_pass.py assumes paired scopes;\n"
          "airscope checks it up front so the error names the nodes.",
          PassKind::kPipeline, ValidateScopes, {"validate_scopes"}};
}

}  // namespace airscope

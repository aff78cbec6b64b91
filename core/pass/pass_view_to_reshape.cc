// view_to_reshape: aten.view / aten._unsafe_view become aten.reshape with the
// same arguments (Inductor's view_to_reshape post-grad pass: reshape copies
// when the input's strides do not allow a view, so later passes that change
// layouts cannot make a view invalid).
#include <fmt/format.h>

#include "core/pass/builtin_passes.h"
#include "core/pass/pass_util.h"

namespace airscope {
namespace {

Result<bool> RunViewToReshape(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  int rewritten = 0;
  for (Node* node : graph) {
    if (!IsTarget(*node, "aten.view.default") && !IsTarget(*node, "aten._unsafe_view.default")) continue;
    Retarget(graph, node, "aten.reshape.default", registry);
    ++rewritten;
  }
  if (rewritten > 0) context.remarks.push_back(fmt::format("{} view(s) now reshape", rewritten));
  return rewritten > 0;
}

}  // namespace

PassInfo ViewToReshapePass() {
  return {"view_to_reshape", "aten.view and aten._unsafe_view become aten.reshape",
          "Retargets every aten.view.default and aten._unsafe_view.default call to aten.reshape.default with "
          "the same arguments, keeping the node's name, stream, users and meta (as Inductor assigns "
          "node.target). Leaves every other view op (transpose, expand, _reshape_alias, ...) alone. Models "
          "Inductor's view_to_reshape post-grad pass.",
          PassKind::kPipeline, RunViewToReshape};
}

}  // namespace airscope

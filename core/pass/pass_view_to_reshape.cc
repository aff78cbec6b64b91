// view_to_reshape: TorchAir's _view_to_reshape (npu_fx_compiler.py:304-309)
// sets node.target = aten.reshape.default on every aten.view.default node;
// nothing else (aten._unsafe_view and the other view ops stay).
#include <fmt/format.h>

#include "core/analysis/node_util.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

Result<bool> RunViewToReshape(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  int rewritten = 0;
  for (Node* node : graph) {
    if (!IsTarget(*node, "aten.view.default")) continue;
    Retarget(graph, node, "aten.reshape.default", registry);
    ++rewritten;
  }
  if (rewritten > 0) context.remarks.push_back(fmt::format("{} aten.view.default now aten.reshape.default", rewritten));
  return rewritten > 0;
}

}  // namespace

PassInfo ViewToReshapePass() {
  return {"view_to_reshape",
          "aten.view.default becomes aten.reshape.default (TorchAir's _view_to_reshape)",
          "TorchAir's _view_to_reshape (npu_fx_compiler.py:304-309, always run by _optimize_fx nfc:340) sets\n"
          "node.target = torch.ops.aten.reshape.default on every node whose target is aten.view.default,\n"
          "keeping its name, args, users and meta. Every other op, aten._unsafe_view.default and\n"
          "aten.view.dtype included, is left alone. airscope simplifies nothing here.",
          PassKind::kPipeline,
          RunViewToReshape,
          {},
          EffectPolicy::kPreserveValues,
          PassOrigin::kTorchAir};
}

}  // namespace airscope

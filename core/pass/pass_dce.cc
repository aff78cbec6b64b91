// dce: dead code elimination, as torch.fx's Graph.eliminate_dead_code.
#include <fmt/format.h>

#include "core/analysis/node_util.h"
#include "core/pass/builtin_passes.h"

namespace airscope {
namespace {

Result<bool> RunDce(Graph& graph, PassContext& context) {
  const OpRegistry& registry = RegistryOf(context);
  AIRSCOPE_ASSIGN_OR_RETURN(size_t dead, EliminateDeadCode(graph, registry));
  const size_t erased = dead;
  if (erased > 0) context.remarks.push_back(fmt::format("erased {} dead node(s)", erased));
  return erased > 0;
}

}  // namespace

PassInfo DcePass() {
  return {"eliminate_dead_code",
          "erase calls whose results nobody uses",
          "Erases every call_function node without users that has no side effects, in one reverse walk (a node "
          "that becomes dead when its last user goes is erased in the same walk). Keeps placeholders, get_attr, "
          "the output, and calls with side effects: in-place ops (copy_ included), TorchAir's air.* stream and "
          "event ops, host syncs (_local_scalar_dense, item), random ops, and ops the registry does not know. "
          "Models torch.fx's eliminate_dead_code as TorchAir's AclConcreteGraph runs it.",
          PassKind::kPipeline,
          RunDce,
          {"dce"},
          EffectPolicy::kPreserveValues,
          PassOrigin::kTorchAir};
}

}  // namespace airscope

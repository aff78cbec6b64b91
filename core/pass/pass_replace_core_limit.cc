// STUB: replaced by its implementation in this change series.
#include "core/pass/builtin_passes.h"

namespace airscope {

PassInfo ReplaceCoreLimitNodesPass() {
  return {"replace_core_limit_nodes", "(not yet implemented)", "(not yet implemented)", PassKind::kPipeline,
          [](Graph&, PassContext&) -> Result<bool> { return false; }, {}, EffectPolicy::kPreserveValues};
}

}  // namespace airscope

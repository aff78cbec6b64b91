// STUB: replaced by its implementation in this change series.
#include "core/pass/builtin_passes.h"

namespace airscope {

PassInfo DecomposeAutoFunctionalizedPass() {
  return {"decompose_auto_functionalized", "(not yet implemented)", "(not yet implemented)", PassKind::kPipeline,
          [](Graph&, PassContext&) -> Result<bool> { return false; }, {}, EffectPolicy::kPreserveValues};
}

}  // namespace airscope

// STUB: replaced by its implementation in this change series.
#include "core/pass/builtin_passes.h"

namespace airscope {

PassInfo RecoverViewInplacePatternPass() {
  return {"recover_view_inplace_pattern", "(not yet implemented)", "(not yet implemented)", PassKind::kPipeline,
          [](Graph&, PassContext&) -> Result<bool> { return false; }, {}, EffectPolicy::kPreserveValues};
}

}  // namespace airscope

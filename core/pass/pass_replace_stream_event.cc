// STUB: replaced by its implementation in this change series.
#include "core/pass/builtin_passes.h"

namespace airscope {

PassInfo ReplaceStreamEventPass() {
  return {"replace_stream_event_pass", "(not yet implemented)", "(not yet implemented)", PassKind::kPipeline,
          [](Graph&, PassContext&) -> Result<bool> { return false; }, {}, EffectPolicy::kPreserveAliasing};
}

}  // namespace airscope

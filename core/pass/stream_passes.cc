// Registration of the stream passes (custom stages, TorchAir's
// AclConcreteGraph passes and lower); each lives in its own pass_<name>.cc.
#include "core/pass/stream_passes.h"

namespace airscope {

void RegisterStreamPasses(PassRegistry& registry) {
  for (PassInfo info : {CustomPrePass(), CustomPostPass(), ValidateScopesPass(), RemoveCatOpsPass(),
                        EventClosurePass(), EventRecordPass(), ResolveStreamMarkersPass(), LowerPass()}) {
    // Builtin names are distinct and legal, so registering cannot fail.
    (void)registry.Register(std::move(info));
  }
}

}  // namespace airscope

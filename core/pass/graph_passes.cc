// Registers the builtin graph passes (each defined in its own pass_*.cc).
#include "core/pass/graph_passes.h"

#include <cassert>

namespace airscope {

void RegisterGraphPasses(PassRegistry& registry) {
  for (PassInfo (*make)() : {DecomposePass, FunctionalizePass, RemoveNoopPass, ViewToReshapePass, DcePass,
                              ReinplacePass, CsePass, ConstantFoldPass, FusePointwisePass}) {
    Status status = registry.Register(make());
    assert(status.ok());
    (void)status;
  }
}

}  // namespace airscope

// Placeholder until the graph passes land.
#include "core/pass/pass.h"

namespace airscope {
void RegisterGraphPasses(PassRegistry&) {}
}  // namespace airscope

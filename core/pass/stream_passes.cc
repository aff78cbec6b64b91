// Placeholder until the stream passes land.
#include "core/pass/pass.h"

namespace airscope {
void RegisterStreamPasses(PassRegistry&) {}
}  // namespace airscope

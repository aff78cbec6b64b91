// Every builtin pass, one factory per pass file, declared from the one list
// builtin_passes.def (a new pass is its file plus one row there). The pipeline
// passes carry TorchAir's names and, in `help pass NAME`, the TorchAir
// function they model and what airscope simplifies; the optional passes are
// airscope's own. Tests and benches may run a pass directly through its PassInfo.
#pragma once

#include <vector>

#include "core/pass/pass.h"

namespace airscope {

#define AIRSCOPE_BUILTIN_PASS(factory) PassInfo factory();
#include "core/pass/builtin_passes.def"
#undef AIRSCOPE_BUILTIN_PASS

// Every factory of builtin_passes.def, in its order.
const std::vector<PassInfo (*)()>& BuiltinPassFactories();

}  // namespace airscope

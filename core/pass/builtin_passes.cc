#include "core/pass/builtin_passes.h"

namespace airscope {

const std::vector<PassInfo (*)()>& BuiltinPassFactories() {
  static const std::vector<PassInfo (*)()> kFactories = {
#define AIRSCOPE_BUILTIN_PASS(factory) factory,
#include "core/pass/builtin_passes.def"
#undef AIRSCOPE_BUILTIN_PASS
  };
  return kFactories;
}

}  // namespace airscope

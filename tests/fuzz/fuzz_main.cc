// libFuzzer's entry point for one target (fuzz_targets.h): each fuzz_<name>
// binary is this file built with AIRSCOPE_FUZZ_TARGET="<name>".
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "tests/fuzz/fuzz_targets.h"

#ifndef AIRSCOPE_FUZZ_TARGET
#error "define AIRSCOPE_FUZZ_TARGET as the target's name"
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const airscope::fuzz::Target* const target = airscope::fuzz::FindTarget(AIRSCOPE_FUZZ_TARGET);
  if (target == nullptr) __builtin_trap();  // a name fuzz_targets.cc does not have
  target->run(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}

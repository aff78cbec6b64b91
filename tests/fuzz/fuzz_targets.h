// The fuzz targets: one function per input parser airscope exposes to users,
// each given the bytes of one input. A parser may reject its input with an
// error; it must never crash, hang, or trip a sanitizer, and what it accepts
// must keep the invariants its users rely on (a broken one is
// __builtin_trap(), a crash the fuzzers report).
//
// They run two ways, from the same code:
// - libFuzzer binaries built with clang, one per target (fuzz_main.cc,
//   `cmake -DAIRSCOPE_FUZZ=ON`; scripts/fuzz builds and runs them);
// - fuzz_driver (fuzz_driver.cc), built with gcc in the sanitizer build and
//   registered with ctest there: every target over its seeds (seeds.txt)
//   and a deterministic, seeded mutation loop for a bounded time.
#pragma once

#include <string_view>
#include <vector>

namespace airscope::fuzz {

struct Target {
  std::string_view name;  // "fx_text": the fuzz_<name> binary, the seeds.txt row
  void (*run)(std::string_view data);
};

// Every target, in seeds.txt's order.
const std::vector<Target>& Targets();
// The target named `name`, or null.
const Target* FindTarget(std::string_view name);

}  // namespace airscope::fuzz

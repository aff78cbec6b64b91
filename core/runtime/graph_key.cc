#include "core/runtime/graph_key.h"

#include <fmt/format.h>

namespace airscope {

int64_t PythonIntHash(int64_t value) {
  // Python/pyhash.c: _PyHASH_MODULUS = 2**61 - 1 on 64-bit builds; -1 is reserved.
  constexpr int64_t kModulus = (int64_t{1} << 61) - 1;
  int64_t h = value >= 0 ? value % kModulus : -((-value) % kModulus);
  return h == -1 ? -2 : h;
}

int64_t PythonTupleHash(std::span<const int64_t> items) {
  // CPython's tuplehash (Objects/tupleobject.c, 3.8+), 64-bit constants.
  constexpr uint64_t kPrime1 = 11400714785074694791ULL;
  constexpr uint64_t kPrime2 = 14029467366897019727ULL;
  constexpr uint64_t kPrime5 = 2870177450012600261ULL;
  uint64_t acc = kPrime5;
  for (int64_t item : items) {
    uint64_t lane = static_cast<uint64_t>(PythonIntHash(item));
    acc += lane * kPrime2;
    acc = (acc << 31) | (acc >> 33);
    acc *= kPrime1;
  }
  acc += static_cast<uint64_t>(items.size()) ^ (kPrime5 ^ 3527539ULL);
  if (acc == static_cast<uint64_t>(-1)) return 1546275796;
  return static_cast<int64_t>(acc);
}

std::string GraphKey(const FxGraphInfo& info, std::span<const CallArg> args, bool frozen_parameter) {
  const std::vector<UnupdatedInput>& index = info.unupdated_sym_input_index;
  std::string key;
  if (index.empty()) {
    key = "no_updated_input";  // gen_unupdate_input_func, ag:230-234
  } else {
    // str() of a list of ints (symbols) and lists of ints (shapes), ag:236-259.
    std::vector<std::string> parts;
    for (const UnupdatedInput& u : index) {
      const CallArg& arg = args[u.index];
      parts.push_back(u.symbol ? fmt::format("{}", arg.value) : fmt::format("[{}]", fmt::join(arg.sizes, ", ")));
    }
    key = fmt::format("[{}]", fmt::join(parts, ", "));
  }
  if (frozen_parameter) return key;
  std::vector<int64_t> pointers;
  for (size_t i = 0; i < info.inputs.size(); ++i) {
    if (info.inputs[i].parameter) pointers.push_back(static_cast<int64_t>(args[i].data_ptr));
  }
  if (pointers.empty()) return key;
  return key + fmt::format("{}", PythonTupleHash(pointers));  // ag:270-276
}

}  // namespace airscope

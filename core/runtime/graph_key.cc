#include "core/runtime/graph_key.h"

#include <fmt/format.h>

namespace airscope {

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

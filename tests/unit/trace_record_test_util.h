// A TORCH_TRACE record as torch/_logging/_internal.py trace_structured writes
// it: the glog prefix, the JSON envelope (with the payload's md5 when there
// is a payload), and the payload's lines, each behind a TAB.
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "formats/md5.h"

namespace airscope::testing_trace {

inline std::string Record(std::string_view envelope, std::string_view payload = {}) {
  std::string line = fmt::format("V0101 00:00:00.000000 1 a.py:1] {{{}", envelope);
  if (payload.empty()) return line + "}\n";
  line += fmt::format(", \"has_payload\": \"{}\"}}\n", Md5Hex(payload));
  size_t pos = 0;
  while (pos <= payload.size()) {
    size_t end = std::min(payload.find('\n', pos), payload.size());
    line += fmt::format("\t{}\n", payload.substr(pos, end - pos));
    pos = end + 1;
  }
  return line;
}

}  // namespace airscope::testing_trace

// TORCH_TRACE records for the benches that make synthetic logs: one glog
// line with the envelope's JSON, then the payload's lines, each after a tab,
// with the payload's md5 in "has_payload" (as torch._logging's trace_structured
// writes them, and tlparse and airscope check them).
#pragma once

#include <string>
#include <string_view>

#include <fmt/format.h>

#include "formats/md5.h"

namespace airscope::bench {

// `envelope` is the record's JSON without its closing brace.
inline void Record(std::string& out, std::string_view envelope, std::string_view payload) {
  out += "V1206 15:18:20.599000 1500233 torch/_dynamo/output_graph.py:1336] ";
  if (payload.empty()) {
    out += envelope;
    out += "}\n";
    return;
  }
  out += envelope;
  out += fmt::format(", \"has_payload\": \"{}\"}}\n", Md5Hex(payload));
  size_t pos = 0;
  while (pos <= payload.size()) {
    size_t end = payload.find('\n', pos);
    if (end == std::string_view::npos) end = payload.size();
    out += '\t';
    out.append(payload.substr(pos, end - pos));
    out += '\n';
    pos = end + 1;
  }
}

}  // namespace airscope::bench

#include "formats/json_sniff.h"

#include "core/fx/json_text.h"

namespace airscope {

bool StartsAsJson(std::string_view line) {
  constexpr size_t kLooked = 4096;
  std::string_view span = line.substr(0, kLooked);
  while (!span.empty() && (span.back() == '\r' || span.back() == ' ' || span.back() == '\t')) span.remove_suffix(1);
  if (span.empty() || (span.front() != '{' && span.front() != '[')) return false;
  JsonScan scan = ScanJson(span);
  // nlohmann counts the characters it read: an error inside the span is at
  // most its size; running out of input (a value the next lines continue)
  // reads one past it. A number beyond a double (406) is JSON with a value
  // too big: the reader says so, where it is.
  return scan.ok || scan.error_at > span.size() || scan.error_id == 406;
}

}  // namespace airscope

#include "core/glob.h"

#include <fnmatch.h>

#include <string>

namespace airscope {

bool GlobMatch(std::string_view pattern, std::string_view text) {
  // fnmatch(3) reads NUL-terminated strings. No flags: '/' and a leading
  // '.' are ordinary characters in node names and targets.
  std::string p(pattern), t(text);
  return ::fnmatch(p.c_str(), t.c_str(), 0) == 0;
}

}  // namespace airscope

// Shell-style glob matching (`*` any run, `?` any one character), used
// wherever a user names nodes or targets by pattern: `find`, `expect nodes`,
// and the rewrite language's `on PATTERN:`. Iterative with one backtrack
// point, so it is linear for typical patterns and never recurses.
#pragma once

#include <string_view>

namespace airscope {

bool GlobMatch(std::string_view pattern, std::string_view text);

}  // namespace airscope

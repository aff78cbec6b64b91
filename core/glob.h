// Shell-style glob matching, used wherever a user names nodes or targets by
// pattern: `find`, `expect nodes`, and the rewrite language's `on PATTERN:`.
// It is the C library's fnmatch(3) without flags: `*` any run, `?` any one
// character, `[abc]`/`[0-9]`/`[!x]` a class, `\` quotes the next character.
#pragma once

#include <string_view>

namespace airscope {

bool GlobMatch(std::string_view pattern, std::string_view text);

}  // namespace airscope

// Whether a line can be the start of a JSON document: `load` tells formats
// apart by content, and a `[` or `{` alone does not make JSON. A TORCH_LOGS
// log pasted from a terminal can start with the shell prompt,
// `[user@host dir]$ TORCH_LOGS=... python ...`, which starts as a JSON array
// does and is not one.
#pragma once

#include <string_view>

namespace airscope {

// True when `line` (a file's first meaningful line) parses as JSON up to its
// end: a complete value, or a prefix of one that the following lines may
// finish (`{`, `[1, 2,`). False at the first character that no JSON text could
// have there (`[user@host` fails at `u`). Looks at the first 4096 bytes.
bool StartsAsJson(std::string_view line);

}  // namespace airscope

// Tab completion, independent of readline so it can be tested: given the
// line up to the cursor, what can the word under the cursor become. Reads
// the command table's completers; knows nothing else about commands.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "repl/command_table.h"
#include "repl/session.h"

namespace airscope {

struct Completion {
  bool files = false;                   // complete file paths (readline does this itself)
  std::vector<std::string> candidates;  // sorted, each starting with the word typed so far
};

Completion Complete(const CommandTable& table, const Session& session, std::string_view line_before_cursor);

}  // namespace airscope

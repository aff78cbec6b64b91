// TerminalSafe: text from graphs and logs made fit to reach a terminal.
//
// A node name, target or string argument may hold anything its file did:
// ESC sequences (clear the screen, OSC 52 writes the clipboard), C1 controls,
// bytes that are not UTF-8, or ten megabytes. Before any line reaches the
// terminal it goes through here: control characters other than tab and
// newline, U+0080-U+009F and invalid UTF-8 bytes become `\xNN` (as Python's
// repr() writes them) and the line is cut at `max_bytes` with a note of what
// was left out. Valid printable UTF-8 passes unchanged.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace airscope {

inline constexpr size_t kMaxTerminalLine = 16384;

std::string TerminalSafe(std::string_view text, size_t max_bytes = kMaxTerminalLine);

}  // namespace airscope

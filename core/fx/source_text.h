// Helpers shared by the text loaders: where an offset is (line:col) and the
// encoding check every loader runs before it parses, so binary garbage gets
// one clear error instead of a confusing syntax error deep in a line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/status.h"

namespace airscope {

struct LineCol {
  size_t line = 1;  // 1-based
  size_t col = 1;   // 1-based, in bytes
};
// Counts newlines before `offset`: meant for error paths, not per line.
LineCol LineColAt(std::string_view text, size_t offset);

// "FILENAME:LINE:COL: message" (core/scanner.h's LocationPrefix), without a
// quoted line: for errors about the bytes themselves (CheckSourceText) and
// for parsers that no longer hold the line. Syntax errors come from a
// Scanner, which quotes the line.
Status ErrorAt(std::string_view filename, size_t line, size_t col, std::string_view message);
Status ErrorAtOffset(std::string_view filename, std::string_view text, size_t offset, std::string_view message);

// The length (2-4) of the valid UTF-8 sequence starting at s[i] (a byte >=
// 0x80), or 0 if it is not one (RFC 3629: no overlongs, surrogates or code
// points above U+10FFFF).
size_t Utf8Length(std::string_view s, size_t i);

// Fails on an empty (or all-whitespace) text, a NUL byte, invalid UTF-8 or
// a CR not followed by LF, naming where.
Status CheckSourceText(std::string_view text, std::string_view filename);

}  // namespace airscope

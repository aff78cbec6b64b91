// JSON text as airscope reads it: nlohmann-json wrapped so that nothing throws
// past this layer, syntax errors name FILENAME:LINE:COL, and documents nested
// too deep for nlohmann's recursive parser are refused before it runs.
#pragma once

#include <cstddef>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/status.h"

namespace airscope {

// 1-based line and column (in bytes) of `offset` in `text`; offsets past the
// end point just after the last byte.
struct TextPosition {
  size_t line = 1;
  size_t column = 1;
};
TextPosition PositionOfOffset(std::string_view text, size_t offset);

// nlohmann's parser recurses once per nesting level, so hostile input could
// overflow the stack. This scan (strings skipped) fails with
// "LINE:COL: nesting deeper than N" at the first bracket past `max_depth`.
Status CheckJsonDepth(std::string_view text, size_t max_depth);

// Reads `text` as JSON without keeping anything: where the first error is
// (nlohmann's count of characters read, so one past the offending one; past
// the end when the text stops inside a value) and its exception id (101 for
// syntax, 406 for a number beyond a double), or ok.
struct JsonScan {
  bool ok = true;
  size_t error_at = 0;
  int error_id = 0;
};
JsonScan ScanJson(std::string_view text);

// Parses a whole document. Errors: "FILENAME:LINE:COL: message" for syntax
// (including invalid UTF-8, excessive depth and a number beyond a double),
// "FILENAME: message" otherwise.
Result<nlohmann::json> ParseJsonText(std::string_view text, std::string_view filename, size_t max_depth = 256);

}  // namespace airscope

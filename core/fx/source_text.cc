#include "core/fx/source_text.h"

#include <algorithm>
#include <cstdint>
#include <cstring>

#include <fmt/format.h>

#include "core/scanner.h"

namespace airscope {

LineCol LineColAt(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  LineCol where;
  where.line = 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + offset, '\n'));
  size_t line_start = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  line_start = (line_start == std::string_view::npos || offset == 0) ? 0 : line_start + 1;
  where.col = offset - line_start + 1;
  return where;
}

Status ErrorAt(std::string_view filename, size_t line, size_t col, std::string_view message) {
  return Status::Error(LocationPrefix(filename, line, col) + std::string(message));
}

Status ErrorAtOffset(std::string_view filename, std::string_view text, size_t offset, std::string_view message) {
  LineCol where = LineColAt(text, offset);
  return ErrorAt(filename, where.line, where.col, message);
}

size_t Utf8Length(std::string_view s, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = byte(i);
  size_t n = 0;
  uint32_t min = 0;
  uint32_t cp = 0;
  if (c >= 0xC2 && c <= 0xDF) {
    n = 2;
    cp = c & 0x1F;
    min = 0x80;
  } else if (c >= 0xE0 && c <= 0xEF) {
    n = 3;
    cp = c & 0x0F;
    min = 0x800;
  } else if (c >= 0xF0 && c <= 0xF4) {
    n = 4;
    cp = c & 0x07;
    min = 0x10000;
  } else
    return 0;
  if (i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    unsigned char cc = byte(i + k);
    if ((cc & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (cc & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

Status CheckSourceText(std::string_view text, std::string_view filename) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    return ErrorAt(filename, 1, 1, "empty file");
  }
  const char* data = text.data();
  size_t size = text.size();
  size_t i = 0;
  while (i < size) {
    // Eight bytes at a time while they are all ASCII and non-NUL (the common case).
    if (i + 8 <= size) {
      uint64_t word;
      std::memcpy(&word, data + i, 8);
      uint64_t high = word & 0x8080808080808080ULL;
      uint64_t zero = (word - 0x0101010101010101ULL) & ~word & 0x8080808080808080ULL;
      if ((high | zero) == 0) {
        i += 8;
        continue;
      }
    }
    unsigned char c = static_cast<unsigned char>(data[i]);
    if (c == 0) return ErrorAtOffset(filename, text, i, "NUL byte: this is not a text file");
    if (c < 0x80) {
      ++i;
      continue;
    }
    size_t n = Utf8Length(text, i);
    if (n == 0) {
      return ErrorAtOffset(filename, text, i, fmt::format("invalid UTF-8 byte 0x{:02x}: this is not a text file", c));
    }
    i += n;
  }
  // Python splits lines at a lone CR too; airscope's parsers split at LF
  // (dropping a CR before it), so a classic-Mac file would be one long line
  // with a baffling syntax error.
  for (size_t cr = text.find('\r'); cr != std::string_view::npos; cr = text.find('\r', cr + 1)) {
    if (cr + 1 >= text.size() || text[cr + 1] != '\n') {
      return ErrorAtOffset(filename, text, cr,
                           "a line ends in a lone CR (classic Mac line endings); airscope reads LF or CRLF");
    }
  }
  return Status::Ok();
}

}  // namespace airscope

#include "repl/terminal_text.h"

#include <fmt/format.h>

namespace airscope {
namespace {

// The length of the valid UTF-8 sequence at text[i] (2-4), or 0 (RFC 3629:
// no overlongs, no surrogates, nothing above U+10FFFF).
size_t Utf8Length(std::string_view text, size_t i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  auto cont = [&](size_t k) { return k < text.size() && (byte(k) & 0xC0) == 0x80; };
  unsigned char b0 = byte(i);
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (b0 >= 0xE0 && b0 <= 0xEF) {
    if (!cont(i + 1) || !cont(i + 2)) return 0;
    unsigned char b1 = byte(i + 1);
    if ((b0 == 0xE0 && b1 < 0xA0) || (b0 == 0xED && b1 > 0x9F)) return 0;
    return 3;
  }
  if (b0 >= 0xF0 && b0 <= 0xF4) {
    if (!cont(i + 1) || !cont(i + 2) || !cont(i + 3)) return 0;
    unsigned char b1 = byte(i + 1);
    if ((b0 == 0xF0 && b1 < 0x90) || (b0 == 0xF4 && b1 > 0x8F)) return 0;
    return 4;
  }
  return 0;
}

}  // namespace

std::string TerminalSafe(std::string_view text, size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes) + 16);
  size_t i = 0;
  while (i < text.size()) {
    if (out.size() >= max_bytes) {
      out += fmt::format(" ... ({} more bytes not shown)", text.size() - i);
      break;
    }
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F) {
        out += fmt::format("\\x{:02x}", c);
      } else {
        out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    size_t length = Utf8Length(text, i);
    if (length == 0) {
      out += fmt::format("\\x{:02x}", c);  // not UTF-8: a lone byte, shown as a byte
      ++i;
      continue;
    }
    // U+0080..U+009F, the C1 controls (0xC2 0x80..0x9F): CSI among them.
    unsigned char c1 = static_cast<unsigned char>(text[i + 1]);
    if (c == 0xC2 && c1 <= 0x9F) {
      out += fmt::format("\\x{:02x}", c1);
    } else {
      out.append(text.substr(i, length));
    }
    i += length;
  }
  return out;
}

}  // namespace airscope

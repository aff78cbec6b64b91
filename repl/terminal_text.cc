#include "repl/terminal_text.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/fx/source_text.h"

namespace airscope {

std::string TerminalSafe(std::string_view text, size_t max_bytes) {
  // Almost every line is printable ASCII: copied whole, no byte-by-byte walk
  // (`show` of a 1M-node graph renders 120 MB of such lines).
  bool plain = text.size() <= max_bytes && std::all_of(text.begin(), text.end(), [](char ch) {
                 auto c = static_cast<unsigned char>(ch);
                 return (c >= 0x20 && c < 0x7F) || c == '\t' || c == '\n';
               });
  if (plain) return std::string(text);
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

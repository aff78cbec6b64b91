// Text helpers: see text.h.
#include "core/text.h"

#include <fmt/format.h>

namespace airscope {

std::string_view TrimLeft(std::string_view s, std::string_view chars) {
  while (!s.empty() && chars.find(s.front()) != std::string_view::npos) s.remove_prefix(1);
  return s;
}

std::string_view TrimRight(std::string_view s, std::string_view chars) {
  while (!s.empty() && chars.find(s.back()) != std::string_view::npos) s.remove_suffix(1);
  return s;
}

std::string_view Trim(std::string_view s, std::string_view chars) { return TrimRight(TrimLeft(s, chars), chars); }

size_t CountDigitsAt(std::string_view s, size_t pos) {
  size_t n = 0;
  while (pos + n < s.size() && IsDigit(s[pos + n])) ++n;
  return n;
}

int64_t DigitsValue(std::string_view digits) {
  int64_t v = 0;
  for (char c : digits.substr(0, 18)) v = v * 10 + (c - '0');
  return v;
}

std::string Slug(std::string_view s) {
  std::string out;
  for (char c : s) {
    char l = (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c;
    if (IsWordChar(l)) {
      out += l;
    } else if (!out.empty() && out.back() != '_') {
      out += '_';
    }
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out;
}

void AppendIndentedLine(std::string& out, size_t indent, std::string_view text) {
  out.append(indent, ' ');
  out += text;
  out += '\n';
}

std::string CountOrDash(int64_t value) { return value < 0 ? "-" : fmt::format("{}", value); }

std::string Plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

std::string JoinAtMost(const std::vector<std::string>& names, size_t shown) {
  if (names.size() <= shown) return fmt::format("{}", fmt::join(names, ", "));
  std::vector<std::string> first(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(shown));
  return fmt::format("{} ... and {} more", fmt::join(first, ", "), names.size() - shown);
}

std::string IndentLinesAfterFirst(std::string_view text, size_t indent) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    out += c;
    if (c == '\n') out.append(indent, ' ');
  }
  return out;
}

}  // namespace airscope

// See scanner.h for the contract and the error format.
#include "core/scanner.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

namespace airscope {
namespace {

constexpr std::string_view kQuoteIndent = "    ";

bool IsContinuationByte(unsigned char c) { return (c & 0xC0) == 0x80; }

// The length of the UTF-8 sequence at line[i] (a byte >= 0x80) if it is a
// well-formed one, else 0: the quoted line shows a broken byte as '?'.
size_t SequenceLength(std::string_view line, size_t i) {
  unsigned char c = static_cast<unsigned char>(line[i]);
  size_t n = c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
  if (n == 0 || i + n > line.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if (!IsContinuationByte(static_cast<unsigned char>(line[i + k]))) return 0;
  }
  return n;
}

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string LocationPrefix(std::string_view filename, size_t line, size_t column) {
  if (!filename.empty()) return fmt::format("{}:{}:{}: ", filename, line, column);
  if (line > 0) return fmt::format("line {}, column {}: ", line, column);
  return fmt::format("column {}: ", column);
}

std::string QuoteSourceLine(std::string_view line, size_t offset) {
  offset = std::min(offset, line.size());
  // A long line is cut to a window around the column, on character boundaries.
  size_t from = 0;
  size_t to = line.size();
  if (line.size() > Scanner::kMaxQuoted) {
    from = offset > Scanner::kMaxQuoted / 2 ? offset - Scanner::kMaxQuoted / 2 : 0;
    while (from > 0 && IsContinuationByte(static_cast<unsigned char>(line[from]))) --from;
    to = std::min(line.size(), from + Scanner::kMaxQuoted);
    while (to < line.size() && IsContinuationByte(static_cast<unsigned char>(line[to]))) ++to;
  }
  std::string shown(kQuoteIndent);
  std::string caret(kQuoteIndent);
  if (from > 0) {
    shown += "...";
    caret += "   ";
  }
  for (size_t i = from; i < to;) {
    char c = line[i];
    unsigned char u = static_cast<unsigned char>(c);
    size_t width = 1;
    if (c == '\t') {
      shown += '\t';
    } else if (u < 0x20 || u == 0x7f) {
      shown += '?';
    } else if (u < 0x80) {
      shown += c;
    } else if (size_t n = SequenceLength(line, i); n > 0) {
      shown.append(line.substr(i, n));
      width = n;
    } else {
      shown += '?';
    }
    if (i < offset) caret += c == '\t' ? '\t' : ' ';
    i += width;
  }
  if (to < line.size()) shown += "...";
  caret += '^';
  return fmt::format("\n{}\n{}", shown, caret);
}

Status WithHeadlineSuffix(const Status& status, std::string_view suffix) {
  if (status.ok()) return status;
  std::string_view message = status.message();
  size_t newline = std::min(message.find('\n'), message.size());
  std::string longer = fmt::format("{}{}{}", message.substr(0, newline), suffix, message.substr(newline));
  if (status.unquoted_column() > 0) return Status::UnquotedColumnError(std::move(longer), status.unquoted_column());
  return Status::Error(std::move(longer));
}

Status ColumnError(size_t column, std::string_view message) {
  std::string text = LocationPrefix({}, 0, column) + std::string(message);
  if (message.find('\n') != std::string_view::npos) return Status::Error(std::move(text));
  return Status::UnquotedColumnError(std::move(text), column);
}

Status QuoteUnquotedColumn(const Status& status, std::string_view line) {
  if (status.ok() || status.unquoted_column() == 0) return status;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (line.empty()) return Status::Error(status.message());  // nothing to point into
  return Status::Error(status.message() + QuoteSourceLine(line, status.unquoted_column() - 1));
}

std::errc Scanner::Integer(int64_t* out) {
  int64_t value = 0;
  auto [ptr, ec] = std::from_chars(text_.data() + std::min(pos_, end_), text_.data() + end_, value);
  if (ec != std::errc()) return ec;
  pos_ = static_cast<size_t>(ptr - text_.data());
  *out = value;
  return ec;
}

bool Scanner::QuotedString(std::string* out, QuoteStyle style) {
  size_t start = pos_;
  char quote = text_[start];
  out->clear();
  size_t i = start + 1;
  if (style == QuoteStyle::kPython) {
    while (i < end_) {
      char c = text_[i];
      if (c == quote) {
        pos_ = i + 1;
        return true;
      }
      if (c == '\\' && i + 1 < end_) {
        char e = text_[i + 1];
        i += 2;
        switch (e) {
          case 'n': out->push_back('\n'); break;
          case 't': out->push_back('\t'); break;
          case 'r': out->push_back('\r'); break;
          case '\\':
          case '\'':
          case '"': out->push_back(e); break;
          case 'x': {
            int high = i < end_ ? HexValue(text_[i]) : -1;
            int low = i + 1 < end_ ? HexValue(text_[i + 1]) : -1;
            if (high < 0 || low < 0) return Fail(i - 2, "bad \\x escape in string");
            out->push_back(static_cast<char>(high * 16 + low));
            i += 2;
            break;
          }
          default:  // Python keeps unknown escapes verbatim
            out->push_back('\\');
            out->push_back(e);
        }
        continue;
      }
      out->push_back(c);
      ++i;
    }
    return Fail(start, fmt::format("unterminated string (expected a closing {})", quote));
  }
  while (true) {
    if (i >= end_ || text_[i] == '\n') return Fail(start, "unterminated string");
    char c = text_[i++];
    if (c == quote) {
      pos_ = i;
      return true;
    }
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (i >= end_) return Fail(start, "unterminated string");
    char e = text_[i++];
    switch (e) {
      case 'n': out->push_back('\n'); break;
      case 'r': out->push_back('\r'); break;
      case 't': out->push_back('\t'); break;
      case 'a': out->push_back('\a'); break;
      case 'b': out->push_back('\b'); break;
      case 'f': out->push_back('\f'); break;
      case 'v': out->push_back('\v'); break;
      case '\\':
      case '\'':
      case '"':
      case '?': out->push_back(e); break;
      case 'x': {
        int value = 0;
        int digits = 0;
        while (digits < 2 && i < end_ && HexValue(text_[i]) >= 0) {
          value = value * 16 + HexValue(text_[i++]);
          ++digits;
        }
        if (digits == 0) return Fail(i - 2, "\\x with no hex digits");
        out->push_back(static_cast<char>(value));
        break;
      }
      default:
        if (e >= '0' && e <= '7') {
          int value = e - '0';
          int digits = 1;
          while (digits < 3 && i < end_ && text_[i] >= '0' && text_[i] <= '7') {
            value = value * 8 + (text_[i++] - '0');
            ++digits;
          }
          out->push_back(static_cast<char>(value & 0xff));
        } else {
          return Fail(i - 2, fmt::format("unknown escape '\\{}'", e));
        }
    }
  }
}

Scanner::Location Scanner::LocationOf(size_t pos) const {
  pos = std::min(pos, text_.size());
  size_t newlines = static_cast<size_t>(std::count(text_.begin(), text_.begin() + static_cast<ptrdiff_t>(pos), '\n'));
  size_t line_start = newlines == 0 ? 0 : text_.rfind('\n', pos - 1) + 1;
  Location where;
  where.line = origin_.line == 0 ? 0 : origin_.line + newlines;
  where.column = pos - line_start + (line_start == 0 ? origin_.column : 1);
  if (!origin_.columns.empty()) where.column = origin_.columns[std::min(pos, origin_.columns.size() - 1)];
  return where;
}

Status Scanner::Error(size_t pos, std::string_view message) const {
  pos = std::min(pos, text_.size());
  Location where = LocationOf(pos);
  // A word of a line not at hand: whoever holds the line quotes it.
  if (!origin_.quote_source && origin_.filename.empty() && origin_.line == 0) return ColumnError(where.column, message);
  std::string out = LocationPrefix(origin_.filename, where.line, where.column);
  out += message;
  if (origin_.quote_source) {
    size_t line_start = pos == 0 ? 0 : text_.rfind('\n', pos - 1);
    line_start = line_start == std::string_view::npos || pos == 0 ? 0 : line_start + 1;
    size_t line_end = text_.find('\n', pos);
    if (line_end == std::string_view::npos) line_end = text_.size();
    std::string_view line = text_.substr(line_start, line_end - line_start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (!line.empty()) out += QuoteSourceLine(line, pos - line_start);  // an empty line has nothing to point into
  }
  return Status::Error(std::move(out));
}

}  // namespace airscope

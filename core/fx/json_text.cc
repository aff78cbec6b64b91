#include "core/fx/json_text.h"

#include <algorithm>
#include <string>

namespace airscope {

TextPosition PositionOfOffset(std::string_view text, size_t offset) {
  offset = std::min(offset, text.size());
  TextPosition pos;
  size_t line_start = 0;
  for (size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      line_start = i + 1;
    }
  }
  pos.column = offset - line_start + 1;
  return pos;
}

Status CheckJsonDepth(std::string_view text, size_t max_depth) {
  size_t depth = 0;
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;  // the escaped character cannot end the string
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    switch (c) {
      case '"': in_string = true; break;
      case '[':
      case '{':
        if (++depth > max_depth) {
          TextPosition pos = PositionOfOffset(text, i);
          return Status::Errorf("{}:{}: nesting deeper than {}", pos.line, pos.column, max_depth);
        }
        break;
      case ']':
      case '}':
        // Unbalanced closers are the parser's to report; just don't underflow.
        if (depth > 0) --depth;
        break;
      default: break;
    }
  }
  return Status::Ok();
}

namespace {

// nlohmann's what() reads "[json.exception.parse_error.101] parse error at
// line 1, column 2: syntax error ...". Keep only the part after the position,
// since we print our own FILENAME:LINE:COL in front.
std::string DescribeParseError(std::string_view what) {
  if (what.starts_with("[json.exception.")) {
    size_t close = what.find("] ");
    if (close != std::string_view::npos) what.remove_prefix(close + 2);
  }
  if (what.starts_with("parse error")) {
    size_t colon = what.find(": ");
    if (colon != std::string_view::npos) what.remove_prefix(colon + 2);
  }
  return std::string(what);
}

// Accepts every event; remembers where parsing failed.
struct ScanSax : nlohmann::json_sax<nlohmann::json> {
  JsonScan scan;
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t position, const std::string&, const nlohmann::detail::exception& e) override {
    scan = {false, position, e.id};
    return false;
  }
};

}  // namespace

JsonScan ScanJson(std::string_view text) {
  ScanSax sax;
  nlohmann::json::sax_parse(text.begin(), text.end(), &sax);
  return sax.scan;
}

Result<nlohmann::json> ParseJsonText(std::string_view text, std::string_view filename, size_t max_depth) {
  if (Status depth = CheckJsonDepth(text, max_depth); !depth.ok()) {
    return Status::Errorf("{}:{}", filename, depth.message());  // "FILE:LINE:COL: ..."
  }
  try {
    return nlohmann::json::parse(text.begin(), text.end());
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte counts the bytes read, so the offending byte is the one before.
    TextPosition pos = PositionOfOffset(text, e.byte > 0 ? e.byte - 1 : 0);
    return Status::Errorf("{}:{}:{}: {}", filename, pos.line, pos.column, DescribeParseError(e.what()));
  } catch (const nlohmann::json::out_of_range& e) {
    // A number beyond a double (out_of_range.406) carries no position: a scan finds it.
    JsonScan scan = ScanJson(text);
    if (!scan.ok && scan.error_id == e.id) {
      // The scan stops after the number: point at its first character.
      size_t start = std::min(scan.error_at > 0 ? scan.error_at - 1 : 0, text.size());
      while (start > 0 && std::string_view("0123456789+-.eE").find(text[start - 1]) != std::string_view::npos) --start;
      TextPosition pos = PositionOfOffset(text, start);
      return Status::Errorf("{}:{}:{}: {}", filename, pos.line, pos.column, DescribeParseError(e.what()));
    }
    return Status::Errorf("{}: {}", filename, DescribeParseError(e.what()));
  } catch (const nlohmann::json::exception& e) {
    return Status::Errorf("{}: {}", filename, DescribeParseError(e.what()));
  }
}

}  // namespace airscope

#include "core/fx/json_text.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

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

// nlohmann's own DOM builder, which also notes the first key an object
// states twice: JSON allows it and nlohmann keeps the last, so a document
// that says two things about one field would be read silently. Keys of one
// object are few and short (no allocation, a linear search); one vector per
// nesting level is reused.
struct DomRefusingDuplicateKeys {
  using Json = nlohmann::json;
  explicit DomRefusingDuplicateKeys(Json& root) : dom(root) {}
  bool null() { return dom.null(); }
  bool boolean(bool v) { return dom.boolean(v); }
  bool number_integer(Json::number_integer_t v) { return dom.number_integer(v); }
  bool number_unsigned(Json::number_unsigned_t v) { return dom.number_unsigned(v); }
  bool number_float(Json::number_float_t v, const Json::string_t& s) { return dom.number_float(v, s); }
  bool string(Json::string_t& v) { return dom.string(v); }
  bool binary(Json::binary_t& v) { return dom.binary(v); }
  bool start_object(std::size_t n) {
    if (keys.size() <= depth) keys.emplace_back();
    keys[depth++].clear();
    return dom.start_object(n);
  }
  bool key(Json::string_t& k) {
    std::vector<std::string>& seen = keys[depth - 1];
    if (duplicate.empty() && std::find(seen.begin(), seen.end(), k) != seen.end()) duplicate = k;
    seen.push_back(k);
    return dom.key(k);
  }
  bool end_object() {
    --depth;
    return dom.end_object();
  }
  bool start_array(std::size_t n) { return dom.start_array(n); }
  bool end_array() { return dom.end_array(); }
  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& e) {
    return dom.parse_error(position, token, e);  // throws it, as nlohmann::json::parse does
  }

  nlohmann::detail::json_sax_dom_parser<Json> dom;
  std::vector<std::vector<std::string>> keys;  // by nesting level of objects
  size_t depth = 0;
  std::string duplicate;  // the first key stated twice in one object
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
    nlohmann::json doc;
    DomRefusingDuplicateKeys sax(doc);
    nlohmann::json::sax_parse(text.begin(), text.end(), &sax);
    if (!sax.duplicate.empty()) {
      return Status::Errorf(
          "{}: key \"{}\" appears twice in one object (JSON readers keep one of them; airscope "
          "does not guess which was meant)",
          filename, sax.duplicate);
    }
    return doc;
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

#include "formats/proto_text.h"

#include <cctype>

#include <fmt/format.h>

namespace airscope {

std::string ProtoCEscape(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (char ch : bytes) {
    unsigned char c = static_cast<unsigned char>(ch);
    switch (c) {
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      case '"': out += "\\\""; break;
      case '\'': out += "\\'"; break;
      case '\\': out += "\\\\"; break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          out += fmt::format("\\{:03o}", c);
        } else {
          out += ch;
        }
    }
  }
  return out;
}

std::string PythonBytesRepr(std::string_view bytes) {
  char quote = '\'';
  if (bytes.find('\'') != std::string_view::npos && bytes.find('"') == std::string_view::npos) quote = '"';
  std::string out(1, quote);
  for (char ch : bytes) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (ch == quote || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (ch == '\t') {
      out += "\\t";
    } else if (ch == '\n') {
      out += "\\n";
    } else if (ch == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c >= 0x7f) {
      out += fmt::format("\\x{:02x}", c);
    } else {
      out += ch;
    }
  }
  out += quote;
  return out;
}

const TextField* TextField::Find(std::string_view field_name) const {
  for (const TextField& f : fields) {
    if (f.name == field_name) return &f;
  }
  return nullptr;
}

namespace {

class Parser {
 public:
  explicit Parser(std::string_view text) : text_(text) {}

  TextParseResult Run() {
    TextParseResult result;
    if (!Fields(0, '\0', &result.fields)) {
      result.ok = false;
      result.error_offset = error_offset_;
      result.error = error_;
      result.fields.clear();
    }
    return result;
  }

 private:
  bool Fail(size_t offset, std::string message) {
    error_offset_ = offset;
    error_ = std::move(message);
    return false;
  }

  void Skip() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        ++pos_;
      } else {
        break;
      }
    }
  }

  static bool IdentChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-' || c == '+';
  }

  // Fields until `close` (or end of text when close == '\0').
  bool Fields(int depth, char close, std::vector<TextField>* out) {
    while (true) {
      Skip();
      if (pos_ >= text_.size()) {
        if (close == '\0') return true;
        return Fail(pos_, fmt::format("unexpected end of input: expected '{}'", close));
      }
      char c = text_[pos_];
      if (close != '\0' && c == close) {
        ++pos_;
        return true;
      }
      if (c == ',' || c == ';') {  // optional field separators
        ++pos_;
        continue;
      }
      TextField field;
      if (!Field(depth, &field)) return false;
      out->push_back(std::move(field));
    }
  }

  bool Field(int depth, TextField* field) {
    field->offset = pos_;
    if (text_[pos_] == '[') {  // extension or Any type URL: [name]
      size_t end = text_.find(']', pos_);
      if (end == std::string_view::npos) return Fail(pos_, "unterminated '[' in field name");
      field->name = std::string(text_.substr(pos_, end + 1 - pos_));
      pos_ = end + 1;
    } else {
      size_t start = pos_;
      while (pos_ < text_.size() &&
             (std::isalnum(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_')) {
        ++pos_;
      }
      if (pos_ == start) {
        return Fail(pos_, fmt::format("expected a field name, found {}", Describe(pos_)));
      }
      field->name = std::string(text_.substr(start, pos_ - start));
    }
    Skip();
    bool colon = false;
    if (pos_ < text_.size() && text_[pos_] == ':') {
      colon = true;
      ++pos_;
      Skip();
    }
    if (pos_ >= text_.size()) return Fail(pos_, fmt::format("unexpected end of input after '{}'", field->name));
    char c = text_[pos_];
    if (c == '{' || c == '<') {
      return Message(depth, field);
    }
    if (!colon) return Fail(pos_, fmt::format("expected ':' or '{{' after '{}'", field->name));
    if (c == '[') {
      // A list of scalars: kept as a message of fields with the same name.
      ++pos_;
      field->kind = TextField::Kind::kMessage;
      field->value_offset = pos_;
      while (true) {
        Skip();
        if (pos_ >= text_.size()) return Fail(pos_, "unexpected end of input in '[' list");
        if (text_[pos_] == ']') {
          ++pos_;
          return true;
        }
        TextField item;
        item.name = field->name;
        item.offset = pos_;
        if (text_[pos_] == '{' || text_[pos_] == '<') {
          if (!Message(depth, &item)) return false;
        } else if (!Scalar(&item)) {
          return false;
        }
        field->fields.push_back(std::move(item));
        Skip();
        if (pos_ < text_.size() && text_[pos_] == ',') ++pos_;
      }
    }
    return Scalar(field);
  }

  bool Message(int depth, TextField* field) {
    if (depth + 1 > kMaxProtoTextDepth) {
      return Fail(pos_, fmt::format("nesting deeper than {} levels", kMaxProtoTextDepth));
    }
    char close = text_[pos_] == '{' ? '}' : '>';
    field->kind = TextField::Kind::kMessage;
    field->value_offset = pos_;
    ++pos_;
    return Fields(depth + 1, close, &field->fields);
  }

  bool Scalar(TextField* field) {
    field->value_offset = pos_;
    char c = text_[pos_];
    if (c == '"' || c == '\'') {
      field->kind = TextField::Kind::kString;
      while (pos_ < text_.size() && (text_[pos_] == '"' || text_[pos_] == '\'')) {
        if (!String(&field->value)) return false;
        Skip();
      }
      return true;
    }
    size_t start = pos_;
    while (pos_ < text_.size() && IdentChar(text_[pos_])) ++pos_;
    if (pos_ == start) return Fail(pos_, fmt::format("expected a value, found {}", Describe(pos_)));
    field->kind = TextField::Kind::kScalar;
    field->value = std::string(text_.substr(start, pos_ - start));
    return true;
  }

  static int HexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  }

  bool String(std::string* out) {
    size_t start = pos_;
    char quote = text_[pos_++];
    while (true) {
      if (pos_ >= text_.size() || text_[pos_] == '\n') return Fail(start, "unterminated string");
      char c = text_[pos_++];
      if (c == quote) return true;
      if (c != '\\') {
        out->push_back(c);
        continue;
      }
      if (pos_ >= text_.size()) return Fail(start, "unterminated string");
      char e = text_[pos_++];
      switch (e) {
        case 'n': out->push_back('\n'); break;
        case 'r': out->push_back('\r'); break;
        case 't': out->push_back('\t'); break;
        case 'a': out->push_back('\a'); break;
        case 'b': out->push_back('\b'); break;
        case 'f': out->push_back('\f'); break;
        case 'v': out->push_back('\v'); break;
        case '\\': case '\'': case '"': case '?': out->push_back(e); break;
        case 'x': {
          int value = 0, digits = 0;
          while (digits < 2 && pos_ < text_.size() && HexValue(text_[pos_]) >= 0) {
            value = value * 16 + HexValue(text_[pos_++]);
            ++digits;
          }
          if (digits == 0) return Fail(pos_ - 2, "\\x with no hex digits");
          out->push_back(static_cast<char>(value));
          break;
        }
        default:
          if (e >= '0' && e <= '7') {
            int value = e - '0', digits = 1;
            while (digits < 3 && pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '7') {
              value = value * 8 + (text_[pos_++] - '0');
              ++digits;
            }
            out->push_back(static_cast<char>(value & 0xff));
          } else {
            return Fail(pos_ - 2, fmt::format("unknown escape '\\{}'", e));
          }
      }
    }
  }

  std::string Describe(size_t pos) const {
    if (pos >= text_.size()) return "end of input";
    unsigned char c = static_cast<unsigned char>(text_[pos]);
    if (c < 0x20 || c >= 0x7f) return fmt::format("byte 0x{:02x}", c);
    return fmt::format("'{}'", static_cast<char>(c));
  }

  std::string_view text_;
  size_t pos_ = 0;
  size_t error_offset_ = 0;
  std::string error_;
};

}  // namespace

TextParseResult ParseProtoText(std::string_view text) { return Parser(text).Run(); }

}  // namespace airscope

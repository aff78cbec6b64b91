#include "formats/proto_text.h"

#include <fmt/format.h>

#include "core/scanner.h"

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

// The grammar over the Scanner (core/scanner.h); errors are its failure
// slot (offset and message), which callers place in their file.
class Parser {
 public:
  explicit Parser(std::string_view text) : scan_(text) {}

  TextParseResult Run() {
    TextParseResult result;
    if (!Fields(0, '\0', &result.fields)) {
      result.ok = false;
      result.error_offset = scan_.failure_pos();
      result.error = scan_.failure_message();
      result.fields.clear();
    }
    return result;
  }

 private:
  bool Fail(size_t offset, std::string message) { return scan_.Fail(offset, std::move(message)); }

  // Whitespace and `#` comments.
  void Skip() {
    while (true) {
      scan_.SkipWhitespace();
      if (!scan_.PeekIs('#')) return;
      scan_.SkipWhile([](char c) { return c != '\n'; });
    }
  }

  static bool ScalarChar(char c) { return IsWordChar(c) || c == '.' || c == '-' || c == '+'; }

  // Fields until `close` (or end of text when close == '\0').
  bool Fields(int depth, char close, std::vector<TextField>* out) {
    while (true) {
      Skip();
      if (scan_.AtEnd()) {
        if (close == '\0') return true;
        return Fail(scan_.pos(), fmt::format("unexpected end of input: expected '{}'", close));
      }
      if (close != '\0' && scan_.Consume(close)) return true;
      if (scan_.Consume(',') || scan_.Consume(';')) continue;  // optional field separators
      TextField field;
      if (!Field(depth, &field)) return false;
      out->push_back(std::move(field));
    }
  }

  bool Field(int depth, TextField* field) {
    field->offset = scan_.pos();
    if (scan_.PeekIs('[')) {  // extension or Any type URL: [name]
      size_t end = scan_.text().find(']', scan_.pos());
      if (end == std::string_view::npos) return Fail(scan_.pos(), "unterminated '[' in field name");
      scan_.Seek(end + 1);
      field->name = std::string(scan_.Since(field->offset));
    } else {
      std::string_view name = scan_.Word();
      if (name.empty()) return Fail(scan_.pos(), fmt::format("expected a field name, found {}", Describe()));
      field->name = std::string(name);
    }
    Skip();
    bool colon = scan_.Consume(':');
    if (colon) Skip();
    if (scan_.AtEnd()) return Fail(scan_.pos(), fmt::format("unexpected end of input after '{}'", field->name));
    if (scan_.PeekIs('{') || scan_.PeekIs('<')) return Message(depth, field);
    if (!colon) return Fail(scan_.pos(), fmt::format("expected ':' or '{{' after '{}'", field->name));
    if (scan_.PeekIs('[')) return List(depth, field);
    return Scalar(field);
  }

  // `[v, v, ...]`, the cursor at '[': kept as a message of fields with the same name.
  bool List(int depth, TextField* field) {
    scan_.Advance();
    field->kind = TextField::Kind::kMessage;
    field->value_offset = scan_.pos();
    while (true) {
      Skip();
      if (scan_.AtEnd()) return Fail(scan_.pos(), "unexpected end of input in '[' list");
      if (scan_.Consume(']')) return true;
      TextField item;
      item.name = field->name;
      item.offset = scan_.pos();
      if (scan_.PeekIs('{') || scan_.PeekIs('<')) {
        if (!Message(depth, &item)) return false;
      } else if (!Scalar(&item)) {
        return false;
      }
      field->fields.push_back(std::move(item));
      Skip();
      scan_.Consume(',');
    }
  }

  bool Message(int depth, TextField* field) {
    if (depth + 1 > kMaxProtoTextDepth) {
      return Fail(scan_.pos(), fmt::format("nesting deeper than {} levels", kMaxProtoTextDepth));
    }
    char close = scan_.Next() == '{' ? '}' : '>';
    field->kind = TextField::Kind::kMessage;
    field->value_offset = scan_.pos() - 1;
    return Fields(depth + 1, close, &field->fields);
  }

  bool Scalar(TextField* field) {
    field->value_offset = scan_.pos();
    if (scan_.PeekIs('"') || scan_.PeekIs('\'')) {
      // Adjacent literals concatenate.
      field->kind = TextField::Kind::kString;
      std::string piece;
      while (scan_.PeekIs('"') || scan_.PeekIs('\'')) {
        if (!scan_.QuotedString(&piece, QuoteStyle::kProtobuf)) return false;
        field->value += piece;
        Skip();
      }
      return true;
    }
    std::string_view value = scan_.While(ScalarChar);
    if (value.empty()) return Fail(scan_.pos(), fmt::format("expected a value, found {}", Describe()));
    field->kind = TextField::Kind::kScalar;
    field->value = std::string(value);
    return true;
  }

  // The byte at the cursor, for "expected X, found Y".
  std::string Describe() const {
    if (scan_.AtEnd()) return "end of input";
    unsigned char c = static_cast<unsigned char>(scan_.Peek());
    if (c < 0x20 || c >= 0x7f) return fmt::format("byte 0x{:02x}", c);
    return fmt::format("'{}'", static_cast<char>(c));
  }

  Scanner scan_;
};

}  // namespace

TextParseResult ParseProtoText(std::string_view text) { return Parser(text).Run(); }

}  // namespace airscope

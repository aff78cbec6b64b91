// Protocol-buffer text format, the subset GE/TorchAir dumps use: escaping
// the way Python's protobuf (`str(message)`) and Python's bytes repr() write
// strings, and a schema-free parser into a tree of fields.
//
// Parser contract: accepts `name: value`, `name { ... }`, `name < ... >`,
// `name: { ... }`, `name: [v, v]`, strings in "..." or '...' with C and
// Python escapes (adjacent literals concatenate), numbers, identifiers
// (enums, true/false), `#` comments. Nesting is bounded (kMaxDepth), so
// hostile input cannot exhaust the stack. It never crashes: on any error it
// returns the byte offset and a message; callers turn that into
// `file:line:col: message`.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace airscope {

// Python protobuf's CEscape (as_utf8=False): \n \r \t \" \' \\ escaped,
// other bytes below 0x20 or from 0x7f as 3-digit octal.
std::string ProtoCEscape(std::string_view bytes);
// Python's repr(bytes) without the leading `b`: single quotes unless the text
// holds ' and no ", then double quotes; \\ \t \n \r and the quote escaped;
// other non-printable bytes as \xHH.
std::string PythonBytesRepr(std::string_view bytes);

struct TextField {
  enum class Kind : unsigned char { kScalar, kString, kMessage };
  std::string name;
  Kind kind = Kind::kScalar;
  std::string value;              // scalar token, or unescaped string bytes
  std::vector<TextField> fields;  // kMessage
  size_t offset = 0;              // of the field name in the parsed text
  size_t value_offset = 0;        // of the value (the first string literal for kString)

  // First child named `name`, or nullptr.
  const TextField* Find(std::string_view name) const;
};

struct TextParseResult {
  std::vector<TextField> fields;
  bool ok = true;
  size_t error_offset = 0;
  std::string error;
};

constexpr int kMaxProtoTextDepth = 64;

TextParseResult ParseProtoText(std::string_view text);

}  // namespace airscope

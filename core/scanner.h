// Scanner: the one cursor the hand-written grammars share (FX text, readable
// code, the rewrite language, decomposition templates, call specs, the shell
// tokenizer, protobuf text, pbtxt), modelled on ninja's Lexer: a position in
// a text that knows where the text came from, a few primitives (Peek, Next,
// Consume, SkipSpaces, Ident, Integer, QuotedString, Expect), and one error
// format.
//
// Errors read
//     FILE:LINE:COL: message           the text is (part of) a file
//     line LINE, column COL: message   a numbered line without a file (a `pass define` block)
//     column COL: message              a command's argument
// followed, where the source line is at hand and not empty, by that line and
// a `^` under the column (each indented by four spaces):
//     t.graph.txt:3:24: expected ' : ' after the node name
//         %mm [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %x), kwargs = {})
//            ^
// The first line is the headline; callers that add to an error put their
// words into it (WithHeadlineSuffix), so the quoted lines stay last.
//
// A command's argument is a word of a line its parser does not hold (a call
// spec, a count, a schema): its errors are ColumnErrors, "column COL:
// message" with the column riding on the Status (unquoted_column), and the
// one place that holds the line (the shell's interpreter) quotes it with
// QuoteUnquotedColumn. A Scanner over such a word (quote_source = false,
// no filename, line 0) makes ColumnErrors.
//
// Positions are byte offsets into the text; lines and columns are 1-based and
// columns count bytes, as every parser here has always counted them (a tab is
// one column, so is each byte of a UTF-8 sequence). Only the caret line is
// laid out for the eye: a tab in the source is kept as a tab above the caret,
// a UTF-8 character takes one space, a line longer than kMaxQuoted bytes is
// cut around the column with `...`, and control bytes are shown as `?`.
// Lines end at LF; a CR before it is not part of the line.
//
// A scan limit (Limit) makes the cursor stop before the end of the text (a
// statement cut at `;`) while errors still quote the whole line.
// The primitives are inline: the FX text parser runs them a hundred million
// times on a big load.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "core/status.h"
#include "core/text.h"

namespace airscope {

// Python 3 identifiers may hold non-ASCII letters (torch.ops.图.op is a valid
// target): any byte of a UTF-8 sequence counts; loaders check the file's UTF-8
// first (CheckSourceText).
inline bool IsIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || static_cast<unsigned char>(c) >= 0x80;
}
inline bool IsIdentChar(char c) { return IsIdentStart(c) || (c >= '0' && c <= '9'); }
// IsDigit and IsWordChar: core/text.h.

// Where a scanned text comes from: what its errors name.
struct SourceOrigin {
  std::string_view filename;  // "" when the text is not a file's
  size_t line = 1;            // the line number of the text's first line; 0 when lines are not numbered
  size_t column = 1;          // the column of text[0] on that line
  bool quote_source = true;   // errors quote the source line with a caret under the column
  // When not empty, the column of each byte of a one-line text and of the end
  // (text.size() + 1 entries), in place of `column`: a shell word whose quotes
  // and escapes move its bytes from where they were typed (Word::columns).
  std::span<const size_t> columns = {};
};

// "FILE:LINE:COL: ", "line LINE, column COL: " or "column COL: ", by what is
// known (an empty filename, line 0).
std::string LocationPrefix(std::string_view filename, size_t line, size_t column);

// The two lines quoted under an error's headline, each starting with '\n':
// `line` (one line of source, no LF) and a caret under byte offset `offset`
// of it (offset == line.size() points just past its end).
std::string QuoteSourceLine(std::string_view line, size_t offset);

// `status` with `suffix` added to the end of its headline (its first line),
// before any quoted source lines; an unquoted column stays one.
Status WithHeadlineSuffix(const Status& status, std::string_view suffix);

// "column COL: message", an error about a word of a line not at hand here
// (see the top of this file). A message that already quotes a source line
// (it has more than its headline) is complete: it is not quoted again.
Status ColumnError(size_t column, std::string_view message);
template <typename... Args>
Status ColumnErrorf(size_t column, fmt::format_string<Args...> format, Args&&... args) {
  return ColumnError(column, fmt::format(format, std::forward<Args>(args)...));
}

// `status` with `line`, the line its unquoted column is on, quoted under the
// headline with a caret under that column; any other status as it is. Done
// once, by the code that ran the line.
Status QuoteUnquotedColumn(const Status& status, std::string_view line);

// An error message's headline: its first line, without the quoted source.
inline std::string_view ErrorHeadline(std::string_view message) { return message.substr(0, message.find('\n')); }

// How a quoted string's escapes read.
enum class QuoteStyle : uint8_t {
  // Python source (ArgParser): \n \t \r \\ \' \" and \xHH; any other escape is
  // kept as written (Python keeps unknown escapes verbatim).
  kPython,
  // Protocol-buffer text (C escapes): also \a \b \f \v \? , \x with one or two
  // hex digits, \NNN octal; an unknown escape is an error, and a string
  // cannot run past the end of its line.
  kProtobuf,
};

class Scanner {
 public:
  static constexpr size_t kMaxQuoted = 120;  // bytes of a long line quoted around the column

  explicit Scanner(std::string_view text, SourceOrigin origin = {}) : text_(text), origin_(origin), end_(text.size()) {}

  // --- the cursor ---
  std::string_view text() const { return text_; }
  const SourceOrigin& origin() const { return origin_; }
  size_t pos() const { return pos_; }
  void Seek(size_t pos) { pos_ = pos; }
  // Scanning stops at `end` (clamped to the text); errors still see the whole text.
  void Limit(size_t end) { end_ = end < text_.size() ? end : text_.size(); }
  size_t end() const { return end_; }
  // The text up to the limit: what the cursor may read.
  std::string_view scannable() const { return text_.substr(0, end_); }
  bool AtEnd() const { return pos_ >= end_; }
  // The byte `ahead` bytes on, or '\0' at the limit.
  char Peek(size_t ahead = 0) const { return pos_ + ahead < end_ ? text_[pos_ + ahead] : '\0'; }
  bool PeekIs(char c) const { return pos_ < end_ && text_[pos_] == c; }
  // Consumes and returns one byte ('\0' at the limit, which is not consumed).
  char Next() { return pos_ < end_ ? text_[pos_++] : '\0'; }
  void Advance(size_t n = 1) { pos_ = pos_ + n < end_ ? pos_ + n : end_; }
  bool LookingAt(std::string_view token) const {
    return end_ - (pos_ < end_ ? pos_ : end_) >= token.size() && text_.compare(pos_, token.size(), token) == 0;
  }
  bool Consume(char c) {
    if (!PeekIs(c)) return false;
    ++pos_;
    return true;
  }
  bool Consume(std::string_view token) {
    if (!LookingAt(token)) return false;
    pos_ += token.size();
    return true;
  }
  // text[from, pos).
  std::string_view Since(size_t from) const { return text_.substr(from, pos_ - from); }
  // text[pos, limit).
  std::string_view Rest() const { return pos_ < end_ ? text_.substr(pos_, end_ - pos_) : std::string_view(); }

  // --- tokens (each returns "" and stays put when none is there) ---
  // Skip ' ' / ' ' and '\t' / any ASCII whitespace; return the new position.
  size_t SkipSpaces() {
    return SkipWhile([](char c) { return c == ' '; });
  }
  size_t SkipBlanks() {
    return SkipWhile([](char c) { return c == ' ' || c == '\t'; });
  }
  size_t SkipWhitespace() {
    return SkipWhile([](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; });
  }
  template <typename Pred>
  size_t SkipWhile(Pred pred) {
    size_t i = pos_;
    while (i < end_ && pred(text_[i])) ++i;
    pos_ = i;
    return i;
  }
  template <typename Pred>
  std::string_view While(Pred pred) {
    size_t start = pos_;
    return text_.substr(start, SkipWhile(pred) - start);
  }
  // A Python identifier (IsIdentStart, then IsIdentChar).
  std::string_view Ident() {
    if (pos_ >= end_ || !IsIdentStart(text_[pos_])) return {};
    return While(IsIdentChar);
  }
  // A run of IsWordChar (may start with a digit).
  std::string_view Word() { return While(IsWordChar); }
  std::string_view Digits() { return While(IsDigit); }
  // An integer as std::from_chars reads it (an optional '-', then digits) into
  // *out. errc{} on success (the cursor moves past it); invalid_argument when
  // there is none and result_out_of_range when it does not fit (the cursor
  // stays put in both).
  std::errc Integer(int64_t* out);
  // A string literal at the cursor (which is at its quote, ' or "), unescaped
  // into *out; the cursor ends past the closing quote. On an error, Fail()s
  // (at the opening quote when it is unterminated, at the backslash of a bad
  // escape) and returns false.
  bool QuotedString(std::string* out, QuoteStyle style = QuoteStyle::kPython);

  // --- errors ---
  // An error at byte `pos` of the text, in the format above.
  Status Error(size_t pos, std::string_view message) const;
  Status ErrorHere(std::string_view message) const { return Error(pos_, message); }
  // Consumes `token`, or fails with `message` at the cursor.
  Status Expect(std::string_view token, std::string_view message) {
    return Consume(token) ? Status::Ok() : ErrorHere(message);
  }

  // A failure slot, for grammars written as bool functions (ArgParser, the
  // protobuf parser): Fail records where and what and returns false.
  bool Fail(size_t pos, std::string message) {
    failure_pos_ = pos;
    failure_ = std::move(message);
    return false;
  }
  size_t failure_pos() const { return failure_pos_; }
  const std::string& failure_message() const { return failure_; }
  // The recorded failure as an error (Error(failure_pos(), failure_message())).
  Status Failure() const { return Error(failure_pos_, failure_); }

  // The 1-based line and column of byte `pos` (counts the newlines before it:
  // for errors, not for every token).
  struct Location {
    size_t line = 0;
    size_t column = 1;
  };
  Location LocationOf(size_t pos) const;

 private:
  std::string_view text_;
  SourceOrigin origin_;
  size_t pos_ = 0;
  size_t end_ = 0;
  size_t failure_pos_ = 0;
  std::string failure_;
};

}  // namespace airscope

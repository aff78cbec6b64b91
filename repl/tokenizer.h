// Splitting shell input into words, the way a user expects from a shell:
// whitespace separates words, "double" and 'single' quotes group (backslash
// escapes \" \\ \n inside double quotes), a backslash keeps a space in a word
// (`my\ file.txt`), `#` at the start of a word begins a comment that runs to
// the end of the line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/scanner.h"
#include "core/status.h"

namespace airscope {

struct Word {
  std::string text;
  size_t column = 0;  // 1-based column where the word starts in the line
  bool quoted = false;
  // Where each byte of `text` was typed, and the end (text.size() + 1
  // columns: the closing quote of "a b", else just past the word), when
  // quotes or escapes moved them from column, column + 1, ...; else empty.
  // A parser of the word takes it as SourceOrigin::columns, so its errors
  // point into the line (op define's schema).
  std::vector<size_t> columns = {};
};

// Errors name the column and quote the line with a caret under it
// (core/scanner.h): "column 7: unterminated double quote".
Result<std::vector<Word>> Tokenize(std::string_view line);

// The whole word as an integer, or nullopt if it is not exactly one
// (callers check the range and word their own errors).
std::optional<int64_t> WordAsInt(const Word& word);

// Where a parser of the word's text reads it from: the command line, at the
// columns the word was typed at, its errors left for the interpreter to quote
// (a Scanner over it makes ColumnErrors). `word` must outlive the origin.
SourceOrigin WordOrigin(const Word& word);

// Splits `-c` text into commands on `;` outside quotes.
std::vector<std::string> SplitCommands(std::string_view text);

// Quotes a word for display/round trip if it needs it.
std::string QuoteWord(std::string_view word);

}  // namespace airscope

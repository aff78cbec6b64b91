#include "repl/tokenizer.h"

#include <charconv>

#include <fmt/format.h>

#include "core/scanner.h"

namespace airscope {

Result<std::vector<Word>> Tokenize(std::string_view line) {
  // Columns count from the line's start; an error quotes the line.
  Scanner scan(line, {.filename = {}, .line = 0});
  auto is_space = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
  std::vector<Word> words;
  while (true) {
    scan.SkipWhile(is_space);
    if (scan.AtEnd() || scan.PeekIs('#')) break;  // `#` starts a comment to the end of the line
    Word word;
    word.column = scan.pos() + 1;
    // The column each text byte was typed at: the column of its escape's backslash for an escaped one.
    std::vector<size_t> columns;
    size_t end_column = word.column;
    auto add = [&](char c, size_t typed_at) {
      word.text += c;
      columns.push_back(typed_at + 1);
      end_column = scan.pos() + 1;
    };
    while (!scan.AtEnd() && !is_space(scan.Peek())) {
      char c = scan.Peek();
      if (c == '"' || c == '\'') {
        size_t open = scan.pos();
        word.quoted = true;
        scan.Advance();
        if (word.text.empty()) end_column = scan.pos() + 1;  // `""`: its end is the closing quote
        bool closed = false;
        while (!scan.AtEnd()) {
          size_t at = scan.pos();
          char q = scan.Next();
          if (q == c) {
            closed = true;
            break;
          }
          if (q == '\\' && c == '"' && !scan.AtEnd()) {
            char e = scan.Next();
            add(e == 'n' ? '\n' : e == 't' ? '\t' : e, at);
            continue;
          }
          add(q, at);
        }
        if (!closed) return scan.Error(open, fmt::format("unterminated {} quote", c == '"' ? "double" : "single"));
        continue;
      }
      // `my\ file.txt`: a backslash before a space keeps it in the word, as
      // in a shell (other backslashes stay as typed: Windows paths, regexes).
      size_t at = scan.pos();
      if (c == '\\' && (scan.Peek(1) == ' ' || scan.Peek(1) == '\t')) {
        scan.Advance();
        add(scan.Next(), at);
        continue;
      }
      scan.Advance();
      add(c, at);
    }
    // Most words are typed as they read: their columns follow from `column`.
    bool moved = end_column != word.column + columns.size();
    for (size_t i = 0; i < columns.size() && !moved; ++i) moved = columns[i] != word.column + i;
    if (moved) {
      columns.push_back(end_column);
      word.columns = std::move(columns);
    }
    words.push_back(std::move(word));
  }
  return words;
}

std::optional<int64_t> WordAsInt(const Word& word) {
  int64_t value = 0;
  const char* end = word.text.data() + word.text.size();
  auto [ptr, ec] = std::from_chars(word.text.data(), end, value);
  if (ec != std::errc() || ptr != end) return std::nullopt;
  return value;
}

SourceOrigin WordOrigin(const Word& word) {
  return {.filename = {}, .line = 0, .column = word.column, .quote_source = false, .columns = word.columns};
}

std::vector<std::string> SplitCommands(std::string_view text) {
  std::vector<std::string> out;
  std::string current;
  char quote = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\' && quote == '"' && i + 1 < text.size()) {
        current += c;
        current += text[++i];
        continue;
      }
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == ';' || c == '\n') {
      out.push_back(std::move(current));
      current.clear();
      continue;
    }
    current += c;
  }
  out.push_back(std::move(current));
  return out;
}

std::string QuoteWord(std::string_view word) {
  bool plain = !word.empty();
  for (char c : word) {
    if (c == ' ' || c == '\t' || c == '"' || c == '\'' || c == '#' || c == '\\' || c == ';' || c == '\n') plain = false;
  }
  if (plain) return std::string(word);
  std::string out = "\"";
  for (char c : word) {
    if (c == '"' || c == '\\') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  out += '"';
  return out;
}

}  // namespace airscope

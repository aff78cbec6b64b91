#include "repl/tokenizer.h"

#include <charconv>

namespace airscope {

Result<std::vector<Word>> Tokenize(std::string_view line) {
  std::vector<Word> words;
  size_t i = 0;
  while (i < line.size()) {
    char c = line[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++i;
      continue;
    }
    if (c == '#') break;  // comment to end of line
    Word word;
    word.column = i + 1;
    while (i < line.size()) {
      c = line[i];
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n') break;
      if (c == '"' || c == '\'') {
        char quote = c;
        size_t open = i;
        word.quoted = true;
        ++i;
        bool closed = false;
        while (i < line.size()) {
          char q = line[i];
          if (q == quote) {
            closed = true;
            ++i;
            break;
          }
          if (q == '\\' && quote == '"' && i + 1 < line.size()) {
            char e = line[i + 1];
            word.text += e == 'n' ? '\n' : e == 't' ? '\t' : e;
            i += 2;
            continue;
          }
          word.text += q;
          ++i;
        }
        if (!closed) return Status::Errorf("column {}: unterminated {} quote", open + 1, quote == '"' ? "double" : "single");
        continue;
      }
      // `my\ file.txt`: a backslash before a space keeps it in the word, as
      // in a shell (other backslashes stay as typed: Windows paths, regexes).
      if (c == '\\' && i + 1 < line.size() && (line[i + 1] == ' ' || line[i + 1] == '\t')) {
        word.text += line[i + 1];
        i += 2;
        continue;
      }
      word.text += c;
      ++i;
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

#include "repl/roff.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/format.h>

namespace airscope {
namespace {

// A help line its author wrapped onto the next one is, with the next line's
// first word, longer than this: the help texts wrap at 90-110 columns, and a
// shorter line ends where its author ended it (a code line, a rule).
constexpr size_t kWrappedAt = 88;
// A word this long in filled text (a path, a URL) may break after its slashes.
constexpr size_t kLongWord = 30;

// The code point of the UTF-8 sequence at text[i] (advancing i past it); a
// stray byte stands for itself, as Latin-1.
uint32_t NextCodePoint(std::string_view text, size_t& i) {
  auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char lead = byte(i);
  size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
  if (length == 1 || i + length > text.size()) return byte(i++);
  uint32_t code = lead & (0x7F >> length);
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return byte(i++);
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  i += length;
  return code;
}

// A roff text line must not start with a control character.
std::string GuardLineStart(std::string line) {
  if (!line.empty() && (line[0] == '.' || line[0] == '\'')) line.insert(0, "\\&");
  return line;
}

// Escapes `text` and turns `quoted` spans bold; `bold` carries an open span
// from line to line. In filled text a long word may break after a '/'.
std::string RoffInline(std::string_view text, bool& bold, bool filled) {
  std::string out;
  size_t start = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    if (i < text.size() && text[i] != '`') continue;
    out += RoffEscape(text.substr(start, i - start));
    if (i < text.size()) {
      bold = !bold;
      out += bold ? "\\fB" : "\\fR";
    }
    start = i + 1;
  }
  if (!filled) return out;
  std::string broken;
  size_t word_start = 0;
  for (size_t i = 0; i <= out.size(); ++i) {
    if (i < out.size() && out[i] != ' ') continue;
    std::string_view word = std::string_view(out).substr(word_start, i - word_start);
    for (size_t k = 0; k < word.size(); ++k) {
      broken += word[k];
      // \: is a break point that prints nothing; escapes never hold a '/'.
      if (word.size() >= kLongWord && word[k] == '/' && k + 1 < word.size()) broken += "\\:";
    }
    if (i < out.size()) broken += ' ';
    word_start = i + 1;
  }
  return broken;
}

struct HelpLine {
  size_t indent = 0;
  std::string_view text;  // without its indent and trailing blanks; empty: a blank line
  size_t width() const { return indent + text.size(); }
};

std::vector<HelpLine> SplitHelpLines(std::string_view text) {
  std::vector<HelpLine> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = std::min(text.find('\n', start), text.size());
    std::string_view line = text.substr(start, end - start);
    size_t first = line.find_first_not_of(" \t");
    size_t last = line.find_last_not_of(" \t");
    if (first == std::string_view::npos) {
      lines.push_back({});
    } else {
      lines.push_back({first, line.substr(first, last - first + 1)});
    }
    start = end + 1;
  }
  return lines;
}

bool IsBullet(const HelpLine& line) { return line.text.size() > 2 && line.text.starts_with("- "); }
// Indented, or aligning columns with three or more spaces; but "Example: a   b" is prose that puts
// examples side by side.
bool IsLaidOut(const HelpLine& line) {
  size_t run = line.text.find("   ");
  if (line.indent > 0 || run == std::string_view::npos) return line.indent > 0;
  size_t example = line.text.find("Example: ");
  return example == std::string_view::npos || example > run;
}

// Where a table row's text column starts ("key  text": after the first run of
// two or more spaces), or npos.
size_t RowColumn(const HelpLine& line) {
  size_t gap = line.text.find("  ");
  if (gap == std::string_view::npos) return std::string_view::npos;
  return line.indent + line.text.find_first_not_of(' ', gap);
}

constexpr size_t npos = std::string_view::npos;

std::string_view FirstWord(std::string_view text) { return text.substr(0, text.find(' ')); }

void AppendWords(std::vector<std::string_view>& words, std::string_view text) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = std::min(text.find(' ', start), text.size());
    if (end > start) words.push_back(text.substr(start, end - start));
    start = end + 1;
  }
}

// One line as its author meant it: a physical line, plus the lines wrapped
// from it onto a hanging indent (or a table row's text column).
struct LogicalLine {
  HelpLine first;
  size_t column = std::string_view::npos;  // a row's text column
  size_t hang = 0;                         // where wrapped lines start
  std::vector<std::string_view> more;      // the words of the lines wrapped from it
};

// Lines laid out by hand, wrapped again where their author wrapped them.
std::vector<std::string> Rewrap(const std::vector<HelpLine>& block) {
  std::vector<LogicalLine> logical;
  for (size_t i = 0; i < block.size(); ++i) {
    const HelpLine& line = block[i];
    if (!logical.empty()) {
      LogicalLine& last = logical.back();
      const HelpLine& previous = block[i - 1];
      bool wrapped = previous.width() + 1 + FirstWord(line.text).size() > kWrappedAt;
      // A line wrapped onto a hanging indent, or onto its own indent when the line before ends as
      // prose does (a code line ends with a bracket or a quote).
      char end = previous.text.back();
      bool prose_end = std::isalnum(static_cast<unsigned char>(end)) || std::string_view(",;:|.'").find(end) != npos;
      bool hangs = line.indent > last.first.indent ||
                   (line.indent == last.first.indent && prose_end && last.column == npos && RowColumn(line) == npos);
      if (hangs && wrapped) {
        if (last.more.empty()) last.hang = line.indent;
        AppendWords(last.more, line.text);
        continue;
      }
    }
    logical.push_back({line, RowColumn(line), 0, {}});
  }
  std::vector<std::string> out;
  for (const LogicalLine& line : logical) {
    bool row = line.column != std::string_view::npos;
    std::string head = std::string(line.first.indent, ' ') + std::string(line.first.text);
    if (line.more.empty() && (!row || head.size() <= kRoffLaidOutWidth)) {
      out.push_back(std::move(head));  // as laid out: code is never broken
      continue;
    }
    // The row's key (or the line's first word) stays put; the words after it are wrapped.
    size_t text_at = row ? line.column : line.first.indent + FirstWord(line.first.text).size();
    std::vector<std::string_view> words;
    AppendWords(words, std::string_view(head).substr(text_at));
    words.insert(words.end(), line.more.begin(), line.more.end());
    size_t hang = line.more.empty() ? line.column : line.hang;
    if (hang + 20 > kRoffLaidOutWidth) hang = line.first.indent + 4;  // no room in that column
    std::string current = head.substr(0, text_at);
    bool first_word = true;
    for (std::string_view word : words) {
      bool fits = current.size() + 1 + word.size() <= kRoffLaidOutWidth;
      if (!first_word && !fits && current.find_first_not_of(' ') != std::string::npos) {
        out.push_back(std::move(current));
        current = std::string(hang, ' ');
      } else if (!current.empty() && current.back() != ' ') {
        current += ' ';
      }
      current += word;
      first_word = false;
    }
    out.push_back(std::move(current));
  }
  return out;
}

}  // namespace

std::string RoffEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (static_cast<unsigned char>(c) >= 0x80) {
      out += fmt::format("\\[u{:04X}]", NextCodePoint(text, i));
      continue;
    }
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else {
      out += c;
    }
    ++i;
  }
  return out;
}

std::string RoffSyntax(std::string_view syntax) {
  enum class Font : uint8_t { kRoman, kBold, kItalic };
  std::string out;
  Font current = Font::kRoman;
  auto emit = [&](Font font, std::string_view text) {
    if (font != current && text.find_first_not_of(' ') != std::string_view::npos) {
      out += font == Font::kBold ? "\\fB" : font == Font::kItalic ? "\\fI" : "\\fR";
      current = font;
    }
    out += RoffEscape(text);
  };
  auto upper = [](char c) { return std::isupper(static_cast<unsigned char>(c)) != 0; };
  auto placeholder_char = [&](char c) { return upper(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '_'; };
  constexpr std::string_view kPunctuation = "[]|(){},;'\"";
  for (size_t i = 0; i < syntax.size();) {
    char c = syntax[i];
    size_t end = i + 1;
    if (c == ' ') {
      emit(current, " ");
    } else if (syntax.substr(i, 3) == "...") {
      end = i + 3;
      emit(Font::kRoman, "...");
    } else if (kPunctuation.find(c) != std::string_view::npos) {
      emit(Font::kRoman, syntax.substr(i, 1));
    } else if (upper(c)) {
      while (end < syntax.size() && placeholder_char(syntax[end])) ++end;
      emit(Font::kItalic, syntax.substr(i, end - i));
    } else {
      while (end < syntax.size() && syntax[end] != ' ' && !upper(syntax[end]) &&
             kPunctuation.find(syntax[end]) == std::string_view::npos && syntax.substr(end, 3) != "...") {
        ++end;
      }
      emit(Font::kBold, syntax.substr(i, end - i));
    }
    i = end;
  }
  if (current != Font::kRoman) out += "\\fR";
  return out;
}

std::string RoffHelp(std::string_view text, RoffPlace place) {
  const std::string_view paragraph = place == RoffPlace::kSection ? ".PP\n" : ".IP\n";
  enum class Mode : uint8_t { kStart, kProse, kBullets, kLaidOut } mode = Mode::kStart;
  std::string out;
  bool bold = false;
  bool new_paragraph = false;  // a blank line came: the next text starts a paragraph
  auto close_bold = [&] {
    if (bold && !out.empty()) out.insert(out.size() - 1, "\\fR");  // at the end of the last text line
    bold = false;
  };
  // Leaves the current mode for `next`, with what roff needs between them.
  auto enter = [&](Mode next) {
    if (mode == Mode::kLaidOut && next != Mode::kLaidOut) out += ".fi\n";
    if (mode == Mode::kBullets && next != Mode::kBullets) {
      out += ".RE\n";
      new_paragraph = true;  // .RE leaves the margin: the text after it is a paragraph of its own
    }
    if (next == Mode::kBullets) {
      if (mode != Mode::kBullets) out += ".RS\n";  // each bullet's .IP spaces it from the text before
    } else if (new_paragraph && mode != Mode::kStart) {
      out += paragraph;
    }
    if (next == Mode::kLaidOut && mode != Mode::kLaidOut) out += ".nf\n";
    new_paragraph = false;
    mode = next;
  };
  std::vector<HelpLine> lines = SplitHelpLines(text);
  // A row of a table at the margin ("key  text" with its next line under the text) is laid out too.
  auto laid_out_at = [&lines](size_t i) {
    if (IsBullet(lines[i])) return false;
    if (IsLaidOut(lines[i])) return true;
    size_t column = RowColumn(lines[i]);
    return column != npos && i + 1 < lines.size() && lines[i + 1].indent == column;
  };
  for (size_t i = 0; i < lines.size();) {
    const HelpLine& line = lines[i];
    if (line.text.empty()) {
      close_bold();
      if (mode == Mode::kLaidOut) {
        out += ".fi\n";
        mode = Mode::kProse;
      }
      new_paragraph = true;
      ++i;
      continue;
    }
    if (IsBullet(line)) {
      enter(Mode::kBullets);
      out += ".IP \\(bu 2\n";
      out += GuardLineStart(RoffInline(line.text.substr(2), bold, true)) + "\n";
      for (++i; i < lines.size() && !lines[i].text.empty() && lines[i].indent == line.indent + 2 && !IsBullet(lines[i]);
           ++i) {
        out += GuardLineStart(RoffInline(lines[i].text, bold, true)) + "\n";
      }
      continue;
    }
    if (laid_out_at(i)) {
      enter(Mode::kLaidOut);
      std::vector<HelpLine> block;
      for (; i < lines.size() && !lines[i].text.empty() && laid_out_at(i); ++i) {
        block.push_back(lines[i]);
      }
      for (const std::string& laid_out : Rewrap(block)) {
        out += GuardLineStart(RoffInline(laid_out, bold, false)) + "\n";
      }
      continue;
    }
    enter(Mode::kProse);
    out += GuardLineStart(RoffInline(line.text, bold, true)) + "\n";
    ++i;
  }
  close_bold();
  if (mode == Mode::kLaidOut) out += ".fi\n";
  if (mode == Mode::kBullets) out += ".RE\n";
  return out;
}

}  // namespace airscope

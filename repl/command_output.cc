#include "repl/command_output.h"

#include "repl/terminal_text.h"

namespace airscope {
namespace {

std::string_view AnsiStart(Style style) {
  switch (style) {
    case Style::kHeading: return "\033[1m";
    case Style::kGood: return "\033[32m";
    case Style::kBad: return "\033[31m";
    case Style::kDim: return "\033[2m";
    case Style::kAccent: return "\033[36m";
    case Style::kPlain:
    case Style::kData: break;
  }
  return "";
}

}  // namespace

void CommandOutput::Add(std::string_view text, Style style) { lines_.push_back({style, std::string(text)}); }

void CommandOutput::AddBlock(std::string_view text, Style style) {
  if (style == Style::kData) {
    // Bytes, kept whole (a PNG is not lines); Render adds no newline after them.
    lines_.push_back({style, std::string(text)});
    return;
  }
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    Add(text.substr(start, end - start), style);
    start = end + 1;
  }
}

void CommandOutput::Append(const CommandOutput& other) {
  lines_.insert(lines_.end(), other.lines_.begin(), other.lines_.end());
}

std::string CommandOutput::Text() const {
  size_t total = 0;
  for (const Line& line : lines_) total += line.text.size() + 1;
  std::string out;
  out.reserve(total);
  for (const Line& line : lines_) {
    out += line.text;
    if (line.style != Style::kData) out += '\n';  // data bytes carry their own
  }
  return out;
}

std::string CommandOutput::Render(bool color) const {
  std::string out;
  for (const Line& line : lines_) {
    if (line.style == Style::kData) {
      out += line.text;
      continue;
    }
    std::string_view start = color ? AnsiStart(line.style) : std::string_view();
    if (!start.empty()) out += start;
    out += TerminalSafe(line.text);
    if (!start.empty()) out += "\033[0m";
    out += '\n';
  }
  return out;
}

}  // namespace airscope

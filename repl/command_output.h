// CommandOutput: what a command handler produces, kept apart from how it is
// shown. Handlers append lines (with an optional style); the shell renders
// them to a terminal (colour when allowed) and `expect output` reads the
// plain text. No handler writes to stdout itself.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace airscope {

// kData: bytes the user asked to have printed (`dump fx -`, `dump png -`,
// `timeline --json -`), written exactly as they are: no colour, no escaping,
// no length cap, no newline added (AddBlock keeps them as one piece). Every
// other line goes through TerminalSafe (repl/terminal_text.h) when rendered.
enum class Style : uint8_t { kPlain, kHeading, kGood, kBad, kDim, kAccent, kData };

class CommandOutput {
 public:
  struct Line {
    Style style;
    std::string text;
  };

  void Add(std::string_view text, Style style = Style::kPlain);
  template <typename... Args>
  void Print(fmt::format_string<Args...> format, Args&&... args) {
    Add(fmt::format(format, std::forward<Args>(args)...));
  }
  template <typename... Args>
  void Styled(Style style, fmt::format_string<Args...> format, Args&&... args) {
    Add(fmt::format(format, std::forward<Args>(args)...), style);
  }
  // Appends text that may hold several lines (split on '\n'; a trailing newline adds no empty line).
  void AddBlock(std::string_view text, Style style = Style::kPlain);
  void Append(const CommandOutput& other);

  const std::vector<Line>& lines() const { return lines_; }
  bool empty() const { return lines_.empty(); }
  // Plain text, one '\n' after each line, as the handler wrote it (for
  // `expect output` and captured output).
  std::string Text() const;
  // For a terminal or its stand-in (a pipe, a file): lines made TerminalSafe
  // (kData lines excepted), with ANSI colours when `color` is set.
  std::string Render(bool color) const;

 private:
  std::vector<Line> lines_;
};

}  // namespace airscope

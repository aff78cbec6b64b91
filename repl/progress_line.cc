#include "repl/progress_line.h"

#include <unistd.h>

#include <string>

namespace airscope {

ProgressLine::ProgressLine() : terminal_(::isatty(STDERR_FILENO) == 1) {}

ProgressLine::~ProgressLine() {
  if (!shown_) return;
  constexpr std::string_view kErase = "\r\x1b[K";
  (void)!::write(STDERR_FILENO, kErase.data(), kErase.size());
}

void ProgressLine::Update(std::string_view text) {
  if (!terminal_) return;
  auto now = std::chrono::steady_clock::now();
  if (shown_ && now - last_ < std::chrono::milliseconds(100)) return;
  last_ = now;
  shown_ = true;
  std::string line = "\r\x1b[K" + std::string(text);
  (void)!::write(STDERR_FILENO, line.data(), line.size());
}

}  // namespace airscope

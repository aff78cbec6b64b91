// Reading a text file line by line in bounded memory: the loaders of logs
// (TORCH_TRACE, TORCH_LOGS text) that may be gigabytes long read through
// this, so a file is never held whole. Ctrl-C (core/interrupt.h) is honoured
// between chunks of lines: a stopped read never hands on half a line.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/file_util.h"
#include "core/status.h"

namespace airscope {

// Calls `on_line` with each line of `path` without its '\n' (a final line
// without one included). The file is opened as every reader opens
// (InputFile, core/file_util.h: devices refused, a FIFO given fifo_wait_ms
// for its first bytes). Errors: the file cannot be opened or read, it is
// larger than `max_bytes` (checked as it is read, so a growing file is
// caught too), or Ctrl-C was pressed (InterruptedStatus()).
Status ReadFileLines(const std::string& path, uint64_t max_bytes, const std::function<void(std::string_view)>& on_line,
                     int fifo_wait_ms = kFifoWaitMs);

// The same over text already in memory: each line without its '\n', a final
// line without one included, no empty line after a final '\n'.
template <typename OnLine>
void ForEachLine(std::string_view text, OnLine&& on_line) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    on_line(text.substr(start, end - start));
    start = end + 1;
  }
}

// The first line that is not blank and not a `#` comment, leading spaces
// removed ("" when there is none): what a file's kind is told from.
std::string_view FirstMeaningfulLine(std::string_view content);

}  // namespace airscope

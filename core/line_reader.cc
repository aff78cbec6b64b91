#include "core/line_reader.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "core/file_util.h"
#include "core/interrupt.h"

namespace airscope {

Status ReadFileLines(const std::string& path, uint64_t max_bytes, const std::function<void(std::string_view)>& on_line,
                     int fifo_wait_ms) {
  // Opened as every reader opens (core/file_util.h): a FIFO's wait is
  // bounded, a device is refused (/dev/zero was read up to max_bytes).
  AIRSCOPE_ASSIGN_OR_RETURN(InputFile input, InputFile::Open(path, fifo_wait_ms));
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(::fdopen(input.fd(), "rb"), &std::fclose);
  if (!file) return Status::Errorf("{}: cannot read: {}", path, std::strerror(errno));
  input.Release();  // the FILE closes it now
  // A line that spans chunks is gathered here; it is the only copy made.
  std::string pending;
  std::vector<char> chunk(1 << 20);
  uint64_t total = 0;
  size_t got = 0;
  while ((got = std::fread(chunk.data(), 1, chunk.size(), file.get())) > 0) {
    if (InterruptRequested()) return InterruptedStatus();
    total += got;
    if (total > max_bytes) return Status::Errorf("{}: larger than max-file-size ({} bytes)", path, max_bytes);
    std::string_view data(chunk.data(), got);
    size_t pos = 0;
    while (true) {
      size_t end = data.find('\n', pos);
      if (end == std::string_view::npos) {
        pending.append(data.substr(pos));
        break;
      }
      if (pending.empty()) {
        on_line(data.substr(pos, end - pos));
      } else {
        pending.append(data.substr(pos, end - pos));
        on_line(pending);
        pending.clear();
      }
      pos = end + 1;
    }
  }
  if (std::ferror(file.get())) return Status::Errorf("{}: read error", path);
  if (!pending.empty()) on_line(pending);
  return Status::Ok();
}

std::string_view FirstMeaningfulLine(std::string_view content) {
  std::string_view found;
  size_t pos = 0;
  while (pos < content.size() && found.empty()) {
    size_t end = content.find('\n', pos);
    if (end == std::string_view::npos) end = content.size();
    std::string_view line = content.substr(pos, end - pos);
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line[first] != '#') found = line.substr(first);
    pos = end + 1;
  }
  return found;
}

}  // namespace airscope

// Whole-file reads and safe writes. The only place core touches the file
// system, so tests and callers see one behaviour for missing files, size
// limits and interrupted writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "core/large_buffer.h"
#include "core/mapped_file.h"
#include "core/status.h"

namespace airscope {

// A whole file's bytes: a big regular file mapped (MappedFile: no clearing
// pass and no copy), anything else read straight into a LargeBuffer. What
// the loaders of big graphs and logs read with.
class FileText {
 public:
  std::string_view view() const {
    return mapped_.view().empty() ? std::string_view(static_cast<const char*>(buffer_.data()), size_) : mapped_.view();
  }
  // The reader is done with the bytes before `offset`: their memory may go
  // back to the system; reading them afterwards is not allowed (they read as
  // zeros or as the file's bytes again).
  void ReleaseBefore(size_t offset) {
    buffer_.DiscardBefore(offset);
    mapped_.DiscardBefore(offset);
  }

 private:
  friend Result<FileText> ReadFileText(const std::string& path, uint64_t max_bytes, int fifo_wait_ms);
  MappedFile mapped_;
  LargeBuffer buffer_;
  size_t size_ = 0;
};

// Refuses files larger than max_bytes with a message naming the limit, and
// devices (/dev/zero would be read up to the limit). Reads pipes and FIFOs
// (no size known up front) to their end too; a FIFO gets fifo_wait_ms for
// its first bytes, since it may have no writer (opening it would block).
Result<FileText> ReadFileText(const std::string& path, uint64_t max_bytes = uint64_t{4} << 30, int fifo_wait_ms = 5000);
// The same, as a std::string (one more copy; for small files and callers that keep the text).
Result<std::string> ReadFile(const std::string& path, uint64_t max_bytes = uint64_t{4} << 30);

// Writes `contents` to `path` as a user means it:
// - a regular file, or none yet: atomically, through a temp file made with
//   O_EXCL in the same directory and renamed over it, so a reader never sees
//   a partial file and a failed write (disk full, `ulimit -f`) leaves the old
//   file and no temp file. An existing file keeps its mode (and owner where
//   the process may set it); a new one gets 0666 less the umask.
// - a symlink is followed: the file it points at is replaced, the link stays.
// - a device, FIFO or socket (/dev/null, /dev/stdout, a named pipe) is
//   written in place, never replaced; a FIFO without a reader is an error.
// - missing parent directories are created (mkdir -p).
Status WriteFile(const std::string& path, std::string_view contents);
// Writes all of `contents` to `fd` (retrying short writes and EINTR); an
// error names `path`, and `ulimit -f` by name.
Status WriteAllTo(int fd, std::string_view contents, const std::string& path);

// Appends `contents` to `path` (created, 0666 less the umask, if missing;
// missing directories are created), as a shell's >> does.
Status AppendToFile(const std::string& path, std::string_view contents);

}  // namespace airscope

// Whole-file reads and safe writes. The only place core touches the file
// system, so tests and callers see one behaviour for missing files, size
// limits and interrupted writes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include <sys/stat.h>

#include "core/large_buffer.h"
#include "core/mapped_file.h"
#include "core/status.h"

namespace airscope {

// How long a FIFO is given for its first bytes before a read gives up: it
// may have no writer yet, and opening it for reading would wait for one.
inline constexpr int kFifoWaitMs = 5000;

// A file opened for reading by the one rule every reader in airscope
// follows (ReadFileText, ReadFileLines, and through them every loader):
// - a regular file, a pipe (/dev/stdin of `cat log | airscope`) or a
//   socket opens at once;
// - a FIFO gets fifo_wait_ms for its first bytes (or its writer's end of
//   file): one without a writer would block the open, then the read, forever;
// - a directory is refused ("not a regular file"), and so is a device:
//   /dev/zero would be read up to the size limit, a tty would wait for typing.
// The descriptor is blocking once open, and closed with the object.
class InputFile {
 public:
  static Result<InputFile> Open(const std::string& path, int fifo_wait_ms = kFifoWaitMs);
  InputFile(InputFile&& other) noexcept : fd_(std::exchange(other.fd_, -1)), st_(other.st_) {}
  InputFile& operator=(InputFile&& other) noexcept;
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;
  ~InputFile();

  int fd() const { return fd_; }
  const struct stat& stat() const { return st_; }
  // The descriptor, now the caller's to close.
  int Release() { return std::exchange(fd_, -1); }

 private:
  InputFile(int fd, const struct stat& st) : fd_(fd), st_(st) {}
  int fd_ = -1;
  struct stat st_ {};
};

// "" when `path` is a regular file (symlinks followed) or cannot be looked
// at (its reader then says why); else what it is: "a FIFO", "a character
// device", "a block device", "a socket", "a directory". For readers that
// take only regular files (the files of a TORCH_COMPILE_DEBUG tree).
std::string NonRegularFileKind(const std::string& path);

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

// Opens `path` as InputFile does (devices refused, a FIFO's wait bounded)
// and refuses files larger than max_bytes with a message naming the limit.
// Reads pipes and FIFOs (no size known up front) to their end too.
Result<FileText> ReadFileText(const std::string& path, uint64_t max_bytes = uint64_t{4} << 30,
                              int fifo_wait_ms = kFifoWaitMs);
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

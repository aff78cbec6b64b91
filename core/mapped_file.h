// MappedFile: a regular file's bytes mapped read-only into memory, for the
// big inputs (a 1M-node FX text is 125 MB). Reading such a file into
// anonymous memory costs the kernel a zero-fill of every page and then a
// copy; a mapping shares the page cache's pages and costs neither, which was
// a quarter of a 1M-node `load`.
//
// Contract: view() holds the file's first `size` bytes as they were when
// mapped. If another process truncates the file while it is mapped, reading
// the lost tail raises SIGBUS (as for git's packs and ripgrep's mmap mode);
// ReadFileText therefore maps only big regular files, whose loads are where
// the copy costs. DiscardBefore gives the pages before an offset back (they
// stop counting in the resident set); reading them again re-reads the file.
#pragma once

#include <cstddef>
#include <string_view>
#include <utility>

#include "core/status.h"

namespace airscope {

class MappedFile {
 public:
  MappedFile() = default;
  // Maps `size` bytes of the open file `fd` (which the caller keeps and may
  // close afterwards); `path` names the file in an error.
  static Result<MappedFile> Map(int fd, size_t size, const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  MappedFile(MappedFile&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  MappedFile& operator=(MappedFile&& other) noexcept {
    MappedFile moved(std::move(other));
    std::swap(data_, moved.data_);
    std::swap(size_, moved.size_);
    return *this;
  }

  std::string_view view() const { return {data_, size_}; }
  void DiscardBefore(size_t offset);

 private:
  const char* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace airscope

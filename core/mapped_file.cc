#include "core/mapped_file.h"

#include <cerrno>
#include <cstring>

#include <sys/mman.h>
#include <unistd.h>

namespace airscope {

Result<MappedFile> MappedFile::Map(int fd, size_t size, const std::string& path) {
  MappedFile file;
  if (size == 0) return file;
  void* data = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  if (data == MAP_FAILED) return Status::Errorf("{}: cannot map: {}", path, std::strerror(errno));
  // Parsers read front to back: ask for read-ahead of the whole file. Advice
  // only; a failure changes nothing but speed.
  ::madvise(data, size, MADV_SEQUENTIAL);
  ::madvise(data, size, MADV_WILLNEED);
  file.data_ = static_cast<const char*>(data);
  file.size_ = size;
  return file;
}

void MappedFile::DiscardBefore(size_t offset) {
  size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  size_t whole = std::min(offset, size_) / page * page;
  if (whole == 0) return;
  ::madvise(const_cast<char*>(data_), whole, MADV_DONTNEED);
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<char*>(data_), size_);
}

}  // namespace airscope

#include "core/large_buffer.h"

#include <cstdint>
#include <cstdlib>
#include <new>

#include <sys/mman.h>

namespace airscope {
namespace {

size_t MappedLength(size_t bytes) {
  constexpr size_t kPage = 4096;
  return (bytes + kPage - 1) & ~(kPage - 1);
}

}  // namespace

LargeBuffer::LargeBuffer(size_t bytes) : size_(bytes) {
  if (bytes == 0) return;
  if (bytes < kHugeFrom) {
    data_ = std::calloc(1, bytes);
    if (!data_) throw std::bad_alloc();
    return;
  }
  // Huge pages need 2 MiB-aligned ranges: map one alignment more and give
  // back the slack at both ends.
  size_t length = MappedLength(bytes);
  void* raw = ::mmap(nullptr, length + kHugeFrom, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  // The first kHugeFrom-aligned byte of the mapping; what lies before it and
  // after start + length goes back. Pointer arithmetic, not integer-to-pointer
  // casts, so the compiler keeps the provenance.
  auto raw_at = reinterpret_cast<uintptr_t>(raw);
  size_t head = ((raw_at + kHugeFrom - 1) & ~(uintptr_t{kHugeFrom} - 1)) - raw_at;
  char* start = static_cast<char*>(raw) + head;
  if (head) ::munmap(raw, head);
  if (kHugeFrom - head) ::munmap(start + length, kHugeFrom - head);
  data_ = start;
  // Advice only: where transparent huge pages are off, this fails and the
  // mapping simply stays in 4 KiB pages.
  ::madvise(data_, length, MADV_HUGEPAGE);
}

void LargeBuffer::DiscardBefore(size_t offset) {
  if (size_ < kHugeFrom || offset < kHugeFrom) return;
  size_t whole = offset & ~(kHugeFrom - 1);
  ::madvise(data_, whole, MADV_DONTNEED);
}

LargeBuffer::~LargeBuffer() {
  if (!data_) return;
  if (size_ < kHugeFrom) {
    std::free(data_);
  } else {
    ::munmap(data_, MappedLength(size_));
  }
}

}  // namespace airscope

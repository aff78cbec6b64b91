// LargeBuffer: one zero-filled block of memory for the arrays that grow with
// a graph (node storage, the name table, a file being parsed).
//
// Contract: data() is zero-filled and aligned for any type; the block lives
// until the LargeBuffer is destroyed or moved from. Small blocks come from
// calloc; from kHugeFrom bytes on they are their own anonymous mapping, with
// transparent huge pages asked for (madvise), because a 1M-node load spent a
// quarter of its time in 4 KiB page faults: one 2 MiB page replaces 512 of
// them. Fresh mappings are already zero, so nothing is cleared twice.
#pragma once

#include <cstddef>
#include <utility>

namespace airscope {

class LargeBuffer {
 public:
  static constexpr size_t kHugeFrom = size_t{2} << 20;

  LargeBuffer() = default;
  // Throws std::bad_alloc when the memory is not there, as new does.
  explicit LargeBuffer(size_t bytes);
  ~LargeBuffer();
  LargeBuffer(const LargeBuffer&) = delete;
  LargeBuffer& operator=(const LargeBuffer&) = delete;
  LargeBuffer(LargeBuffer&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  LargeBuffer& operator=(LargeBuffer&& other) noexcept {
    LargeBuffer moved(std::move(other));
    std::swap(data_, moved.data_);
    std::swap(size_, moved.size_);
    return *this;
  }

  void* data() const { return data_; }
  size_t size() const { return size_; }

  // Gives the memory of whole huge pages before byte `offset` back to the
  // system; reading them afterwards yields zeros. A no-op for small
  // (calloc'd) buffers. For a reader done with the start of a big buffer.
  void DiscardBefore(size_t offset);

 private:
  void* data_ = nullptr;
  size_t size_ = 0;
};

}  // namespace airscope

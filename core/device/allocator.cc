#include "core/device/allocator.h"

#include <cassert>

#include <fmt/format.h>

namespace airscope {

CachingAllocator::CachingAllocator(int64_t capacity) : capacity_(capacity) {
  pools_[kDefaultPool].stats.name = "default";
}

PoolId CachingAllocator::CreatePool(std::string name) {
  PoolId id = next_pool_++;
  pools_[id].stats.name = std::move(name);
  return id;
}

Status CachingAllocator::BeginAllocateToPool(PoolId pool) {
  if (!HasPool(pool)) return Status::Errorf("beginAllocateToPool: no pool {}", pool);
  if (current_ != kDefaultPool) return Status::Errorf("beginAllocateToPool: already recording to pool {}", current_);
  current_ = pool;
  return Status::Ok();
}

Status CachingAllocator::EndAllocateToPool(PoolId pool) {
  // torch_npu's message, for the same mistake.
  if (current_ != pool) return Status::Error("endAllocatePool: not currently recording to mempool_id");
  current_ = kDefaultPool;
  return Status::Ok();
}

int64_t CachingAllocator::RoundSize(int64_t bytes) {
  if (bytes < kMinBlock) return kMinBlock;
  return (bytes + kMinBlock - 1) / kMinBlock * kMinBlock;
}

Status CachingAllocator::Reserve(Pool& pool, PoolId id, int64_t size, uint64_t* segment) {
  if (total_reserved_ + size > capacity_) EmptyCache();
  if (total_reserved_ + size > capacity_) {
    return Status::Errorf(
        "out of memory: tried to reserve {} for pool '{}' with {} of {} already reserved ({} free); release "
        "captured graphs, lower the batch size, or raise device.memory_capacity",
        FormatBytes(size), pool.stats.name, FormatBytes(total_reserved_), FormatBytes(capacity_),
        FormatBytes(capacity_ - total_reserved_));
  }
  uint64_t seg = next_segment_++;
  Segment& s = segments_[seg];
  s.pool = id;
  s.size = size;
  s.pieces[0] = {size, 0};
  pool.free.insert({size, seg, 0});
  pool.segments.insert(seg);
  pool.stats.reserved += size;
  pool.stats.segments++;
  pool.stats.peak_reserved = std::max(pool.stats.peak_reserved, pool.stats.reserved);
  total_reserved_ += size;
  *segment = seg;
  return Status::Ok();
}

Result<BlockId> CachingAllocator::Allocate(int64_t bytes) { return Allocate(current_, bytes); }

Result<BlockId> CachingAllocator::Allocate(PoolId id, int64_t bytes) {
  auto pit = pools_.find(id);
  if (pit == pools_.end()) return Status::Errorf("allocate: no pool {}", id);
  Pool& pool = pit->second;
  int64_t size = RoundSize(bytes);
  auto it = pool.free.lower_bound({size, 0, 0});
  bool reused = it != pool.free.end();
  if (!reused) {
    int64_t seg_size = size <= kSmallSize ? kSegment : (size + kSegment - 1) / kSegment * kSegment;
    uint64_t seg = 0;
    AIRSCOPE_RETURN_IF_ERROR(Reserve(pool, id, seg_size, &seg));
    it = pool.free.find({seg_size, seg, 0});
    assert(it != pool.free.end());
  }
  auto [piece_size, seg, offset] = *it;
  pool.free.erase(it);
  Segment& s = segments_[seg];
  BlockId block = next_block_++;
  s.pieces[offset] = {size, block};
  if (piece_size > size) {
    s.pieces[offset + size] = {piece_size - size, 0};
    pool.free.insert({piece_size - size, seg, offset + size});
  }
  live_[block] = {seg, offset};
  pool.stats.allocated += size;
  pool.stats.peak_allocated = std::max(pool.stats.peak_allocated, pool.stats.allocated);
  pool.stats.live_blocks++;
  pool.stats.allocations++;
  pool.stats.reused += reused;
  return block;
}

void CachingAllocator::Free(BlockId block) {
  auto lit = live_.find(block);
  if (lit == live_.end()) return;
  Live live = lit->second;
  live_.erase(lit);
  Segment& s = segments_[live.segment];
  Pool& pool = pools_[s.pool];
  auto it = s.pieces.find(live.offset);
  int64_t size = it->second.first;
  pool.stats.allocated -= size;
  pool.stats.live_blocks--;
  it->second.second = 0;
  // Merge with free neighbours so the space can serve larger requests.
  auto next = std::next(it);
  if (next != s.pieces.end() && next->second.second == 0) {
    pool.free.erase({next->second.first, live.segment, next->first});
    it->second.first += next->second.first;
    s.pieces.erase(next);
  }
  if (it != s.pieces.begin()) {
    auto prev = std::prev(it);
    if (prev->second.second == 0) {
      pool.free.erase({prev->second.first, live.segment, prev->first});
      prev->second.first += it->second.first;
      s.pieces.erase(it);
      it = prev;
    }
  }
  pool.free.insert({it->second.first, live.segment, it->first});
}

void CachingAllocator::ReleaseSegment(uint64_t seg) {
  Segment& s = segments_[seg];
  Pool& pool = pools_[s.pool];
  for (auto& [offset, piece] : s.pieces) {
    if (piece.second != 0) {
      live_.erase(piece.second);
      pool.stats.allocated -= piece.first;
      pool.stats.live_blocks--;
    } else {
      pool.free.erase({piece.first, seg, offset});
    }
  }
  pool.stats.reserved -= s.size;
  pool.stats.segments--;
  total_reserved_ -= s.size;
  pool.segments.erase(seg);
  segments_.erase(seg);
}

std::optional<BlockPlace> CachingAllocator::Place(BlockId block) const {
  auto it = live_.find(block);
  if (it == live_.end()) return std::nullopt;
  const Segment& s = segments_.at(it->second.segment);
  return BlockPlace{s.pool, it->second.segment, it->second.offset, s.pieces.at(it->second.offset).first};
}

Status CachingAllocator::ReleasePool(PoolId id) {
  if (id == kDefaultPool) return Status::Error("the default pool cannot be released");
  auto pit = pools_.find(id);
  if (pit == pools_.end()) return Status::Errorf("release: no pool {}", id);
  std::set<uint64_t> segs = pit->second.segments;
  for (uint64_t seg : segs) ReleaseSegment(seg);
  if (current_ == id) current_ = kDefaultPool;
  pools_.erase(id);
  return Status::Ok();
}

void CachingAllocator::EmptyCache() {
  Pool& pool = pools_[kDefaultPool];
  std::vector<uint64_t> empty;
  for (uint64_t seg : pool.segments) {
    const Segment& s = segments_[seg];
    if (s.pieces.size() == 1 && s.pieces.begin()->second.second == 0) empty.push_back(seg);
  }
  for (uint64_t seg : empty) ReleaseSegment(seg);
}

CachingAllocator::Layout CachingAllocator::PoolLayout(PoolId id) const {
  Layout layout;
  layout.next_segment = next_segment_;
  layout.total_reserved = total_reserved_;
  auto pit = pools_.find(id);
  if (pit == pools_.end()) return layout;
  for (uint64_t seg : pit->second.segments) {
    for (const auto& [offset, piece] : segments_.at(seg).pieces) {
      layout.pieces.emplace_back(seg, offset, piece.first, piece.second);
    }
  }
  return layout;
}

void CachingAllocator::CountRepeats(PoolId id, int64_t allocations, int64_t times) {
  auto pit = pools_.find(id);
  if (pit == pools_.end() || allocations <= 0 || times <= 0) return;
  PoolStats& s = pit->second.stats;
  s.allocations += allocations * times;
  s.reused += allocations * times;
  next_block_ += static_cast<BlockId>(allocations * times);
}

const PoolStats& CachingAllocator::Stats(PoolId pool) const {
  auto it = pools_.find(pool);
  assert(it != pools_.end());
  return it->second.stats;
}

std::vector<PoolId> CachingAllocator::Pools() const {
  std::vector<PoolId> out;
  for (const auto& [id, pool] : pools_) out.push_back(id);
  return out;
}

std::string FormatBytes(int64_t bytes) {
  if (bytes < 1024) return fmt::format("{} B", bytes);
  if (bytes < (int64_t{1} << 20)) return fmt::format("{:.1f} KiB", bytes / 1024.0);
  if (bytes < (int64_t{1} << 30)) return fmt::format("{:.1f} MiB", bytes / 1048576.0);
  return fmt::format("{:.2f} GiB", bytes / 1073741824.0);
}

}  // namespace airscope

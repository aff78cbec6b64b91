// CachingAllocator: a deterministic model of PyTorch's / torch_npu's caching
// allocator, for the simulated device's memory accounting.
//
// Contract: memory is reserved from the device in segments (2 MiB for small
// requests, requests rounded up to 2 MiB for large ones) and handed out as
// blocks (sizes rounded to 512 bytes), split from a segment's free space
// (best fit, lowest segment/offset first) and merged back with free
// neighbours on free. Freed blocks stay cached (reserved) in their pool for
// reuse. Pools: pool 0 is the default pool; CreatePool() makes a
// graph-private pool (like NPUGraph's mempool) that Begin/EndAllocateToPool
// routes allocations to during capture; a private pool's segments are
// returned only by ReleasePool() (the captured graph died). Reserving beyond
// the capacity first returns the default pool's unused cached segments, then
// fails with an out-of-memory error naming the sizes. Block ids are
// sequential, so everything is deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "core/status.h"

namespace airscope {

using PoolId = uint32_t;
using BlockId = uint64_t;
inline constexpr PoolId kDefaultPool = 0;

// Where a live block sits: its segment, offset in it and (rounded) size.
struct BlockPlace {
  PoolId pool = kDefaultPool;
  uint64_t segment = 0;
  int64_t offset = 0;
  int64_t size = 0;
};

struct PoolStats {
  std::string name;
  int64_t reserved = 0;        // bytes of segments the pool holds
  int64_t allocated = 0;       // bytes in live blocks
  int64_t peak_allocated = 0;  // high-water of allocated
  int64_t peak_reserved = 0;   // high-water of reserved
  int64_t segments = 0;
  int64_t live_blocks = 0;
  int64_t allocations = 0;  // Allocate() calls served
  int64_t reused = 0;       // ... of which from cached free space (no new segment)
};

class CachingAllocator {
 public:
  static constexpr int64_t kMinBlock = 512;
  static constexpr int64_t kSmallSize = int64_t{1} << 20;  // <= 1 MiB: small request
  static constexpr int64_t kSegment = int64_t{2} << 20;    // 2 MiB

  explicit CachingAllocator(int64_t capacity);

  int64_t capacity() const { return capacity_; }
  void set_capacity(int64_t capacity) { capacity_ = capacity; }
  int64_t total_reserved() const { return total_reserved_; }

  PoolId CreatePool(std::string name);
  // Routes Allocate(bytes) to `pool` until EndAllocateToPool(pool).
  Status BeginAllocateToPool(PoolId pool);
  Status EndAllocateToPool(PoolId pool);
  PoolId current_pool() const { return current_; }

  Result<BlockId> Allocate(int64_t bytes);  // to current_pool()
  Result<BlockId> Allocate(PoolId pool, int64_t bytes);
  void Free(BlockId block);  // unknown ids are ignored
  // Where `block` lives; nullopt once it is freed (or never was).
  std::optional<BlockPlace> Place(BlockId block) const;
  // Frees every block of a private pool and returns its segments.
  Status ReleasePool(PoolId pool);
  // Returns the default pool's fully free segments to the device.
  void EmptyCache();

  // What decides how `pool` serves requests: its segments with their pieces
  // (size, and the block or 0 when free; the free lists follow from them),
  // the next segment id, the bytes reserved device-wide. When a sequence of
  // Allocate/Free calls leaves this equal, running the same sequence again
  // gets the same answers (block ids aside) and leaves it equal again.
  struct Layout {
    uint64_t next_segment = 0;
    int64_t total_reserved = 0;
    std::vector<std::tuple<uint64_t, int64_t, int64_t, BlockId>> pieces;  // segment, offset, size, block
    bool operator==(const Layout&) const = default;
  };
  Layout PoolLayout(PoolId pool) const;
  // Counts `times` more runs of such a sequence, which made `allocations`
  // Allocate calls to `pool` (all served from cache, every block freed again),
  // without running them: the counters (allocations, reused, block ids) end
  // exactly where running them would leave them.
  void CountRepeats(PoolId pool, int64_t allocations, int64_t times);

  bool HasPool(PoolId pool) const { return pools_.count(pool) != 0; }
  const PoolStats& Stats(PoolId pool) const;
  std::vector<PoolId> Pools() const;  // ascending, default first

 private:
  struct Segment {
    PoolId pool;
    int64_t size;
    // offset -> (size, block id or 0 when free)
    std::map<int64_t, std::pair<int64_t, BlockId>> pieces;
  };
  struct Pool {
    PoolStats stats;
    // Free pieces: (size, segment, offset), best fit = lower_bound.
    std::set<std::tuple<int64_t, uint64_t, int64_t>> free;
    std::set<uint64_t> segments;
  };
  struct Live {
    uint64_t segment;
    int64_t offset;
  };

  static int64_t RoundSize(int64_t bytes);
  Status Reserve(Pool& pool, PoolId id, int64_t size, uint64_t* segment);
  void ReleaseSegment(uint64_t segment);

  int64_t capacity_;
  int64_t total_reserved_ = 0;
  PoolId current_ = kDefaultPool;
  PoolId next_pool_ = 1;
  uint64_t next_segment_ = 1;
  BlockId next_block_ = 1;
  std::map<PoolId, Pool> pools_;
  std::map<uint64_t, Segment> segments_;
  std::map<BlockId, Live> live_;
};

// "1.5 MiB", "512 B".
std::string FormatBytes(int64_t bytes);

}  // namespace airscope

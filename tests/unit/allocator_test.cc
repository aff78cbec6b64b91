#include "core/device/allocator.h"
#include "tests/unit/status_test_util.h"

#include <gtest/gtest.h>

#include <tuple>

namespace airscope {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(CachingAllocator, SmallRequestsShareASegmentAndAreReused) {
  CachingAllocator a(int64_t{1} << 30);
  ASSERT_OK_AND_ASSIGN(BlockId x, a.Allocate(kDefaultPool, 1000));
  ASSERT_OK_AND_ASSIGN(BlockId y, a.Allocate(kDefaultPool, 1000));
  const PoolStats& s = a.Stats(kDefaultPool);
  EXPECT_EQ(s.segments, 1);
  EXPECT_EQ(s.reserved, 2 * kMiB);
  EXPECT_EQ(s.allocated, 2048);  // rounded to 512
  a.Free(x);
  EXPECT_EQ(s.allocated, 1024);
  ASSERT_OK_AND_ASSIGN(BlockId z, a.Allocate(kDefaultPool, 900));
  EXPECT_EQ(s.segments, 1);
  EXPECT_EQ(s.reused, 2);  // y and z came from cached space
  EXPECT_EQ(s.peak_allocated, 2048);
  a.Free(y);
  a.Free(z);
  EXPECT_EQ(s.allocated, 0);
  EXPECT_EQ(s.reserved, 2 * kMiB);  // cached, not returned
  a.EmptyCache();
  EXPECT_EQ(a.Stats(kDefaultPool).reserved, 0);
}

TEST(CachingAllocator, FreedNeighboursMergeForLargerRequests) {
  CachingAllocator a(int64_t{1} << 30);
  ASSERT_OK_AND_ASSIGN(BlockId x, a.Allocate(kDefaultPool, 512 * 1024));
  ASSERT_OK_AND_ASSIGN(BlockId y, a.Allocate(kDefaultPool, 512 * 1024));
  a.Free(x);
  a.Free(y);
  // 1.5 MiB fits in the merged 2 MiB segment: no new segment.
  ASSERT_TRUE(a.Allocate(kDefaultPool, 1536 * 1024).ok());
  EXPECT_EQ(a.Stats(kDefaultPool).segments, 1);
}

TEST(CachingAllocator, PrivatePoolsAreRoutedAndHeldUntilReleased) {
  CachingAllocator a(int64_t{1} << 30);
  PoolId g = a.CreatePool("graph g");
  ASSERT_TRUE(a.BeginAllocateToPool(g).ok());
  ASSERT_OK_AND_ASSIGN(BlockId b, a.Allocate(3 * kMiB));
  EXPECT_EQ(a.Stats(g).reserved, 4 * kMiB);
  EXPECT_EQ(a.Stats(kDefaultPool).reserved, 0);
  EXPECT_FALSE(a.EndAllocateToPool(kDefaultPool).ok());
  ASSERT_TRUE(a.EndAllocateToPool(g).ok());
  a.Free(b);
  a.EmptyCache();  // a private pool keeps its segments
  EXPECT_EQ(a.Stats(g).reserved, 4 * kMiB);
  EXPECT_EQ(a.total_reserved(), 4 * kMiB);
  ASSERT_TRUE(a.ReleasePool(g).ok());
  EXPECT_FALSE(a.HasPool(g));
  EXPECT_EQ(a.total_reserved(), 0);
  EXPECT_FALSE(a.ReleasePool(kDefaultPool).ok());
}

TEST(CachingAllocator, OutOfMemorySaysWhatToDo) {
  CachingAllocator a(8 * kMiB);
  ASSERT_TRUE(a.Allocate(kDefaultPool, 6 * kMiB).ok());
  Result<BlockId> big = a.Allocate(kDefaultPool, 4 * kMiB);
  ASSERT_FALSE(big.ok());
  EXPECT_NE(big.status().message().find("out of memory: tried to reserve 4.0 MiB"), std::string::npos);
  EXPECT_NE(big.status().message().find("release captured graphs"), std::string::npos);
  EXPECT_EQ(a.total_reserved(), 6 * kMiB);
}

TEST(CachingAllocator, CachedSegmentsAreReturnedBeforeFailing) {
  CachingAllocator a(8 * kMiB);
  ASSERT_OK_AND_ASSIGN(BlockId x, a.Allocate(kDefaultPool, 6 * kMiB));
  a.Free(x);
  EXPECT_TRUE(a.Allocate(kDefaultPool, 8 * kMiB).ok());
}

// A request sequence like one eager iteration: mixed sizes, frees in another
// order than the allocations, everything freed at the end.
int64_t Iteration(CachingAllocator& a) {
  BlockId x = *a.Allocate(kDefaultPool, 700);
  BlockId y = *a.Allocate(kDefaultPool, 3 * kMiB);
  BlockId z = *a.Allocate(kDefaultPool, 100 * 1024);
  a.Free(x);
  BlockId w = *a.Allocate(kDefaultPool, 9 * kMiB);
  a.Free(z);
  a.Free(y);
  a.Free(w);
  return 4;
}

TEST(CachingAllocator, RepeatsCountedWithoutRunningThemEndAsRunningThem) {
  CachingAllocator ran(int64_t{1} << 30), counted(int64_t{1} << 30);
  for (int i = 0; i < 10; ++i) Iteration(ran);
  // Run until an iteration leaves the layout as it found it, then count the rest.
  int done = 0;
  int64_t allocations = 0;
  for (;;) {
    CachingAllocator::Layout before = counted.PoolLayout(kDefaultPool);
    allocations = Iteration(counted);
    ++done;
    if (counted.PoolLayout(kDefaultPool) == before) break;
  }
  EXPECT_GE(done, 2);  // the first iteration reserves segments
  EXPECT_LT(done, 10);
  counted.CountRepeats(kDefaultPool, allocations, 10 - done);
  const PoolStats& r = ran.Stats(kDefaultPool);
  const PoolStats& c = counted.Stats(kDefaultPool);
  EXPECT_EQ(std::tie(r.reserved, r.allocated, r.peak_allocated, r.peak_reserved, r.segments, r.live_blocks,
                     r.allocations, r.reused),
            std::tie(c.reserved, c.allocated, c.peak_allocated, c.peak_reserved, c.segments, c.live_blocks,
                     c.allocations, c.reused));
  EXPECT_TRUE(ran.PoolLayout(kDefaultPool) == counted.PoolLayout(kDefaultPool));
  // Block ids continue from the same place.
  EXPECT_EQ(*ran.Allocate(kDefaultPool, 512), *counted.Allocate(kDefaultPool, 512));
}

TEST(CachingAllocator, TheLayoutSeesNewSegmentsAndLiveBlocks) {
  CachingAllocator a(int64_t{1} << 30);
  CachingAllocator::Layout empty = a.PoolLayout(kDefaultPool);
  ASSERT_OK_AND_ASSIGN(BlockId x, a.Allocate(kDefaultPool, 1000));
  CachingAllocator::Layout one = a.PoolLayout(kDefaultPool);
  EXPECT_FALSE(one == empty);
  a.Free(x);
  CachingAllocator::Layout cached = a.PoolLayout(kDefaultPool);
  EXPECT_FALSE(cached == one);    // the block is gone
  EXPECT_FALSE(cached == empty);  // its segment stays cached
  a.Free(*a.Allocate(kDefaultPool, 2000));
  EXPECT_TRUE(a.PoolLayout(kDefaultPool) == cached);
}

}  // namespace
}  // namespace airscope

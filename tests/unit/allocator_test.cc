#include "core/device/allocator.h"

#include <gtest/gtest.h>

namespace airscope {
namespace {

constexpr int64_t kMiB = int64_t{1} << 20;

TEST(CachingAllocator, SmallRequestsShareASegmentAndAreReused) {
  CachingAllocator a(int64_t{1} << 30);
  BlockId x = *a.Allocate(kDefaultPool, 1000);
  BlockId y = *a.Allocate(kDefaultPool, 1000);
  const PoolStats& s = a.Stats(kDefaultPool);
  EXPECT_EQ(s.segments, 1);
  EXPECT_EQ(s.reserved, 2 * kMiB);
  EXPECT_EQ(s.allocated, 2048);  // rounded to 512
  a.Free(x);
  EXPECT_EQ(s.allocated, 1024);
  BlockId z = *a.Allocate(kDefaultPool, 900);
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
  BlockId x = *a.Allocate(kDefaultPool, 512 * 1024);
  BlockId y = *a.Allocate(kDefaultPool, 512 * 1024);
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
  BlockId b = *a.Allocate(3 * kMiB);
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
  BlockId x = *a.Allocate(kDefaultPool, 6 * kMiB);
  a.Free(x);
  EXPECT_TRUE(a.Allocate(kDefaultPool, 8 * kMiB).ok());
}

}  // namespace
}  // namespace airscope

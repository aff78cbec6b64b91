// The replaced global operator new of the scaling tests (allocation_counter.h).
// Each form forwards to malloc/free as the standard library's own do, and
// counts the bytes. The aligned forms are left to the library (they do not
// come through these), which only makes the count a little low.
#include "tests/scaling/allocation_counter.h"

#include <atomic>
#include <cstdlib>
#include <new>

namespace airscope::testing_alloc {
namespace {

// A global of this test binary: operator new has nowhere else to count.
std::atomic<uint64_t> g_allocated{0};

void* Allocate(std::size_t size) {
  g_allocated.fetch_add(size, std::memory_order_relaxed);
  return std::malloc(size == 0 ? 1 : size);
}

}  // namespace

uint64_t AllocatedBytes() { return g_allocated.load(std::memory_order_relaxed); }

}  // namespace airscope::testing_alloc

void* operator new(std::size_t size) {
  void* p = airscope::testing_alloc::Allocate(size);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](std::size_t size) { return ::operator new(size); }
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return airscope::testing_alloc::Allocate(size); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept {
  return airscope::testing_alloc::Allocate(size);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

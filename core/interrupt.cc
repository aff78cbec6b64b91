#include "core/interrupt.h"

#include <atomic>

namespace airscope {
namespace {

// Lock-free, so a signal handler may update it.
std::atomic<int> pending_interrupts{0};
static_assert(std::atomic<int>::is_always_lock_free);

}  // namespace

int RequestInterrupt() { return pending_interrupts.fetch_add(1, std::memory_order_relaxed) + 1; }
void ClearInterrupt() { pending_interrupts.store(0, std::memory_order_relaxed); }
bool InterruptRequested() { return pending_interrupts.load(std::memory_order_relaxed) > 0; }
Status InterruptedStatus() { return Status::Error("interrupted (Ctrl-C)"); }

}  // namespace airscope

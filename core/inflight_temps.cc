#include "core/inflight_temps.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <ctime>

#include <dirent.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

namespace airscope {
namespace {

// A slot's life: kFree -> kOpening (reserved; the temp is being made) ->
// kActive (it exists; path holds its name) -> kFree. Only the thread that
// reserved a slot writes its path and kind, before it publishes kActive.
enum State : int { kFree = 0, kOpening = 1, kActive = 2 };

struct Slot {
  std::atomic<int> state{kFree};
  TempKind kind = TempKind::kFile;
  char path[4096] = {};
};

// Process-wide because a signal handler must reach it (see the header).
Slot g_slots[kMaxInFlightTemps];
std::atomic<pid_t> g_owner{0};
std::atomic<bool> g_cleaning{false};
constexpr int kSignals[] = {SIGTERM, SIGHUP, SIGQUIT};

// The three signals blocked in this thread while a temp is made and
// registered: a handler on this thread then cannot run between the two.
class BlockSignals {
 public:
  BlockSignals() {
    sigset_t set;
    sigemptyset(&set);
    for (int s : kSignals) sigaddset(&set, s);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~BlockSignals() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  BlockSignals(const BlockSignals&) = delete;
  BlockSignals& operator=(const BlockSignals&) = delete;

 private:
  sigset_t old_{};
};

int Reserve() {
  for (int i = 0; i < kMaxInFlightTemps; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kOpening)) return i;
  }
  return -1;
}

// Publishes the made temp in slot `i` (or frees it when making failed).
void Publish(int i, const std::string& path, TempKind kind, bool made) {
  if (i < 0) return;
  Slot& slot = g_slots[i];
  if (!made || path.size() >= sizeof(slot.path)) {
    slot.state.store(kFree, std::memory_order_release);
    return;
  }
  std::memcpy(slot.path, path.c_str(), path.size() + 1);
  slot.kind = kind;
  slot.state.store(kActive, std::memory_order_release);
}

// linux_dirent64, as getdents64 fills the buffer.
struct DirEntry {
  uint64_t ino;
  int64_t off;
  unsigned short reclen;
  unsigned char type;
  char name[1];
};

// Removes everything inside the open directory `fd` (async-signal-safe:
// system calls only, a buffer on the stack). Entries are removed while the
// directory is read, so it is read again from the start until a pass finds
// nothing left; depth is bounded (a staging tree is two levels deep).
void RemoveContents(int fd, int depth) {
  alignas(8) char buffer[4096];
  for (int pass = 0; pass < 1000; ++pass) {
    if (::lseek(fd, 0, SEEK_SET) < 0) return;
    long n = ::getdents64(fd, buffer, sizeof(buffer));
    if (n <= 0) return;
    int removed = 0;
    for (long at = 0; at < n;) {
      const auto* entry = reinterpret_cast<const DirEntry*>(buffer + at);  // the kernel's layout
      at += entry->reclen;
      const char* name = buffer + (at - entry->reclen) + offsetof(DirEntry, name);
      if (name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'))) continue;
      if (::unlinkat(fd, name, 0) == 0) {
        ++removed;
        continue;
      }
      if ((errno == EISDIR || errno == EPERM) && depth < 16) {
        int sub = ::openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub >= 0) {
          RemoveContents(sub, depth + 1);
          ::close(sub);
        }
        if (::unlinkat(fd, name, AT_REMOVEDIR) == 0) ++removed;
      }
    }
    if (removed == 0) return;
  }
}

void Remove(const Slot& slot) {
  if (slot.kind == TempKind::kFile) {
    ::unlink(slot.path);
    return;
  }
  int fd = ::open(slot.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd >= 0) {
    RemoveContents(fd, 0);
    ::close(fd);
  }
  ::rmdir(slot.path);
}

void OnTerminatingSignal(int number) {
  int saved = errno;
  // Once: a second signal on another thread waits for the first handler,
  // which ends the process.
  if (g_cleaning.exchange(true)) {
    while (true) ::pause();
  }
  // Only the process that made the temps removes them (not a forked child).
  if (::getpid() == g_owner.load()) RemoveInFlightTemps();
  // The default action, so the exit status is the signal's: the signal is
  // blocked while its handler runs, so it is raised, then unblocked.
  struct sigaction fallback {};
  fallback.sa_handler = SIG_DFL;
  sigemptyset(&fallback.sa_mask);
  ::sigaction(number, &fallback, nullptr);
  ::raise(number);
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, number);
  ::pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
  errno = saved;  // not reached
}

}  // namespace

InFlightTemp& InFlightTemp::operator=(InFlightTemp&& other) noexcept {
  if (this != &other) {
    Forget();
    slot_ = other.slot_;
    other.slot_ = -1;
  }
  return *this;
}

void InFlightTemp::Forget() {
  if (slot_ < 0) return;
  g_slots[slot_].state.store(kFree, std::memory_order_release);
  slot_ = -1;
}

Result<int> CreateTempFile(std::string& path_template, InFlightTemp& temp) {
  temp.Forget();
  BlockSignals blocked;
  int slot = Reserve();
  int fd = ::mkostemp(path_template.data(), O_CLOEXEC);
  int err = errno;
  Publish(slot, path_template, TempKind::kFile, fd >= 0);
  if (fd < 0) return Status::Error(std::strerror(err));
  if (slot >= 0 && g_slots[slot].state.load() == kActive) temp.slot_ = slot;
  return fd;
}

Status CreateTempDir(std::string& path_template, InFlightTemp& temp) {
  temp.Forget();
  BlockSignals blocked;
  int slot = Reserve();
  bool made = ::mkdtemp(path_template.data()) != nullptr;
  int err = errno;
  Publish(slot, path_template, TempKind::kDirectory, made);
  if (!made) return Status::Error(std::strerror(err));
  if (slot >= 0 && g_slots[slot].state.load() == kActive) temp.slot_ = slot;
  return Status::Ok();
}

void RemoveInFlightTemps() {
  for (Slot& slot : g_slots) {
    // A temp being made on another thread: give it a moment to be published.
    for (int waited = 0; slot.state.load(std::memory_order_acquire) == kOpening && waited < 200; ++waited) {
      timespec pause_for{0, 5'000'000};
      ::nanosleep(&pause_for, nullptr);
    }
    if (slot.state.load(std::memory_order_acquire) == kActive) Remove(slot);
  }
}

void InstallTempCleanupOnSignals() {
  g_owner.store(::getpid());
  struct sigaction action {};
  action.sa_handler = OnTerminatingSignal;
  sigemptyset(&action.sa_mask);
  for (int s : kSignals) sigaddset(&action.sa_mask, s);  // one cleanup at a time on this thread
  action.sa_flags = 0;
  for (int s : kSignals) {
    // A signal ignored from the start stays ignored: `nohup airscope` must
    // outlive the terminal's SIGHUP, as it would without this handler.
    struct sigaction current {};
    if (::sigaction(s, nullptr, &current) == 0 && current.sa_handler == SIG_IGN) continue;
    ::sigaction(s, &action, nullptr);
  }
}

int InFlightTempCount() {
  int n = 0;
  for (const Slot& slot : g_slots) n += slot.state.load() == kActive;
  return n;
}

}  // namespace airscope

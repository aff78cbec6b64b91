#include "core/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "core/file_util.h"
#include "core/interrupt.h"

namespace airscope {
namespace {

// The child's answer on the pipe: one byte, 'O' (the bytes follow) or 'E'
// (an error message follows), then the payload up to end of file.
constexpr char kOk = 'O';
constexpr char kError = 'E';

[[noreturn]] void ChildMain(int fd, const std::function<Result<std::string>()>& work) {
  ::signal(SIGINT, SIG_IGN);  // the parent decides; it kills us if the user asks
  Result<std::string> result = work();
  const std::string what = "the result pipe";
  const char marker = result.ok() ? kOk : kError;
  std::string_view payload = result.ok() ? std::string_view(*result) : std::string_view(result.status().message());
  bool written = WriteAllTo(fd, std::string_view(&marker, 1), what).ok() && WriteAllTo(fd, payload, what).ok();
  ::_exit(written ? 0 : 1);
}

void KillAndReap(pid_t child) {
  ::kill(child, SIGKILL);
  while (::waitpid(child, nullptr, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

Result<std::string> RunInChildProcess(std::string_view what, const std::function<Result<std::string>()>& work) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return Status::Errorf("{}: cannot make a pipe: {}", what, std::strerror(errno));
  std::fflush(nullptr);  // nothing buffered is written twice
  pid_t child = ::fork();
  if (child < 0) {
    int err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return Status::Errorf("{}: cannot start a process: {}", what, std::strerror(err));
  }
  if (child == 0) {
    ::close(fds[0]);
    ChildMain(fds[1], work);
  }
  ::close(fds[1]);
  std::string received;
  char chunk[1 << 16];
  Status failure;
  while (true) {
    if (InterruptRequested()) {
      failure = InterruptedStatus();
      break;
    }
    pollfd p{fds[0], POLLIN, 0};
    int ready = ::poll(&p, 1, 100);  // wake up now and then to look at the interrupt flag
    if (ready < 0 && errno != EINTR) {
      failure = Status::Errorf("{}: cannot wait for it: {}", what, std::strerror(errno));
      break;
    }
    if (ready <= 0) continue;
    ssize_t n = ::read(fds[0], chunk, sizeof(chunk));
    if (n < 0) {
      if (errno == EINTR) continue;
      failure = Status::Errorf("{}: cannot read its result: {}", what, std::strerror(errno));
      break;
    }
    if (n == 0) break;  // the child is done
    received.append(chunk, static_cast<size_t>(n));
  }
  ::close(fds[0]);
  if (!failure.ok()) {
    KillAndReap(child);
    return failure;
  }
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return Status::Errorf("{}: lost its process: {}", what, std::strerror(errno));
  }
  if (WIFSIGNALED(status)) {
    int signal = WTERMSIG(status);
    return Status::Errorf("{}: its process died of signal {} ({}){}", what, signal, ::strsignal(signal),
                          signal == SIGKILL ? ", perhaps killed for memory" : "");
  }
  if (received.empty() || WEXITSTATUS(status) != 0) {
    return Status::Errorf("{}: its process ended (status {}) without a result", what, WEXITSTATUS(status));
  }
  bool ok = received[0] == kOk;
  received.erase(0, 1);
  if (!ok) return Status::Error(std::move(received));
  return received;
}

}  // namespace airscope

#include "core/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <optional>
#include <string_view>
#include <utility>

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
  while (::waitpid(child, nullptr, 0) < 0 && errno == EINTR) {}
}

// One running child: its pipe and what it has sent so far.
struct Running {
  size_t index = 0;
  pid_t pid = -1;
  int fd = -1;
  std::string received;
};

// Starts `work` in a child; on failure says why.
Result<Running> Start(size_t index, const ChildWork& work) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    return Status::Errorf("{}: cannot make a pipe: {}", work.what, std::strerror(errno));
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t parent = ::getpid();
  pid_t child = ::fork();
  if (child < 0) {
    int err = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return Status::Errorf("{}: cannot start a process: {}", work.what, std::strerror(err));
  }
  if (child == 0) {
    // A child outlives a parent that is killed (a test's timeout, kill -9):
    // a layout of minutes would run on, holding the parent's stdout open.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(1);  // the parent died before the line above
    ::close(fds[0]);
    ChildMain(fds[1], work.work);
  }
  ::close(fds[1]);
  Running running;
  running.index = index;
  running.pid = child;
  running.fd = fds[0];
  return running;
}

// The result of a child whose pipe reached end of file.
Result<std::string> Finish(Running& running, std::string_view what) {
  ::close(running.fd);
  int status = 0;
  while (::waitpid(running.pid, &status, 0) < 0) {
    if (errno != EINTR) return Status::Errorf("{}: lost its process: {}", what, std::strerror(errno));
  }
  if (WIFSIGNALED(status)) {
    int signal = WTERMSIG(status);
    return Status::Errorf("{}: its process died of signal {} ({}){}", what, signal, ::strsignal(signal),
                          signal == SIGKILL ? ", perhaps killed for memory" : "");
  }
  std::string& received = running.received;
  if (received.empty() || WEXITSTATUS(status) != 0) {
    return Status::Errorf("{}: its process ended (status {}) without a result", what, WEXITSTATUS(status));
  }
  bool ok = received[0] == kOk;
  received.erase(0, 1);
  if (!ok) return Status::Error(std::move(received));
  return std::move(received);
}

}  // namespace

std::vector<Result<std::string>> RunInChildProcesses(const std::vector<ChildWork>& works, size_t jobs) {
  std::vector<Result<std::string>> results(works.size(), Result<std::string>(Status::Error("not run")));
  std::vector<Running> running;
  size_t next = 0;
  Status failure;  // an interrupt or a failed wait: ends every running child
  char chunk[1 << 16];
  while ((next < works.size() || !running.empty()) && failure.ok()) {
    while (next < works.size() && running.size() < std::max<size_t>(jobs, 1)) {
      Result<Running> started = Start(next, works[next]);
      if (started.ok()) {
        running.push_back(std::move(*started));
      } else {
        results[next] = started.status();
      }
      ++next;
    }
    if (running.empty()) break;
    if (InterruptRequested()) {
      failure = InterruptedStatus();
      break;
    }
    std::vector<pollfd> polls;
    for (const Running& r : running) polls.push_back({r.fd, POLLIN, 0});
    int ready = ::poll(polls.data(), polls.size(), 100);  // wake up now and then to look at the interrupt flag
    if (ready < 0 && errno != EINTR) {
      failure = Status::Errorf("cannot wait for child processes: {}", std::strerror(errno));
      break;
    }
    if (ready <= 0) continue;
    for (size_t i = running.size(); i-- > 0;) {
      if (!(polls[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      Running& r = running[i];
      ssize_t n = ::read(r.fd, chunk, sizeof(chunk));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        results[r.index] = Status::Errorf("{}: cannot read its result: {}", works[r.index].what, std::strerror(errno));
        ::close(r.fd);
        KillAndReap(r.pid);
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      } else if (n == 0) {  // the child is done
        results[r.index] = Finish(r, works[r.index].what);
        running.erase(running.begin() + static_cast<std::ptrdiff_t>(i));
      } else {
        r.received.append(chunk, static_cast<size_t>(n));
      }
    }
  }
  for (Running& r : running) {
    ::close(r.fd);
    KillAndReap(r.pid);
    results[r.index] = failure;
  }
  for (size_t i = next; i < works.size(); ++i) results[i] = failure.ok() ? Status::Error("not run") : failure;
  return results;
}

Result<std::string> RunInChildProcess(std::string_view what, const std::function<Result<std::string>()>& work) {
  std::vector<Result<std::string>> results = RunInChildProcesses({ChildWork{std::string(what), work}}, 1);
  return std::move(results.front());
}

namespace {

// A batch's results in one string: per work, 'v' (a value) or 'e' (an
// error's message), its length in decimal, '\n', then the bytes.
void AppendFramed(std::string& out, const Result<std::string>& result) {
  const std::string& bytes = result.ok() ? *result : result.status().message();
  out += result.ok() ? 'v' : 'e';
  out += std::to_string(bytes.size());
  out += '\n';
  out += bytes;
}

// Splits what AppendFramed wrote back into `count` results; nullopt when the
// text is not that (it came from elsewhere).
std::optional<std::vector<Result<std::string>>> Unframe(std::string_view text, size_t count) {
  std::vector<Result<std::string>> results;
  while (results.size() < count) {
    if (text.empty() || (text[0] != 'v' && text[0] != 'e')) return std::nullopt;
    bool ok = text[0] == 'v';
    size_t newline = text.find('\n');
    size_t length = 0;
    if (newline == std::string_view::npos) return std::nullopt;
    auto [end, ec] = std::from_chars(text.data() + 1, text.data() + newline, length);
    if (ec != std::errc() || end != text.data() + newline || text.size() - newline - 1 < length) return std::nullopt;
    std::string bytes(text.substr(newline + 1, length));
    results.push_back(ok ? Result<std::string>(std::move(bytes)) : Result<std::string>(Status::Error(bytes)));
    text.remove_prefix(newline + 1 + length);
  }
  if (!text.empty()) return std::nullopt;
  return results;
}

}  // namespace

std::vector<Result<std::string>> RunInChildProcessBatches(const std::vector<ChildWork>& works, size_t jobs,
                                                          size_t batch) {
  if (batch <= 1 || works.size() <= jobs) return RunInChildProcesses(works, jobs);
  // Batches no bigger than `batch`, and at least `jobs` of them so that every child slot works.
  size_t size = std::min(batch, (works.size() + jobs - 1) / jobs);
  std::vector<ChildWork> batches;
  std::vector<std::pair<size_t, size_t>> ranges;
  for (size_t begin = 0; begin < works.size(); begin += size) {
    size_t end = std::min(works.size(), begin + size);
    ranges.emplace_back(begin, end);
    batches.push_back({works[begin].what, [&works, begin, end]() -> Result<std::string> {
                         std::string framed;
                         for (size_t i = begin; i < end; ++i) AppendFramed(framed, works[i].work());
                         return framed;
                       }});
  }
  std::vector<Result<std::string>> framed = RunInChildProcesses(batches, jobs);
  std::vector<Result<std::string>> results(works.size(), Result<std::string>(Status::Error("not run")));
  for (size_t b = 0; b < batches.size(); ++b) {
    auto [begin, end] = ranges[b];
    std::optional<std::vector<Result<std::string>>> split;
    if (framed[b].ok()) split = Unframe(*framed[b], end - begin);
    if (!split) {
      if (InterruptRequested()) {  // stopped by Ctrl-C: nothing runs again
        for (size_t i = begin; i < end; ++i) results[i] = framed[b].status();
        continue;
      }
      // The child died (or wrote something else): each work alone, so only the bad one fails.
      std::vector<ChildWork> alone(works.begin() + static_cast<std::ptrdiff_t>(begin),
                                   works.begin() + static_cast<std::ptrdiff_t>(end));
      split = RunInChildProcesses(alone, jobs);
    }
    for (size_t i = begin; i < end; ++i) results[i] = std::move((*split)[i - begin]);
  }
  return results;
}

}  // namespace airscope

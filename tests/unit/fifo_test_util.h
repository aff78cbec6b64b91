// Threads for tests of FIFOs that can never hang the test, whatever the code
// under test does.
//
// FifoUnblocker: for tests of readers that must never block on a FIFO.
// It opens the write end of each FIFO it watches whenever a reader has it
// open (after `delay_ms`, so a reader that gives up at once never meets it)
// and closes it again, which ends a blocked open() or read(): a test of code
// that blocked fails on what it checks instead of hanging. opened() counts
// those opens: each one is a reader that had the FIFO open.
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace airscope::testing_fifo {

class FifoUnblocker {
 public:
  FifoUnblocker(std::vector<std::string> fifos, int delay_ms)
      : thread_([this, fifos = std::move(fifos), delay_ms] {
          for (int waited = 0; !stop_; waited += 10) {
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
            if (waited < delay_ms) continue;
            for (const std::string& fifo : fifos) {
              int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);  // ENXIO while nobody reads
              if (fd >= 0) {
                ++opened_;
                ::close(fd);
              }
            }
          }
        }) {}
  ~FifoUnblocker() {
    stop_ = true;
    thread_.join();
  }
  FifoUnblocker(const FifoUnblocker&) = delete;
  FifoUnblocker& operator=(const FifoUnblocker&) = delete;
  int opened() const { return opened_; }

 private:
  std::atomic<bool> stop_{false};
  std::atomic<int> opened_{0};
  std::thread thread_;  // last: it starts once the flags above exist
};

// FifoWriter: writes `contents` into the FIFO `path` once a reader has it
// open, on a thread of its own. A writer that opened it blocking (fopen "w")
// waited for ever when the reader under test gave up before it came; this one
// tries every millisecond for `patience_ms`, then gives up, and a reader that
// leaves early ends the writing (EPIPE: the thread blocks SIGPIPE).
class FifoWriter {
 public:
  FifoWriter(std::string path, std::string contents, int patience_ms = 30000)
      : thread_([this, path = std::move(path), contents = std::move(contents), patience_ms] {
          sigset_t pipe_signal;
          sigemptyset(&pipe_signal);
          sigaddset(&pipe_signal, SIGPIPE);
          pthread_sigmask(SIG_BLOCK, &pipe_signal, nullptr);
          int fd = -1;
          for (int waited = 0; fd < 0 && waited < patience_ms; ++waited) {
            fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);  // ENXIO while nobody reads
            if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
          }
          if (fd < 0) return;
          ::fcntl(fd, F_SETFL, 0);  // blocking: the reader sets the pace
          size_t done = 0;
          while (done < contents.size()) {
            ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
            if (n <= 0) break;
            done += static_cast<size_t>(n);
          }
          ::close(fd);
          wrote_all_ = done == contents.size();
        }) {}
  ~FifoWriter() { Finish(); }
  FifoWriter(const FifoWriter&) = delete;
  FifoWriter& operator=(const FifoWriter&) = delete;
  // Joins the thread; whether every byte went into the FIFO.
  bool Finish() {
    if (thread_.joinable()) thread_.join();
    return wrote_all_;
  }

 private:
  std::atomic<bool> wrote_all_{false};
  std::thread thread_;  // last: it starts once the flag above exists
};

// FifoReaderProcess: reads the FIFO `path` to its end in a child process and
// hands the bytes back (Finish). A process, not a thread, for writers that fork:
// a drawing's layout runs in a child, and a child forked while a reader thread
// held a lock (AddressSanitizer's allocator's, as it started) inherits the
// lock held and waits for ever, which is how the write contract test hung
// under load. The child opens the FIFO at once (O_NONBLOCK, so a writer finds
// a reader), reads until a writer's end of file, and gives up after
// `patience_ms` without one; it dies with the test.
class FifoReaderProcess {
 public:
  explicit FifoReaderProcess(const std::string& path, int patience_ms = 60000) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return;
    pid_ = ::fork();
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      ::close(fds[0]);
      int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
      std::string got;
      auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(patience_ms);
      // poll reports nothing until a writer has come: then data, or its end of file.
      while (fd >= 0 && std::chrono::steady_clock::now() < deadline) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 100) <= 0) continue;
        char chunk[1 << 16];
        ssize_t n = ::read(fd, chunk, sizeof(chunk));
        if (n > 0) {
          got.append(chunk, static_cast<size_t>(n));
        } else if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
          break;
        }
      }
      for (size_t done = 0; done < got.size();) {
        ssize_t n = ::write(fds[1], got.data() + done, got.size() - done);
        if (n <= 0) ::_exit(1);
        done += static_cast<size_t>(n);
      }
      ::_exit(0);
    }
    ::close(fds[1]);
    if (pid_ < 0) {
      ::close(fds[0]);
      return;
    }
    result_ = fds[0];
  }
  ~FifoReaderProcess() {
    if (pid_ > 0) {
      ::kill(pid_, SIGKILL);
      ::waitpid(pid_, nullptr, 0);
    }
    if (result_ >= 0) ::close(result_);
  }
  FifoReaderProcess(const FifoReaderProcess&) = delete;
  FifoReaderProcess& operator=(const FifoReaderProcess&) = delete;

  // What the child read (it waits for the child's end of file or give-up).
  std::string Finish() {
    std::string got;
    char chunk[1 << 16];
    for (ssize_t n; result_ >= 0 && (n = ::read(result_, chunk, sizeof(chunk))) != 0;) {
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) break;
      got.append(chunk, static_cast<size_t>(n));
    }
    if (pid_ > 0) ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
    return got;
  }

 private:
  pid_t pid_ = -1;
  int result_ = -1;
};

}  // namespace airscope::testing_fifo

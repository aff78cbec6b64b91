// FifoUnblocker: for tests of readers that must never block on a FIFO.
// It opens the write end of each FIFO it watches whenever a reader has it
// open (after `delay_ms`, so a reader that gives up at once never meets it)
// and closes it again, which ends a blocked open() or read(): a test of code
// that blocked fails on what it checks instead of hanging. opened() counts
// those opens: each one is a reader that had the FIFO open.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
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

}  // namespace airscope::testing_fifo

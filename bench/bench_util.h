// bench_util: what every bench prints and measures the same way, so its
// figures say where they came from and what they compare with.
//
// Contract (header-only, no global state, nothing of airscope's):
//   PrintMachine()           prints one line, first in every bench's output:
//                            "machine: <cpu model>, <n> cores, <kernel>
//                            <release>, <compiler> <version>, <build type>".
//                            MachineLine() is that text without the newline.
//   SecondsSince(start)      wall seconds from a steady_clock time point to now.
//   Median(values)           the middle value (the upper of an even count).
//   MedianSeconds(runs, fn)  calls fn() `runs` times (at least once) and
//                            returns the median wall time in seconds: one
//                            noisy run on a shared machine does not move it.
//   CountLines(data)         '\n' in data, by memchr: the least work any pass
//                            over these bytes can do.
//   ScanFloorSeconds(data, runs)  median time of CountLines(data).
//   ReadFloorSeconds(path, runs)  median time to read the file with read(2)
//                            (1 MiB chunks) and CountLines over it: the floor
//                            for loading that file; nullopt if it cannot be read.
//   VsFloor(seconds, floor)  "12.3x floor": a figure relative to the floor
//                            measured in the same run on the same machine.
//   ResidentBytes()          this process's resident set now (/proc/self/statm).
//   RunAirscope(binary, commands)  runs `binary -c COMMANDS`, stdout to
//                            /dev/null: wall seconds, the child's peak RSS
//                            (wait4's ru_maxrss) and whether it exited 0.
//                            Linux starts a child's peak RSS from its
//                            parent's, so measure before the bench grows,
//                            or with PeakRssOf.
//   PeakRssOf(binary, commands)  the peak RSS of `binary -c COMMANDS` as
//                            its own process saw it (VmHWM, read by a
//                            `shell` command run last): bytes, 0 if unread.
//                            Right however big the bench has grown.
// The build type comes from AIRSCOPE_BENCH_BUILD_TYPE, which
// bench/CMakeLists.txt defines from CMAKE_BUILD_TYPE.
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include <fmt/format.h>

#ifndef AIRSCOPE_BENCH_BUILD_TYPE
#define AIRSCOPE_BENCH_BUILD_TYPE "unknown build type"
#endif

namespace airscope::bench {

inline std::string CpuModel() {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("model name", 0) != 0) continue;
    size_t colon = line.find(':');
    if (colon == std::string::npos) break;
    size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string("unknown cpu") : line.substr(start);
  }
  return "unknown cpu";
}

inline std::string Compiler() {
#if defined(__clang__)
  return fmt::format("clang {}", __clang_version__);
#elif defined(__GNUC__)
  return fmt::format("gcc {}", __VERSION__);
#else
  return "unknown compiler";
#endif
}

inline std::string MachineLine() {
  utsname u{};
  std::string kernel = uname(&u) == 0 ? fmt::format("{} {}", u.sysname, u.release) : std::string("unknown kernel");
  return fmt::format("machine: {}, {} cores, {}, {}, {}", CpuModel(), std::thread::hardware_concurrency(), kernel,
                     Compiler(), AIRSCOPE_BENCH_BUILD_TYPE);
}

inline void PrintMachine() {
  fmt::print("{}\n", MachineLine());
  std::fflush(stdout);  // before any child process (startup_bench) writes
}

inline double SecondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The middle value (the upper one of an even count); `values` is not empty.
inline double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

template <class Fn>
double MedianSeconds(int runs, Fn&& fn) {
  std::vector<double> seconds;
  for (int i = 0; i < std::max(runs, 1); ++i) {
    auto start = std::chrono::steady_clock::now();
    fn();
    seconds.push_back(SecondsSince(start));
  }
  return Median(std::move(seconds));
}

inline size_t CountLines(std::string_view data) {
  size_t lines = 0;
  const char* p = data.data();
  const char* end = p + data.size();
  while (p < end) {
    const void* nl = std::memchr(p, '\n', static_cast<size_t>(end - p));
    if (!nl) break;
    ++lines;
    p = static_cast<const char*>(nl) + 1;
  }
  return lines;
}

inline double ScanFloorSeconds(std::string_view data, int runs) {
  volatile size_t sink = 0;  // keeps the count from being optimised away
  return MedianSeconds(runs, [&] { sink = sink + CountLines(data); });
}

inline std::optional<double> ReadFloorSeconds(const std::string& path, int runs) {
  bool ok = true;
  volatile size_t sink = 0;
  // 1 MiB chunks into one buffer: a whole-file buffer would add a page fault
  // per 4 KiB to the floor, which no chunked loader pays.
  std::string chunk(size_t{1} << 20, '\0');
  double seconds = MedianSeconds(runs, [&] {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      ok = false;
      return;
    }
    size_t lines = 0;
    for (;;) {
      ssize_t n = ::read(fd, chunk.data(), chunk.size());
      if (n < 0) ok = false;
      if (n <= 0) break;
      lines += CountLines(std::string_view(chunk.data(), static_cast<size_t>(n)));
    }
    ::close(fd);
    sink = sink + lines;
  });
  if (!ok) return std::nullopt;
  return seconds;
}

inline std::string VsFloor(double seconds, double floor) {
  if (floor <= 0) return "n/a";
  return fmt::format("{:.1f}x floor", seconds / floor);
}

inline size_t ResidentBytes() {
  std::FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return n == 2 ? resident * static_cast<size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

struct ChildRun {
  double seconds = 0;
  double peak_rss_bytes = 0;
  bool ok = false;
};

inline ChildRun RunAirscope(const std::string& binary, const std::string& commands) {
  ChildRun run;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  std::vector<char*> child_argv = {const_cast<char*>(binary.c_str()), const_cast<char*>("-c"),
                                   const_cast<char*>(commands.c_str()), nullptr};
  auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  int spawned = posix_spawn(&pid, binary.c_str(), &actions, nullptr, child_argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  int status = 0;
  rusage usage{};
  if (spawned != 0 || wait4(pid, &status, 0, &usage) < 0) return run;
  run.seconds = SecondsSince(start);
  run.peak_rss_bytes = static_cast<double>(usage.ru_maxrss) * 1024.0;
  run.ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return run;
}

inline double PeakRssOf(const std::string& binary, const std::string& commands) {
  std::string file = fmt::format("/tmp/airscope_bench_hwm_{}.txt", getpid());
  ChildRun run = RunAirscope(binary, fmt::format("{}; shell grep VmHWM /proc/$PPID/status > {}", commands, file));
  std::ifstream in(file);
  std::string label;
  double kilobytes = 0;
  in >> label >> kilobytes;
  std::remove(file.c_str());
  return run.ok && label == "VmHWM:" ? kilobytes * 1024.0 : 0.0;
}

}  // namespace airscope::bench

// Simulator speed: replaying a 10,000-task graph 1,000 times (target: under
// 1 s, i.e. >= 10 million tasks/s) with the trace level off, plus eager and a
// full-trace replay for comparison. Prints a plain table.
#include <chrono>
#include <cstdio>

#include "core/device/simulator.h"

using namespace airscope;

namespace {

// A chain of small kernels on one stream.
TaskGraph Build(uint32_t n) {
  TaskGraph g;
  g.streams = {""};
  for (uint32_t i = 0; i < n; ++i) {
    DeviceTask t;
    t.id = i;
    t.node = "k";
    t.op = "aten.add.Tensor";
    t.cost = {1e6, 1e6, 1e6};
    t.cost_known = true;
    if (i > 0) t.deps.push_back(i - 1);
    g.tasks.push_back(t);
  }
  return g;
}

double Seconds(std::chrono::steady_clock::time_point a) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
}

}  // namespace

int main() {
  const uint32_t kTasks = 10000;
  const int64_t kIters = 1000;
  TaskGraph g = Build(kTasks);
  SimDevice dev(*DevicePreset("ascend-910b"));
  uint32_t id = *dev.Capture(g, "bench", {{"x", 1 << 20}}, CaptureOptions{});
  std::printf("%-34s %10s %12s %14s\n", "run", "tasks", "seconds", "tasks/s");
  auto row = [&](const char* name, int64_t iters, TraceLevel level, bool eager) {
    RunOptions o;
    o.iterations = iters;
    o.trace = level;
    auto t0 = std::chrono::steady_clock::now();
    RunResult r = eager ? *dev.Eager(g, "bench", o) : *dev.Replay(id, o);
    double s = Seconds(t0);
    std::printf("%-34s %10lld %12.3f %14.3g\n", name, static_cast<long long>(r.tasks), s,
                static_cast<double>(r.tasks) / s);
  };
  row("replay 10k tasks x1000 (no trace)", kIters, TraceLevel::kNone, false);
  row("eager 10k tasks x100 (no trace)", 100, TraceLevel::kNone, true);
  row("replay 10k tasks x10 (full trace)", 10, TraceLevel::kFull, false);
  return 0;
}

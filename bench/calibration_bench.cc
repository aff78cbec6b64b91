// Calibration: NVIDIA's "Getting Started with CUDA Graphs" experiment (Alan
// Gray, NVIDIA developer blog, 2019) on the simulated device: 20 kernels of
// ~2.9 us each, 1000 iterations, three ways:
//   1. synchronize after each kernel           published ~9.6 us/kernel
//   2. back to back on a stream, sync per step  published ~3.8 us/kernel
//   3. the 20 kernels as one graph per step      published ~3.4 us/kernel
// The kernels are raw launches (no framework dispatch), as in the blog's C++.
// Every time comes from the a100 preset; nothing here is tuned per case.
#include <cmath>
#include <cstdio>

#include "bench/bench_util.h"
#include "core/device/simulator.h"

using namespace airscope;

namespace {

constexpr int kKernels = 20;
constexpr int kSteps = 1000;

// A kernel of ~2.9 us on this spec: memory bound with the bytes that take 2.9 us.
TaskGraph Kernels(const DeviceSpec& spec, int n) {
  TaskGraph g;
  g.streams = {""};
  for (int i = 0; i < n; ++i) {
    DeviceTask t;
    t.id = static_cast<uint32_t>(i);
    t.node = "shortKernel";
    t.op = "shortKernel";
    double bytes = 2.9e-6 * spec.mem_bandwidth;
    t.cost = {0, bytes / 2, bytes / 2};
    t.cost_known = true;
    if (i > 0) t.deps.push_back(static_cast<uint32_t>(i - 1));
    g.tasks.push_back(t);
  }
  return g;
}

}  // namespace

int main() {
  bench::PrintMachine();
  DeviceSpec spec = *DevicePreset("a100");
  RunOptions raw;
  raw.framework_dispatch = false;
  raw.trace = TraceLevel::kNone;

  // 1. One kernel per iteration, synchronize after each.
  SimDevice d1(spec);
  RunOptions o1 = raw;
  o1.iterations = kKernels * kSteps;
  RunResult r1 = *d1.Eager(Kernels(spec, 1), "k", o1);
  double sync_each = static_cast<double>(r1.wall_ns) / (kKernels * kSteps) / 1e3;

  // 2. 20 kernels back to back, synchronize per step.
  SimDevice d2(spec);
  RunOptions o2 = raw;
  o2.iterations = kSteps;
  RunResult r2 = *d2.Eager(Kernels(spec, kKernels), "k", o2);
  double stream = static_cast<double>(r2.wall_ns) / (kKernels * kSteps) / 1e3;

  // 3. The same 20 kernels captured once, replayed per step (no inputs to copy).
  SimDevice d3(spec);
  uint32_t id = *d3.Capture(Kernels(spec, kKernels), "k", {}, CaptureOptions{});
  RunOptions o3 = raw;
  o3.iterations = kSteps;
  RunResult r3 = *d3.Replay(id, o3);
  double graph = static_cast<double>(r3.wall_ns) / (kKernels * kSteps) / 1e3;

  struct Row {
    const char* name;
    double published, simulated;
  } rows[] = {{"sync after each kernel", 9.6, sync_each},
              {"back to back on a stream", 3.8, stream},
              {"CUDA graph per step", 3.4, graph}};
  std::printf("CUDA-graphs blog experiment (20 kernels x 1000 steps), preset %s\n", spec.name.c_str());
  std::printf("%-28s %16s %16s %8s\n", "mode", "published us/k", "simulated us/k", "error");
  bool ok = true;
  for (const Row& r : rows) {
    double err = (r.simulated - r.published) / r.published * 100;
    ok = ok && std::fabs(err) <= 10;
    std::printf("%-28s %16.2f %16.3f %7.1f%%\n", r.name, r.published, r.simulated, err);
  }
  std::printf("%s\n", ok ? "all within 10%" : "OUT OF TOLERANCE");
  return ok ? 0 : 1;
}

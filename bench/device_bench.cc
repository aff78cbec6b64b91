// Simulator speed on a 10,000-task chain of small kernels: replay and eager,
// each with no trace and with the trace level the repl uses (so `replay N`
// in the repl costs what the row says), at 100 to 10,000 iterations. Targets:
// replay >= 1e8 tasks/s and eager >= 2e7 tasks/s, whatever N. The floor is
// one max/add pass over the tasks' durations per iteration: the least a
// simulation of a dependency chain can do. Also times building the trace a
// `timeline` after the run asks for.
// AclGraph calls (core/runtime) as `call` makes them in reduce-overhead mode:
// one replay per call with the runtime's bookkeeping; target >= 2e7 tasks/s.
//   device_bench [all|eager|replay|runtime]   (a subset, e.g. for perf record)
#include <cstdint>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "core/device/simulator.h"
#include "core/ops/shape_inference.h"
#include "core/runtime/acl_graph.h"

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

// The trace level `eager N` / `replay N` run with in the repl.
TraceLevel ReplLevel(int64_t) { return TraceLevel::kFull; }

// The same chain as an FX graph: x + 1 + 1 ... (n adds), lowered by the runtime.
std::shared_ptr<const Graph> BuildFx(uint32_t n) {
  auto g = std::make_shared<Graph>();
  Node* prev = *g->AppendNamed({OpKind::kPlaceholder, "arg0_1", {}, {}, "arg0_1"});
  NodeMeta meta;
  meta.tensors.push_back(TensorMeta{DType::kFloat32, {Dim(256), Dim(1024)}, {}, "npu:0"});
  prev->set_meta(meta);
  for (uint32_t i = 0; i < n; ++i) {
    prev = g->Append(
        {OpKind::kCallFunction, "torch.ops.aten.add.Tensor", {Argument::NodeRef(prev), Argument::Int(1)}, {}, "add"});
  }
  g->Append({OpKind::kOutput, "output", {Argument::Tuple({Argument::NodeRef(prev)})}, {}, "output"});
  InferShapes(*g, OpRegistry::Builtin());
  return g;
}

}  // namespace

int main(int argc, char** argv) {
  std::string only = argc > 1 ? argv[1] : "all";
  bench::PrintMachine();
  const uint32_t kTasks = 10000;
  TaskGraph g = Build(kTasks);
  SimDevice dev(*DevicePreset("ascend-910b"));
  uint32_t id = *dev.Capture(g, "bench", {{"x", 1 << 20}}, CaptureOptions{});
  fmt::print("{:<40} {:>10} {:>10} {:>12} {:>12}\n", "run (10k-task chain)", "tasks", "seconds", "tasks/s", "vs floor");

  // Floor: end[i] = max(end[i-1], ready) + dur[i], once per task per iteration.
  std::vector<int64_t> dur(kTasks, 1000);
  int64_t floor_iters = 1000;
  volatile int64_t sink = 0;
  double floor_s = bench::MedianSeconds(3, [&] {
    int64_t end = 0;
    for (int64_t it = 0; it < floor_iters; ++it) {
      for (uint32_t i = 0; i < kTasks; ++i) end = std::max(end, static_cast<int64_t>(i)) + dur[i];
    }
    sink = sink + end;
  });
  double floor_per_task = floor_s / static_cast<double>(kTasks * floor_iters);
  fmt::print("{:<40} {:>10} {:>10.3f} {:>12.3g} {:>12}\n", "floor: max/add pass over the chain x1000",
             kTasks * floor_iters, floor_s, 1 / floor_per_task, "1.0x floor");

  auto row = [&](bool eager, int64_t iters, TraceLevel level, const char* note) {
    RunOptions o;
    o.iterations = iters;
    o.trace = level;
    int64_t tasks = 0;
    double s = bench::MedianSeconds(iters * kTasks >= 10000000 ? 1 : 3, [&] {
      RunResult r = eager ? *dev.Eager(g, "bench", o) : *dev.Replay(id, o);
      tasks = r.tasks;
    });
    std::string name = fmt::format("{} x{} ({})", eager ? "eager" : "replay", iters, note);
    fmt::print("{:<40} {:>10} {:>10.3f} {:>12.3g} {:>12}\n", name, tasks, s, static_cast<double>(tasks) / s,
               bench::VsFloor(s / static_cast<double>(tasks), floor_per_task));
  };
  if (only == "all" || only == "replay") {
    row(false, 1000, TraceLevel::kNone, "no trace");
    for (int64_t n : {100, 1000, 10000}) row(false, n, ReplLevel(n), "as the repl");
  }
  if (only == "all" || only == "runtime") {
    // `call` in reduce-overhead mode: per call the graph key, process_input's
    // copy, one replay as the repl traces it, the outputs, and the
    // bookkeeping that lets a failed call leave everything as it was.
    std::shared_ptr<const Graph> fx = BuildFx(kTasks);
    SimDevice rdev(*DevicePreset("ascend-910b"));
    DeviceBuffers buffers;
    AclGraph graph("graph_1", fx, AnalyzeFxGraph(*fx, {}, OpRegistry::Builtin()), AclGraphConfig{});
    uint32_t x = *buffers.NewStorage(rdev.allocator(), kDefaultPool, 256 * 1024 * 4, "x");
    Handle h;
    h.name = "x";
    h.storage = x;
    (void)buffers.Add(h);
    std::vector<CallArg> args =
        *BindCallArgs(graph.info(), {fx->Placeholders()[0]->tensor() ? *fx->Placeholders()[0]->tensor() : TensorMeta{}},
                      {x}, buffers);
    bool warned = false;
    auto call = [&] {
      CallEnv env{rdev,
                  buffers,
                  OpRegistry::Builtin(),
                  buffers.NextCall(),
                  false,
                  &warned,
                  StreamCoreLimits{rdev.spec().aicore_num, rdev.spec().vectorcore_num}};
      Result<CallReport> r = graph.Call(args, env);
      if (!r.ok()) std::abort();
      buffers.EndCall(rdev.allocator(), env.call);
      return r->run.tasks;
    };
    (void)call();  // the capture
    for (int64_t calls : {100, 1000}) {
      int64_t tasks = 0;
      double sec = bench::MedianSeconds(3, [&] {
        tasks = 0;
        for (int64_t i = 0; i < calls; ++i) tasks += call();
      });
      std::string name = fmt::format("AclGraph call x{} (hit, replay x1)", calls);
      fmt::print("{:<40} {:>10} {:>10.3f} {:>12.3g} {:>12}\n", name, tasks, sec, static_cast<double>(tasks) / sec,
                 bench::VsFloor(sec / static_cast<double>(tasks), floor_per_task));
    }
  }
  if (only == "all" || only == "eager") {
    row(true, 100, TraceLevel::kNone, "no trace");
    for (int64_t n : {10, 100, 1000}) row(true, n, ReplLevel(n), "as the repl");
  }
  if (only == "all") {
    // What `timeline` after a run costs: the trace is built on demand.
    for (bool eager : {false, true}) {
      RunOptions o;
      o.iterations = 1000;
      o.trace = ReplLevel(1000);
      (void)*(eager ? dev.Eager(g, "bench", o) : dev.Replay(id, o));
      size_t slices = 0;
      double s = bench::MedianSeconds(1, [&] { slices = dev.last_trace().slices.size(); });
      fmt::print("{:<40} {:>10} {:>10.3f}   slices of \"{}\"\n",
                 fmt::format("trace of {} x1000 for timeline", eager ? "eager" : "replay"), slices, s,
                 dev.last_trace().title);
    }
  }
  return 0;
}

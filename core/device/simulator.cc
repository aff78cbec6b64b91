#include "core/device/simulator.h"

#include <algorithm>
#include <limits>
#include <map>
#include <memory>

#include <fmt/format.h>

#include "core/device/sim_engine.h"
#include "core/interrupt.h"

namespace airscope {

std::string_view SliceCategoryName(SliceCategory category) {
  switch (category) {
    case SliceCategory::kKernel: return "kernel";
    case SliceCategory::kMemcpy: return "memcpy";
    case SliceCategory::kLaunch: return "launch";
    case SliceCategory::kDispatch: return "dispatch";
    case SliceCategory::kGraphLaunch: return "graph_launch";
    case SliceCategory::kEvent: return "event";
    case SliceCategory::kWait: return "wait";
    case SliceCategory::kSync: return "sync";
    case SliceCategory::kCapture: return "capture";
    case SliceCategory::kError: return "error";
  }
  return "?";
}

std::string StreamDisplayName(const std::string& stream) { return stream.empty() ? "default" : stream; }

// Everything a run's trace is rebuilt from, owned by the run: a later
// `device set`, recapture or release does not change the trace of a run
// that already happened.
struct PendingTrace {
  bool eager = true;
  std::string title;  // "eager g x10"
  DeviceSpec spec;
  RunOptions options;
  std::shared_ptr<const Prepared> p;
  std::shared_ptr<const std::vector<std::string>> labels;
  // Replay: the graph's name and its input copies.
  std::string graph;
  std::vector<GraphInput> inputs;
  // Eager: where the run failed (its status carries the full message), and
  // the default pool's allocated bytes when it began.
  EagerFailure failure;
  int64_t base_allocated = 0;
};

namespace {

std::string TaskWhere(const DeviceTask& t) { return fmt::format("task {} '{}' ({})", t.id, t.node, t.op); }

// Whole iterations from the first while their tasks fit the budget, at least one.
int64_t TracedIterations(int64_t iterations, size_t tasks) {
  int64_t per = std::max<int64_t>(static_cast<int64_t>(tasks), 1);
  return std::clamp<int64_t>(kTraceTaskBudget / per, 1, iterations);
}

std::shared_ptr<const std::vector<std::string>> Labels(const TaskGraph& graph) {
  auto labels = std::make_shared<std::vector<std::string>>();
  labels->reserve(graph.tasks.size());
  for (const DeviceTask& t : graph.tasks) labels->push_back(TaskLabel(t));
  return labels;
}

// Reruns the pending run with recording on, for its first iterations.
Trace BuildTrace(const PendingTrace& pt) {
  const Prepared& p = *pt.p;
  const int64_t n = pt.options.iterations;
  const int64_t kept = TracedIterations(n, p.tasks.size());
  Trace t;
  t.title = pt.title;
  t.device = pt.spec.name;
  t.tracks.push_back("host");
  for (const std::string& s : p.streams) t.tracks.push_back(s);
  Engine e(p, pt.spec, &t);
  bool failed = false;
  int64_t simulated = kept;
  if (pt.eager) {
    // A scratch allocator that cannot run out: the run's own allocator has
    // moved on, the counters only need the allocated bytes (the same for the
    // same requests, from the run's base), and the failure is replayed from
    // where the run stopped.
    CachingAllocator scratch(std::numeric_limits<int64_t>::max() / 4);
    EagerLoop loop{p, pt.spec, pt.options, e, scratch};
    loop.labels = pt.labels.get();
    loop.stop_recording = kept;
    loop.counter_base = pt.base_allocated;
    if (pt.failure.iteration >= 0) {
      loop.inject = &pt.failure;
      simulated = pt.failure.iteration + 1;
    }
    loop.last = simulated;
    failed = RunEagerIterations(loop).iteration >= 0;
  } else {
    ReplayLoop loop{p, pt.spec, pt.options, e, pt.inputs, pt.graph};
    loop.labels = pt.labels.get();
    loop.last = kept;
    RunReplayIterations(loop);
  }
  if (simulated > kept) t.title += fmt::format(" (trace: iterations 1-{} of {})", kept, n);
  if (failed) {
    e.Synchronize(-1);
    t.slices.push_back({0, SliceCategory::kError, pt.failure.status.message(), e.host, 0, -1, -1});
    t.end_ns = e.host;
  } else {
    if (kept < n) t.title += fmt::format(" (trace: iterations 1-{} of {})", kept, n);
    t.end_ns = e.End();
  }
  return t;
}

}  // namespace

SimDevice::SimDevice(DeviceSpec spec) : spec_(std::move(spec)), allocator_(spec_.memory_capacity) {}

void SimDevice::set_spec(DeviceSpec spec) {
  spec_ = std::move(spec);
  allocator_.set_capacity(spec_.memory_capacity);
  for (CapturedGraph& c : captured_) c.prepared.reset();  // its durations came from the old spec
}

Trace SimDevice::NewTrace(std::string title, std::vector<std::string> streams) const {
  Trace t;
  t.title = std::move(title);
  t.device = spec_.name;
  t.tracks.push_back("host");
  for (std::string& s : streams) t.tracks.push_back(std::move(s));
  return t;
}

namespace {

void SetKernelCounts(const TaskGraph& graph, RunResult& r) {
  KernelCount count = CountKernels(graph);
  r.kernels = count.kernels;
  r.unknown_cost_kernels = count.unknown_cost;
}

}  // namespace

Result<RunResult> SimDevice::Eager(const TaskGraph& graph, const std::string& name, const RunOptions& options) {
  if (options.iterations < 1) return Status::Error("eager: the iteration count must be at least 1");
  auto pending = std::make_shared<PendingTrace>();
  pending->p = std::make_shared<const Prepared>(Prepare(graph, spec_, options.compute_dtype, ""));
  const Prepared& p = *pending->p;
  std::string title = fmt::format("eager {} x{}", name, options.iterations);
  int64_t base_allocated = allocator_.Stats(kDefaultPool).allocated;
  // An interrupted run leaves the device as it found it: the allocator's
  // state (its counters, the pool's segments) comes back from this copy.
  CachingAllocator before = allocator_;
  Engine e(p, spec_, nullptr);
  EagerLoop loop{p, spec_, options, e, allocator_};
  loop.last = options.iterations;
  loop.skip_steady_memory = true;
  loop.interruptible = true;
  EagerFailure failure = RunEagerIterations(loop);
  if (failure.interrupted) {
    allocator_ = std::move(before);
    return failure.status;
  }
  const bool keep = options.trace != TraceLevel::kNone;
  if (keep) {
    pending->eager = true;
    pending->title = title;
    pending->spec = spec_;
    pending->options = options;
    pending->labels = Labels(graph);
    pending->base_allocated = base_allocated;
  }
  if (failure.iteration >= 0) {
    Status failed = failure.status.WithPrefix(fmt::format("eager: {}", TaskWhere(graph.tasks[failure.task])));
    if (keep) {
      failure.status = failed;
      pending->failure = std::move(failure);
      SetPending(std::move(pending));
    } else {
      // No trace but the error, where it happened.
      e.Synchronize(-1);
      Trace trace = NewTrace(std::move(title), p.streams);
      trace.slices.push_back({0, SliceCategory::kError, failed.message(), e.host, 0, -1, -1});
      trace.end_ns = e.host;
      SetTrace(std::move(trace));
    }
    return failed;
  }
  RunResult r;
  r.mode = "eager";
  r.graph = name;
  r.iterations = options.iterations;
  r.tasks = static_cast<int64_t>(p.tasks.size()) * options.iterations;
  SetKernelCounts(graph, r);
  e.Fill(r);
  if (keep) {
    SetPending(std::move(pending));
  } else {
    Trace trace = NewTrace(title + " (no trace kept)", p.streams);
    trace.end_ns = r.wall_ns;
    SetTrace(std::move(trace));
  }
  return r;
}

void SimDevice::SetTrace(Trace trace) {
  trace_ = std::move(trace);
  pending_.reset();
  has_trace_ = true;
}

void SimDevice::SetPending(std::shared_ptr<const PendingTrace> pending) {
  trace_ = Trace{};  // the last run's slices are not kept alive next to the recipe for new ones
  pending_ = std::move(pending);
  has_trace_ = true;
}

const Trace& SimDevice::last_trace() {
  if (pending_) {
    trace_ = BuildTrace(*pending_);
    pending_.reset();
  }
  return trace_;
}

Status SimDevice::CaptureError(Trace trace, int64_t host_ns, Status error) {
  trace.slices.push_back({0, SliceCategory::kError, error.message(), host_ns, 0, -1, -1});
  trace.end_ns = host_ns;
  SetTrace(std::move(trace));
  return error;
}

Result<uint32_t> SimDevice::Capture(const TaskGraph& graph, const std::string& name,
                                    const std::vector<GraphInput>& inputs, const CaptureOptions& options) {
  const std::string& cap = options.capture_stream;
  TaskGraph g = OnCaptureStream(graph, cap);
  std::vector<std::string> shown;
  for (const std::string& s : g.streams) shown.push_back(StreamDisplayName(s));
  Trace trace = NewTrace(fmt::format("capture {} on {}", name, StreamDisplayName(cap)), shown);
  int64_t host = 0;

  // The first refusal of capture_rules.h, where the capture meets it: at
  // begin (task -1), at a task, or at the end (task == tasks.size()).
  std::vector<CaptureViolation> refused =
      ApplyCaptureRules(g, {cap, options.end_stream, options.mode, options.task_queue_enable}, true);
  const int64_t refused_at = refused.empty() ? static_cast<int64_t>(g.tasks.size()) + 1 : refused.front().task;
  if (refused_at < 0) return CaptureError(std::move(trace), host, Status::Error(refused.front().message));
  // The capture works on a copy of the allocator, swapped in when it succeeds:
  // a failed capture leaves memory exactly as it was (no pool, nothing of the
  // default pool's cache released to make room for it).
  CachingAllocator memory = allocator_;
  const bool own_pool = options.pool == 0;
  if (!own_pool && !memory.HasPool(options.pool)) return Status::Errorf("capture: no pool {}", options.pool);
  PoolId pool = own_pool ? memory.CreatePool(fmt::format("graph {}", name)) : options.pool;
  Status begun = memory.BeginAllocateToPool(pool);
  if (!begun.ok()) return CaptureError(std::move(trace), host, begun);
  std::vector<CapturedGraph::Block> made;
  for (const GraphInput& in : inputs) {
    Result<BlockId> b = memory.Allocate(std::max<int64_t>(in.bytes, 1));
    if (!b.ok()) return CaptureError(std::move(trace), host, b.status().WithPrefix("capture: static input"));
    made.push_back({-1, *b, *memory.Place(*b), true});
  }
  Prepared p = Prepare(g, spec_, options.compute_dtype, "");
  std::vector<BlockId> blocks(g.tasks.size(), 0);
  std::vector<uint8_t> returned(g.tasks.size(), 0);
  for (uint32_t t : options.outputs) {
    if (t < returned.size()) returned[t] = 1;
  }
  for (const DeviceTask& t : g.tasks) {
    if (static_cast<int64_t>(t.id) == refused_at) return CaptureError(std::move(trace), host, Status::Error(refused.front().message));
    trace.slices.push_back({0, SliceCategory::kCapture, "capture " + TaskLabel(t), host, spec_.host_launch_ns, 0,
                            t.id});
    host += spec_.host_launch_ns;
    if (p.out_bytes[t.id] > 0) {
      Result<BlockId> b = memory.Allocate(p.out_bytes[t.id]);
      if (!b.ok()) return CaptureError(std::move(trace), host, b.status().WithPrefix("capture"));
      blocks[t.id] = *b;
      made.push_back({t.id, *b, *memory.Place(*b), true});
    }
    for (uint32_t f : p.frees_after[t.id]) {
      if (!returned[f]) memory.Free(blocks[f]);
    }
  }
  if (!refused.empty()) return CaptureError(std::move(trace), host, Status::Error(refused.front().message));
  Status ended = memory.EndAllocateToPool(pool);
  if (!ended.ok()) return CaptureError(std::move(trace), host, ended);
  for (CapturedGraph::Block& b : made) b.live = memory.Place(b.id).has_value();
  // A new capture of the same graph replaces the old one and frees its pool.
  for (size_t i = 0; i < captured_.size(); ++i) {
    if (captured_[i].name == name) {
      if (captured_[i].owns_pool) (void)memory.ReleasePool(captured_[i].pool);
      captured_.erase(captured_.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  }
  allocator_ = std::move(memory);
  CapturedGraph c;
  c.id = next_graph_id_++;
  c.name = name;
  c.capture_stream = cap;
  c.tasks = std::move(g);
  c.inputs = inputs;
  c.pool = pool;
  c.owns_pool = own_pool;
  c.blocks = std::move(made);
  c.compute_dtype = options.compute_dtype;
  c.labels = Labels(c.tasks);
  captured_.push_back(std::move(c));
  trace.end_ns = host;
  SetTrace(std::move(trace));
  return captured_.back().id;
}

Result<RunResult> SimDevice::Replay(uint32_t id, const RunOptions& options, const std::vector<GraphInput>* copies) {
  CapturedGraph* c = nullptr;
  for (CapturedGraph& g : captured_) {
    if (g.id == id) c = &g;
  }
  if (!c) return Status::Errorf("replay: no captured graph {}", id);
  if (options.iterations < 1) return Status::Error("replay: the iteration count must be at least 1");
  const std::vector<GraphInput>& inputs = copies ? *copies : c->inputs;
  auto pending = std::make_shared<PendingTrace>();
  // Prepared once per graph and spec: a caller that replays once per call
  // (core/runtime) pays for it once, not per replay.
  if (!c->prepared) {
    c->prepared = std::make_shared<const Prepared>(Prepare(c->tasks, spec_, c->compute_dtype, ""));
    c->kernels = CountKernels(c->tasks);
  }
  pending->p = c->prepared;
  const Prepared& p = *pending->p;
  std::string title = fmt::format("replay {} x{}", c->name, options.iterations);
  Engine e(p, spec_, nullptr);
  ReplayLoop loop{p, spec_, options, e, inputs, c->name};
  loop.last = options.iterations;
  loop.interruptible = true;
  if (!RunReplayIterations(loop)) return InterruptedStatus();
  RunResult r;
  r.mode = "replay";
  r.graph = c->name;
  r.iterations = options.iterations;
  r.tasks = static_cast<int64_t>(p.tasks.size()) * options.iterations;
  r.kernels = c->kernels.kernels;
  r.unknown_cost_kernels = c->kernels.unknown_cost;
  e.Fill(r);
  if (options.trace != TraceLevel::kNone) {
    pending->eager = false;
    pending->title = std::move(title);
    pending->spec = spec_;
    pending->options = options;
    pending->labels = c->labels;
    pending->graph = c->name;
    pending->inputs = inputs;
    SetPending(std::move(pending));
  } else {
    Trace trace = NewTrace(title + " (no trace kept)", p.streams);
    trace.end_ns = r.wall_ns;
    SetTrace(std::move(trace));
  }
  return r;
}

Status SimDevice::Release(uint32_t id) {
  for (size_t i = 0; i < captured_.size(); ++i) {
    if (captured_[i].id == id) {
      if (captured_[i].owns_pool) AIRSCOPE_RETURN_IF_ERROR(allocator_.ReleasePool(captured_[i].pool));
      captured_.erase(captured_.begin() + static_cast<std::ptrdiff_t>(i));
      return Status::Ok();
    }
  }
  return Status::Errorf("no captured graph {}", id);
}

const CapturedGraph* SimDevice::FindCaptured(const std::string& name) const {
  for (auto it = captured_.rbegin(); it != captured_.rend(); ++it) {
    if (it->name == name) return &*it;
  }
  return nullptr;
}

}  // namespace airscope

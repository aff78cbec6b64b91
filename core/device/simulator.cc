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
  std::string graph;  // the graph's name
  // Replay: its input copies.
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

// A trace with no slices yet: the host's track, then one per stream.
Trace EmptyTrace(std::string title, const DeviceSpec& spec, const std::vector<std::string>& streams) {
  Trace t;
  t.title = std::move(title);
  t.device = spec.name;
  t.tracks.reserve(streams.size() + 1);
  t.tracks.push_back("host");
  for (const std::string& s : streams) t.tracks.push_back(s);
  return t;
}

// Ends `trace` at `at` with a slice on the host naming the error.
void EndWithError(Trace& trace, int64_t at, const Status& error) {
  trace.slices.push_back({0, SliceCategory::kError, error.message(), at, 0, -1, -1});
  trace.end_ns = at;
}

// Reruns the pending run with recording on, for its first iterations.
Trace BuildTrace(const PendingTrace& pt) {
  const Prepared& p = *pt.p;
  const int64_t n = pt.options.iterations;
  const int64_t kept = TracedIterations(n, p.tasks.size());
  Trace t = EmptyTrace(pt.title, pt.spec, p.streams);
  t.graph = pt.graph;
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
    EndWithError(t, e.host, pt.failure.status);
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

namespace {

// The recipe of a run's trace, for a run whose options keep one.
std::shared_ptr<PendingTrace> NewPending(bool eager, std::string title, const DeviceSpec& spec,
                                         const RunOptions& options, std::shared_ptr<const Prepared> p,
                                         std::shared_ptr<const std::vector<std::string>> labels) {
  auto pending = std::make_shared<PendingTrace>();
  pending->eager = eager;
  pending->title = std::move(title);
  pending->spec = spec;
  pending->options = options;
  pending->p = std::move(p);
  pending->labels = std::move(labels);
  return pending;
}

// The totals of a run that went through all its iterations.
RunResult Totals(std::string mode, const std::string& graph, const RunOptions& options, size_t tasks,
                 KernelCount kernels, const Engine& e) {
  RunResult r;
  r.mode = std::move(mode);
  r.graph = graph;
  r.iterations = options.iterations;
  r.tasks = static_cast<int64_t>(tasks) * options.iterations;
  r.kernels = kernels.kernels;
  r.unknown_cost_kernels = kernels.unknown_cost;
  e.Fill(r);
  return r;
}

}  // namespace

Result<RunResult> SimDevice::Eager(const TaskGraph& graph, const std::string& name, const RunOptions& options) {
  if (options.iterations < 1) return Status::Error("eager: the iteration count must be at least 1");
  auto prepared = std::make_shared<const Prepared>(Prepare(graph, spec_, options.compute_dtype, ""));
  const Prepared& p = *prepared;
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
  std::shared_ptr<PendingTrace> pending;
  if (options.trace != TraceLevel::kNone) {
    pending = NewPending(true, title, spec_, options, prepared, Labels(graph));
    pending->graph = name;
    pending->base_allocated = base_allocated;
  }
  if (failure.iteration >= 0) {
    Status failed = failure.status.WithPrefix(fmt::format("eager: {}", TaskWhere(graph.tasks[failure.task])));
    if (!pending) {
      // No trace but the error, where it happened.
      e.Synchronize(-1);
      return FailWithTrace(NewTrace(std::move(title), p.streams), e.host, failed);
    }
    failure.status = failed;
    pending->failure = std::move(failure);
    SetPending(std::move(pending));
    return failed;
  }
  RunResult r = Totals("eager", name, options, p.tasks.size(), CountKernels(graph), e);
  KeepTrace(std::move(pending), title, p.streams, r.wall_ns);
  return r;
}

void SimDevice::KeepTrace(std::shared_ptr<const PendingTrace> pending, const std::string& title,
                          const std::vector<std::string>& streams, int64_t wall_ns) {
  if (pending) {
    SetPending(std::move(pending));
    return;
  }
  Trace trace = NewTrace(title + " (no trace kept)", streams);
  trace.end_ns = wall_ns;
  SetTrace(std::move(trace));
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

Trace SimDevice::NewTrace(std::string title, const std::vector<std::string>& streams) const {
  return EmptyTrace(std::move(title), spec_, streams);
}

Status SimDevice::FailWithTrace(Trace trace, int64_t at, Status error) {
  EndWithError(trace, at, error);
  SetTrace(std::move(trace));
  return error;
}

namespace {

// A capture under way: its trace (capture slices on the host), the host's
// clock, and a copy of the device's allocator holding the graph's pool,
// swapped in only when the capture succeeds, so a failed capture leaves
// memory exactly as it was (no pool, nothing of the default pool's cache
// released to make room for it).
struct CaptureRecording {
  Trace trace;
  int64_t host = 0;
  CachingAllocator memory;
  PoolId pool = 0;
  std::vector<CapturedGraph::Block> made;  // CapturedGraph::blocks, in order
};

// Opens the graph's pool and places the static inputs in it.
Status AllocateStaticInputs(CaptureRecording& rec, const std::vector<GraphInput>& inputs) {
  AIRSCOPE_RETURN_IF_ERROR(rec.memory.BeginAllocateToPool(rec.pool));
  for (const GraphInput& in : inputs) {
    Result<BlockId> b = rec.memory.Allocate(std::max<int64_t>(in.bytes, 1));
    if (!b.ok()) return b.status().WithPrefix("capture: static input");
    rec.made.push_back({-1, *b, *rec.memory.Place(*b), true});
  }
  return Status::Ok();
}

// Records the tasks in order: a capture slice on the host per task, its
// output allocated in the pool and freed after its last reader inside the
// graph, unless the graph returns it. `refusal` is the first of
// capture_rules.h's refusals, met at task `refused_at` (before that task
// is recorded) or at the end (refused_at == tasks.size()); nullptr: none.
Status RecordTasks(CaptureRecording& rec, const TaskGraph& g, const Prepared& p, const DeviceSpec& spec,
                   const std::vector<uint32_t>& outputs, const CaptureViolation* refusal, int64_t refused_at) {
  std::vector<BlockId> blocks(g.tasks.size(), 0);
  std::vector<uint8_t> returned(g.tasks.size(), 0);
  for (uint32_t t : outputs) {
    if (t < returned.size()) returned[t] = 1;
  }
  for (const DeviceTask& t : g.tasks) {
    if (static_cast<int64_t>(t.id) == refused_at) return Status::Error(refusal->message);
    rec.trace.slices.push_back(
        {0, SliceCategory::kCapture, "capture " + TaskLabel(t), rec.host, spec.host_launch_ns, 0, t.id});
    rec.host += spec.host_launch_ns;
    if (p.out_bytes[t.id] > 0) {
      Result<BlockId> b = rec.memory.Allocate(p.out_bytes[t.id]);
      if (!b.ok()) return b.status().WithPrefix("capture");
      blocks[t.id] = *b;
      rec.made.push_back({t.id, *b, *rec.memory.Place(*b), true});
    }
    for (uint32_t f : p.frees_after[t.id]) {
      if (!returned[f]) rec.memory.Free(blocks[f]);
    }
  }
  if (refusal) return Status::Error(refusal->message);
  AIRSCOPE_RETURN_IF_ERROR(rec.memory.EndAllocateToPool(rec.pool));
  for (CapturedGraph::Block& b : rec.made) b.live = rec.memory.Place(b.id).has_value();
  return Status::Ok();
}

}  // namespace

std::string StreamResourceError() {
  return "capture_begin:../torch_npu/csrc/core/npu/NPUGraph.cpp:230 NPU function error: "
         "c10_npu::acl::AclmdlRICaptureBegin(capture_stream_, capture_mode), error code is 207008\n"
         "[Error]: Stream resources are insufficient.\n"
         "Insufficient_Stream_Resources(EL0009): The stream resources are insufficient.";
}

Result<uint32_t> SimDevice::Capture(const TaskGraph& graph, const std::string& name,
                                    const std::vector<GraphInput>& inputs, const CaptureOptions& options) {
  const std::string& cap = options.capture_stream;
  TaskGraph g = OnCaptureStream(graph, cap);
  std::vector<std::string> shown;
  for (const std::string& s : g.streams) shown.push_back(StreamDisplayName(s));
  CaptureRecording rec{
      NewTrace(fmt::format("capture {} on {}", name, StreamDisplayName(cap)), shown), 0, allocator_, 0, {}};
  rec.trace.graph = name;
  // The first refusal of capture_rules.h, where the capture meets it: at
  // begin (task -1), at a task, or at the end (task == tasks.size()).
  std::vector<CaptureViolation> refused =
      ApplyCaptureRules(g, {cap, options.end_stream, options.mode, options.task_queue_enable}, true);
  const CaptureViolation* refusal = refused.empty() ? nullptr : &refused.front();
  const int64_t refused_at = refusal ? refusal->task : static_cast<int64_t>(g.tasks.size()) + 1;
  if (refused_at < 0) return FailWithTrace(std::move(rec.trace), rec.host, Status::Error(refusal->message));
  // The streams the graph will hold, against what the device has left; a
  // recapture of the same name gives its old graph's streams back first.
  const int64_t task_streams = std::max<int64_t>(1, static_cast<int64_t>(g.streams.size()));
  int64_t held = streams_held_;
  for (const CapturedGraph& c : captured_) {
    if (c.name == name) held -= c.streams();
  }
  if (spec_.streams > 0 && held + task_streams + options.extra_streams > spec_.streams) {
    return FailWithTrace(
        std::move(rec.trace), rec.host,
        Status::Errorf("{}\n(the device's streams: {} held by captured graphs, {} of {} needed by this "
                       "one (device set streams))",
                       StreamResourceError(), held, task_streams + options.extra_streams, spec_.streams));
  }
  const bool own_pool = options.pool == 0;
  if (!own_pool && !rec.memory.HasPool(options.pool)) return Status::Errorf("capture: no pool {}", options.pool);
  rec.pool = own_pool ? rec.memory.CreatePool(fmt::format("graph {}", name)) : options.pool;
  Status recorded = AllocateStaticInputs(rec, inputs);
  if (recorded.ok()) {
    Prepared p = Prepare(g, spec_, options.compute_dtype, "");
    recorded = RecordTasks(rec, g, p, spec_, options.outputs, refusal, refused_at);
  }
  if (!recorded.ok()) return FailWithTrace(std::move(rec.trace), rec.host, recorded);
  // A new capture of the same graph replaces the old one and frees its pool.
  for (size_t i = 0; i < captured_.size(); ++i) {
    if (captured_[i].name == name) {
      if (captured_[i].owns_pool) (void)rec.memory.ReleasePool(captured_[i].pool);
      streams_held_ -= captured_[i].streams();
      captured_.erase(captured_.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  }
  allocator_ = std::move(rec.memory);
  CapturedGraph c;
  c.id = next_graph_id_++;
  c.name = name;
  c.capture_stream = cap;
  c.tasks = std::move(g);
  c.inputs = inputs;
  c.pool = rec.pool;
  c.owns_pool = own_pool;
  c.blocks = std::move(rec.made);
  c.compute_dtype = options.compute_dtype;
  c.labels = Labels(c.tasks);
  c.task_streams = task_streams;
  c.extra_streams = options.extra_streams;
  for (const DeviceTask& t : c.tasks.tasks) c.events += t.kind == TaskKind::kEventRecord;
  c.capture_ns = rec.host;
  streams_held_ += c.streams();
  captured_.push_back(std::move(c));
  rec.trace.end_ns = rec.host;
  SetTrace(std::move(rec.trace));
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
  // Prepared once per graph and spec: a caller that replays once per call
  // (core/runtime) pays for it once, not per replay.
  if (!c->prepared) {
    c->prepared = std::make_shared<const Prepared>(Prepare(c->tasks, spec_, c->compute_dtype, ""));
    c->kernels = CountKernels(c->tasks);
  }
  const Prepared& p = *c->prepared;
  std::string title = fmt::format("replay {} x{}", c->name, options.iterations);
  Engine e(p, spec_, nullptr);
  ReplayLoop loop{p, spec_, options, e, inputs, c->name};
  loop.last = options.iterations;
  loop.interruptible = true;
  if (!RunReplayIterations(loop)) return InterruptedStatus();
  RunResult r = Totals("replay", c->name, options, p.tasks.size(), c->kernels, e);
  std::shared_ptr<PendingTrace> pending;
  if (options.trace != TraceLevel::kNone) {
    pending = NewPending(false, title, spec_, options, c->prepared, c->labels);
    pending->graph = c->name;
    pending->inputs = inputs;
  }
  KeepTrace(std::move(pending), title, p.streams, r.wall_ns);
  return r;
}

Status SimDevice::HoldStreams(const std::string& owner, int64_t streams) {
  auto it = stream_holders_.find(owner);
  int64_t held = streams_held_ - (it == stream_holders_.end() ? 0 : it->second);
  if (spec_.streams > 0 && held + streams > spec_.streams) {
    return Status::Errorf("{}\n(the device's streams: {} held, {} of {} needed by {} (device set streams))",
                          StreamResourceError(), held, streams, spec_.streams, owner);
  }
  streams_held_ = held + streams;
  stream_holders_[owner] = streams;
  return Status::Ok();
}

void SimDevice::ReleaseStreams(const std::string& owner) {
  auto it = stream_holders_.find(owner);
  if (it == stream_holders_.end()) return;
  streams_held_ -= it->second;
  stream_holders_.erase(it);
}

Status SimDevice::Release(uint32_t id) {
  for (size_t i = 0; i < captured_.size(); ++i) {
    if (captured_[i].id == id) {
      if (captured_[i].owns_pool) AIRSCOPE_RETURN_IF_ERROR(allocator_.ReleasePool(captured_[i].pool));
      streams_held_ -= captured_[i].streams();
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

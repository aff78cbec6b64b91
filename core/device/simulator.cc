#include "core/device/simulator.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

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

namespace {

// The task graph flattened for the hot loop: small integers, no strings.
struct Prepared {
  struct Task {
    TaskKind kind;
    uint32_t stream;  // index into streams
    int32_t event;    // index into events, -1 for none
    int64_t dur;      // device time
    uint32_t dep_begin, dep_end;
  };
  std::vector<Task> tasks;
  std::vector<uint32_t> deps;
  std::vector<std::string> streams;  // display names
  size_t events = 0;
  // Memory: bytes each task's output takes, and which outputs to free after task i.
  std::vector<int64_t> out_bytes;
  std::vector<std::vector<uint32_t>> frees_after;
  std::vector<uint32_t> unused;  // outputs nobody reads (graph outputs): freed at iteration end
};

Prepared Prepare(const TaskGraph& graph, const DeviceSpec& spec, DType dtype, const std::string& default_as) {
  Prepared p;
  std::map<std::string, uint32_t> stream_index;
  auto stream_of = [&](const std::string& s) {
    const std::string& name = s.empty() && !default_as.empty() ? default_as : s;
    auto [it, fresh] = stream_index.emplace(name, static_cast<uint32_t>(p.streams.size()));
    if (fresh) p.streams.push_back(StreamDisplayName(name));
    return it->second;
  };
  for (const std::string& s : graph.streams) stream_of(s);
  std::map<std::string, int32_t> event_index;
  std::vector<int64_t> last_user(graph.tasks.size(), -1);
  for (const DeviceTask& t : graph.tasks) {
    Prepared::Task pt{};
    pt.kind = t.kind;
    pt.stream = stream_of(t.stream);
    pt.event = -1;
    if (t.kind == TaskKind::kEventRecord || t.kind == TaskKind::kEventWait) {
      auto [it, fresh] = event_index.emplace(t.event, static_cast<int32_t>(event_index.size()));
      pt.event = it->second;
    }
    switch (t.kind) {
      case TaskKind::kKernel:
        // The task's own dtype when lowering knew it, else the run's.
        pt.dur = t.cost_known ? spec.KernelNs(t.cost, t.dtype != DType::kUnknown ? t.dtype : dtype)
                              : spec.min_kernel_ns;
        break;
      case TaskKind::kMemcpy:
        pt.dur = spec.D2DNs(std::max(t.cost.bytes_read, t.cost.bytes_written));
        break;
      case TaskKind::kHostSync:
        pt.dur = spec.H2DNs(t.cost.bytes_read);  // the device-to-host copy, same link
        break;
      default:
        pt.dur = 0;
    }
    pt.dep_begin = static_cast<uint32_t>(p.deps.size());
    for (uint32_t d : t.deps) {
      if (d < t.id) {
        p.deps.push_back(d);
        last_user[d] = std::max<int64_t>(last_user[d], t.id);
      }
    }
    pt.dep_end = static_cast<uint32_t>(p.deps.size());
    p.tasks.push_back(pt);
    bool makes_tensor = t.kind == TaskKind::kKernel || t.kind == TaskKind::kMemcpy;
    p.out_bytes.push_back(makes_tensor ? static_cast<int64_t>(t.cost.bytes_written) : 0);
  }
  p.events = event_index.size();
  p.frees_after.resize(graph.tasks.size());
  for (size_t i = 0; i < graph.tasks.size(); ++i) {
    if (p.out_bytes[i] == 0) continue;
    if (last_user[i] < 0) {
      p.unused.push_back(static_cast<uint32_t>(i));
    } else {
      p.frees_after[last_user[i]].push_back(static_cast<uint32_t>(i));
    }
  }
  return p;
}

// One run's clocks: the host, each stream, each event, each task's end.
class Engine {
 public:
  Engine(const Prepared& p, const DeviceSpec& spec, Trace* trace)
      : p_(p), spec_(spec), trace_(trace), sfree_(p.streams.size(), 0), ran_(p.streams.size(), 0),
        busy_(p.streams.size(), 0), event_time_(p.events, 0), event_slice_(p.events, -1),
        end_(p.tasks.size(), 0) {}

  int64_t host = 0;
  int64_t host_busy = 0;

  int32_t HostSlice(SliceCategory cat, std::string name, int64_t dur, int32_t iter, int64_t task) {
    int32_t idx = -1;
    if (trace_) idx = Add(0, cat, std::move(name), host, dur, iter, task);
    host += dur;
    host_busy += dur;
    return idx;
  }

  int32_t Add(uint32_t track, SliceCategory cat, std::string name, int64_t start, int64_t dur, int32_t iter,
              int64_t task) {
    trace_->slices.push_back({track, cat, std::move(name), start, dur, iter, task});
    return static_cast<int32_t>(trace_->slices.size() - 1);
  }
  void AddFlow(FlowKind kind, int32_t from, int32_t to) {
    if (trace_ && from >= 0 && to >= 0) {
      trace_->flows.push_back({kind, static_cast<uint32_t>(from), static_cast<uint32_t>(to)});
    }
  }

  // Runs task i on its stream once it is ready at `ready`; `gap` before it if
  // the stream already ran work in this context. Returns the device slice.
  int32_t RunTask(uint32_t i, int64_t ready, int64_t gap, int32_t iter, const std::string* name) {
    const Prepared::Task& t = p_.tasks[i];
    uint32_t s = t.stream;
    int64_t deps = 0;
    for (uint32_t k = t.dep_begin; k < t.dep_end; ++k) deps = std::max(deps, end_[p_.deps[k]]);
    int64_t start = std::max(std::max(ready, sfree_[s] + (ran_[s] ? gap : 0)), deps);
    // Events take no device time and no gap: they happen once the stream
    // (and what they depend on) gets there.
    int64_t arrive = std::max(std::max(ready, sfree_[s]), deps);
    int32_t slice = -1;
    switch (t.kind) {
      case TaskKind::kKernel:
      case TaskKind::kMemcpy:
      case TaskKind::kHostSync: {
        end_[i] = start + t.dur;
        sfree_[s] = end_[i];
        ran_[s] = 1;
        busy_[s] += t.dur;
        if (trace_) {
          slice = Add(s + 1, t.kind == TaskKind::kKernel ? SliceCategory::kKernel : SliceCategory::kMemcpy, *name,
                      start, t.dur, iter, i);
        }
        break;
      }
      case TaskKind::kEventRecord: {
        // A record completes when the work before it on its stream has.
        int64_t at = arrive;
        event_time_[t.event] = at;
        end_[i] = at;
        sfree_[s] = at;
        if (trace_) {
          slice = Add(s + 1, SliceCategory::kEvent, *name, at, 0, iter, i);
          event_slice_[t.event] = slice;
        }
        break;
      }
      case TaskKind::kEventWait: {
        // The stream arrives at the wait, then idles until the event (and any
        // data the wait orders) is there: that idle span is the wait slice.
        arrive = std::max(ready, sfree_[s]);
        int64_t done = std::max(std::max(arrive, event_time_[t.event]), deps);
        end_[i] = done;
        sfree_[s] = done;
        if (trace_) {
          slice = Add(s + 1, SliceCategory::kWait, *name, arrive, done - arrive, iter, i);
          AddFlow(FlowKind::kEvent, event_slice_[t.event], slice);
        }
        break;
      }
    }
    return slice;
  }

  int64_t task_end(uint32_t i) const { return end_[i]; }
  int64_t DeviceDone() const {
    int64_t t = 0;
    for (int64_t f : sfree_) t = std::max(t, f);
    return t;
  }
  // Host blocks until every stream is idle, then returns after sync_return_ns.
  void Synchronize(int32_t iter) {
    int64_t back = std::max(host, DeviceDone()) + spec_.sync_return_ns;
    if (trace_) Add(0, SliceCategory::kSync, "synchronize", host, back - host, iter, -1);
    host = back;
  }
  // Graph replay: the in-graph gap counts from the graph's own first task.
  void StartGraph(int64_t at) {
    for (size_t s = 0; s < sfree_.size(); ++s) {
      sfree_[s] = std::max(sfree_[s], at);
      ran_[s] = 0;
    }
  }
  void MarkRan(uint32_t stream) { ran_[stream] = 1; }
  void RunMemcpyOn(uint32_t s, int64_t ready, int64_t dur) {
    int64_t start = std::max(ready, sfree_[s] + (ran_[s] ? spec_.kernel_gap_ns : 0));
    sfree_[s] = start + dur;
    ran_[s] = 1;
    busy_[s] += dur;
    last_start_ = start;
  }
  int64_t last_start() const { return last_start_; }

  void Fill(RunResult& r) const {
    r.host_busy_ns = host_busy;
    r.wall_ns = std::max(host, DeviceDone());
    r.device_busy_ns = 0;
    for (size_t s = 0; s < busy_.size(); ++s) {
      r.device_busy_ns += busy_[s];
      r.streams.push_back({p_.streams[s], busy_[s]});
    }
  }

 private:
  const Prepared& p_;
  const DeviceSpec& spec_;
  Trace* trace_;
  std::vector<int64_t> sfree_;
  std::vector<uint8_t> ran_;
  std::vector<int64_t> busy_;
  std::vector<int64_t> event_time_;
  std::vector<int32_t> event_slice_;
  std::vector<int64_t> end_;
  int64_t last_start_ = 0;
};

std::string TaskLabel(const DeviceTask& t) {
  switch (t.kind) {
    case TaskKind::kEventRecord: return fmt::format("record {}", t.event);
    case TaskKind::kEventWait: return fmt::format("wait {}", t.event);
    default: return t.node;
  }
}

std::string TaskWhere(const DeviceTask& t) { return fmt::format("task {} '{}' ({})", t.id, t.node, t.op); }

}  // namespace

SimDevice::SimDevice(DeviceSpec spec) : spec_(std::move(spec)), allocator_(spec_.memory_capacity) {}

void SimDevice::set_spec(DeviceSpec spec) {
  spec_ = std::move(spec);
  allocator_.set_capacity(spec_.memory_capacity);
}

Trace SimDevice::NewTrace(std::string title, std::vector<std::string> streams) const {
  Trace t;
  t.title = std::move(title);
  t.device = spec_.name;
  t.tracks.push_back("host");
  for (std::string& s : streams) t.tracks.push_back(std::move(s));
  return t;
}

Result<RunResult> SimDevice::Eager(const TaskGraph& graph, const std::string& name, const RunOptions& options) {
  if (options.iterations < 1) return Status::Error("eager: the iteration count must be at least 1");
  Prepared p = Prepare(graph, spec_, options.compute_dtype, "");
  bool full = options.trace == TraceLevel::kFull;
  Trace trace = NewTrace(fmt::format("eager {} x{}", name, options.iterations), p.streams);
  Engine e(p, spec_, full ? &trace : nullptr);
  std::vector<std::string> labels;
  if (full) {
    for (const DeviceTask& t : graph.tasks) labels.push_back(TaskLabel(t));
  }
  static const std::string kNoName;
  std::vector<BlockId> blocks(graph.tasks.size(), 0);
  auto counter = [&](int64_t at) {
    if (full) trace.counters.push_back({"allocated (default pool)", at, allocator_.Stats(kDefaultPool).allocated});
  };
  Status failed;
  for (int64_t it = 0; it < options.iterations && failed.ok(); ++it) {
    int32_t iter = static_cast<int32_t>(it);
    for (uint32_t i = 0; i < p.tasks.size(); ++i) {
      const Prepared::Task& t = p.tasks[i];
      const std::string& label = full ? labels[i] : kNoName;
      int64_t issue_cost = 0;
      SliceCategory host_cat = SliceCategory::kLaunch;
      if (t.kind == TaskKind::kEventRecord) {
        issue_cost = spec_.event_record_ns;
        host_cat = SliceCategory::kEvent;
      } else if (t.kind == TaskKind::kEventWait) {
        issue_cost = spec_.event_wait_ns;
        host_cat = SliceCategory::kWait;
      } else {
        if (options.framework_dispatch && spec_.host_dispatch_ns > 0) {
          e.HostSlice(SliceCategory::kDispatch, full ? "dispatch " + label : kNoName, spec_.host_dispatch_ns, iter, i);
        }
        issue_cost = spec_.host_launch_ns;
      }
      int32_t launch = e.HostSlice(host_cat, full ? "launch " + label : kNoName, issue_cost, iter, i);
      if (p.out_bytes[i] > 0) {
        Result<BlockId> b = allocator_.Allocate(kDefaultPool, p.out_bytes[i]);
        if (!b.ok()) {
          failed = b.status().WithPrefix(fmt::format("eager: {}", TaskWhere(graph.tasks[i])));
          break;
        }
        blocks[i] = *b;
        counter(e.host);
      }
      int32_t slice = e.RunTask(i, e.host + spec_.launch_latency_ns, spec_.kernel_gap_ns, iter, &label);
      if (t.kind != TaskKind::kEventWait && t.kind != TaskKind::kEventRecord) {
        e.AddFlow(FlowKind::kLaunch, launch, slice);
      }
      if (t.kind == TaskKind::kHostSync) {
        // .item(): the host waits for the value.
        int64_t back = std::max(e.host, e.task_end(i)) + spec_.sync_return_ns;
        if (full) trace.slices.push_back({0, SliceCategory::kSync, "sync " + label, e.host, back - e.host, iter, i});
        e.host = back;
      }
      for (uint32_t f : p.frees_after[i]) {
        allocator_.Free(blocks[f]);
        blocks[f] = 0;
      }
      if (!p.frees_after[i].empty()) counter(e.host);
    }
    for (uint32_t f : p.unused) {
      allocator_.Free(blocks[f]);
      blocks[f] = 0;
    }
    counter(e.host);
    if (options.sync_each_iteration || it + 1 == options.iterations) e.Synchronize(iter);
  }
  if (!failed.ok()) {
    for (BlockId b : blocks) allocator_.Free(b);
    e.Synchronize(-1);
    trace.slices.push_back({0, SliceCategory::kError, failed.message(), e.host, 0, -1, -1});
    trace.end_ns = e.host;
    trace_ = std::move(trace);
    has_trace_ = true;
    return failed;
  }
  RunResult r;
  r.mode = "eager";
  r.graph = name;
  r.iterations = options.iterations;
  r.tasks = static_cast<int64_t>(p.tasks.size()) * options.iterations;
  e.Fill(r);
  trace.end_ns = r.wall_ns;
  if (full) {
    trace_ = std::move(trace);
  } else {
    trace_ = NewTrace(trace.title + " (no trace kept)", p.streams);
    trace_.end_ns = r.wall_ns;
  }
  has_trace_ = true;
  return r;
}

Status SimDevice::CaptureError(Trace trace, int64_t host_ns, Status error) {
  trace.slices.push_back({0, SliceCategory::kError, error.message(), host_ns, 0, -1, -1});
  trace.end_ns = host_ns;
  trace_ = std::move(trace);
  has_trace_ = true;
  return error;
}

Result<uint32_t> SimDevice::Capture(const TaskGraph& graph, const std::string& name,
                                    const std::vector<GraphInput>& inputs, const CaptureOptions& options) {
  const std::string& cap = options.capture_stream;
  TaskGraph g = graph;
  for (DeviceTask& t : g.tasks) {
    if (t.stream.empty()) t.stream = cap;
  }
  std::vector<std::string> streams;
  for (const std::string& s : graph.streams) {
    std::string mapped = s.empty() ? cap : s;
    if (std::find(streams.begin(), streams.end(), mapped) == streams.end()) streams.push_back(mapped);
  }
  if (std::find(streams.begin(), streams.end(), cap) == streams.end()) streams.insert(streams.begin(), cap);
  g.streams = streams;
  std::vector<std::string> shown;
  for (const std::string& s : streams) shown.push_back(StreamDisplayName(s));
  Trace trace = NewTrace(fmt::format("capture {} on {}", name, StreamDisplayName(cap)), shown);
  int64_t host = 0;

  if (cap.empty() || cap == "default") {
    return CaptureError(std::move(trace), host,
                        Status::Errorf("ACL_ERROR_RT_FEATURE_NOT_SUPPORT ({}): capture on the default stream is "
                                       "refused (CUDA: cudaErrorStreamCaptureUnsupported on the legacy stream); "
                                       "capture on a stream of its own: capture --stream NAME",
                                       kAclFeatureNotSupport));
  }
  // The capture works on a copy of the allocator, swapped in when it succeeds:
  // a failed capture leaves memory exactly as it was (no pool, nothing of the
  // default pool's cache released to make room for it).
  CachingAllocator memory = allocator_;
  PoolId pool = memory.CreatePool(fmt::format("graph {}", name));
  Status begun = memory.BeginAllocateToPool(pool);
  if (!begun.ok()) return CaptureError(std::move(trace), host, begun);
  for (const GraphInput& in : inputs) {
    Result<BlockId> b = memory.Allocate(std::max<int64_t>(in.bytes, 1));
    if (!b.ok()) return CaptureError(std::move(trace), host, b.status().WithPrefix("capture: static input"));
  }
  Prepared p = Prepare(g, spec_, options.compute_dtype, "");
  std::map<std::string, size_t> sidx;
  for (size_t i = 0; i < streams.size(); ++i) sidx[streams[i]] = i;
  std::vector<uint8_t> capturing(streams.size(), 0);
  capturing[sidx[cap]] = 1;
  std::map<std::string, bool> event_in_capture;
  std::vector<BlockId> blocks(g.tasks.size(), 0);
  std::vector<int64_t> last_task(streams.size(), -1);
  for (const DeviceTask& t : g.tasks) {
    size_t s = sidx[t.stream];
    uint32_t track = static_cast<uint32_t>(s + 1);
    if (t.kind == TaskKind::kHostSync) {
      return CaptureError(
          std::move(trace), host,
          Status::Errorf("ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED ({}): {} synchronizes with the host during "
                         "capture, which invalidates it; move the .item()/host read out of the captured region "
                         "(or run this graph eagerly)",
                         kAclCaptureInvalidated, TaskWhere(t)));
    }
    if (t.kind == TaskKind::kMemcpy && t.blocking) {
      return CaptureError(
          std::move(trace), host,
          Status::Errorf("ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED ({}): {} is a blocking host<->device copy during "
                         "capture, which invalidates it; copy with non_blocking=True or move the copy out of the "
                         "captured region",
                         kAclCaptureInvalidated, TaskWhere(t)));
    }
    if (!capturing[s]) {
      if (t.kind == TaskKind::kEventWait && event_in_capture[t.event]) {
        capturing[s] = 1;  // the side stream joins the capture (fork)
      } else {
        return CaptureError(
            std::move(trace), host,
            Status::Errorf("ACL_ERROR_RT_CAPTURE_DEPENDENCY ({}): stream '{}' is not part of the capture when "
                           "{} is issued on it; first record an event on the capture stream and wait on it on "
                           "'{}' (TorchAir's event_closure does this after scope_enter)",
                           kAclCaptureDependency, t.stream, TaskWhere(t), t.stream));
      }
    }
    if (t.kind == TaskKind::kEventRecord) event_in_capture[t.event] = true;
    trace.slices.push_back({0, SliceCategory::kCapture, "capture " + TaskLabel(t), host, spec_.host_launch_ns, 0,
                            t.id});
    host += spec_.host_launch_ns;
    (void)track;
    last_task[s] = t.id;
    if (p.out_bytes[t.id] > 0) {
      Result<BlockId> b = memory.Allocate(p.out_bytes[t.id]);
      if (!b.ok()) return CaptureError(std::move(trace), host, b.status().WithPrefix("capture"));
      blocks[t.id] = *b;
    }
    for (uint32_t f : p.frees_after[t.id]) memory.Free(blocks[f]);
  }
  // Capture must end on the stream it began on (NPUGraph::capture_end).
  if (!options.end_stream.empty() && options.end_stream != cap) {
    return CaptureError(std::move(trace), host,
                        Status::Errorf("ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED ({}): capture began on stream '{}' "
                                       "but ends on '{}': Capture must end on the same stream it began on; end it "
                                       "on '{}'",
                                       kAclCaptureUnmatched, cap, options.end_stream, cap));
  }
  // Every side stream must join back: its last task is a record that a
  // joined stream waits on later.
  std::vector<uint8_t> joined(streams.size(), 0);
  joined[sidx[cap]] = 1;
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t s = 0; s < streams.size(); ++s) {
      if (joined[s] || !capturing[s] || last_task[s] < 0) continue;
      const DeviceTask& last = g.tasks[last_task[s]];
      if (last.kind != TaskKind::kEventRecord) continue;
      for (size_t w = last.id + 1; w < g.tasks.size(); ++w) {
        const DeviceTask& t = g.tasks[w];
        if (t.kind == TaskKind::kEventWait && t.event == last.event && joined[sidx[t.stream]]) {
          joined[s] = 1;
          changed = true;
          break;
        }
      }
    }
  }
  for (size_t s = 0; s < streams.size(); ++s) {
    if (!capturing[s] || joined[s]) continue;
    const DeviceTask& last = g.tasks[last_task[s]];
    return CaptureError(std::move(trace), host,
                        Status::Errorf("ACL_ERROR_RT_STREAM_UNJOINED ({}): stream '{}' was not joined back into "
                                       "capture stream '{}' before capture end; its last task is {}; record an "
                                       "event on '{}' after it and wait on that event on '{}' before the output",
                                       kAclStreamUnjoined, streams[s], cap, TaskWhere(last), streams[s], cap));
  }
  Status ended = memory.EndAllocateToPool(pool);
  if (!ended.ok()) return CaptureError(std::move(trace), host, ended);
  // A new capture of the same graph replaces the old one and frees its pool.
  for (size_t i = 0; i < captured_.size(); ++i) {
    if (captured_[i].name == name) {
      (void)memory.ReleasePool(captured_[i].pool);
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
  c.compute_dtype = options.compute_dtype;
  captured_.push_back(std::move(c));
  trace.end_ns = host;
  trace_ = std::move(trace);
  has_trace_ = true;
  return captured_.back().id;
}

Result<RunResult> SimDevice::Replay(uint32_t id, const RunOptions& options) {
  const CapturedGraph* c = nullptr;
  for (const CapturedGraph& g : captured_) {
    if (g.id == id) c = &g;
  }
  if (!c) return Status::Errorf("replay: no captured graph {}", id);
  if (options.iterations < 1) return Status::Error("replay: the iteration count must be at least 1");
  Prepared p = Prepare(c->tasks, spec_, c->compute_dtype, "");
  bool full = options.trace == TraceLevel::kFull;
  Trace trace = NewTrace(fmt::format("replay {} x{}", c->name, options.iterations), p.streams);
  Engine e(p, spec_, full ? &trace : nullptr);
  std::vector<std::string> labels;
  if (full) {
    for (const DeviceTask& t : c->tasks.tasks) labels.push_back(TaskLabel(t));
  }
  static const std::string kNoName;
  uint32_t cap = 0;  // the capture stream is the first stream
  const int64_t n = static_cast<int64_t>(p.tasks.size());
  std::vector<int64_t> copy_ns;
  for (const GraphInput& in : c->inputs) copy_ns.push_back(spec_.D2DNs(static_cast<double>(in.bytes)));
  std::vector<uint8_t> seen(p.streams.size(), 0);
  for (int64_t it = 0; it < options.iterations; ++it) {
    int32_t iter = static_cast<int32_t>(it);
    for (size_t k = 0; k < c->inputs.size(); ++k) {
      int32_t launch = e.HostSlice(SliceCategory::kLaunch, full ? "copy " + c->inputs[k].name : kNoName,
                                   spec_.host_launch_ns, iter, -1);
      e.RunMemcpyOn(cap, e.host + spec_.launch_latency_ns, copy_ns[k]);
      if (full) {
        int32_t s = e.Add(cap + 1, SliceCategory::kMemcpy, "copy " + c->inputs[k].name, e.last_start(), copy_ns[k],
                          iter, -1);
        e.AddFlow(FlowKind::kLaunch, launch, s);
      }
    }
    int32_t launch = e.HostSlice(SliceCategory::kGraphLaunch, full ? "graph launch " + c->name : kNoName,
                                 spec_.graph_launch_ns + spec_.graph_launch_per_node_ns * n, iter, -1);
    e.StartGraph(e.host + spec_.launch_latency_ns);
    std::fill(seen.begin(), seen.end(), 0);
    for (uint32_t i = 0; i < p.tasks.size(); ++i) {
      int32_t slice = e.RunTask(i, 0, spec_.graph_task_gap_ns, iter, full ? &labels[i] : &kNoName);
      uint32_t s = p.tasks[i].stream;
      if (full && !seen[s]) {
        seen[s] = 1;
        e.AddFlow(FlowKind::kLaunch, launch, slice);
      }
    }
    if (options.sync_each_iteration || it + 1 == options.iterations) e.Synchronize(iter);
  }
  RunResult r;
  r.mode = "replay";
  r.graph = c->name;
  r.iterations = options.iterations;
  r.tasks = n * options.iterations;
  e.Fill(r);
  trace.end_ns = r.wall_ns;
  if (full) {
    trace_ = std::move(trace);
  } else {
    trace_ = NewTrace(trace.title + " (no trace kept)", p.streams);
    trace_.end_ns = r.wall_ns;
  }
  has_trace_ = true;
  return r;
}

Status SimDevice::Release(uint32_t id) {
  for (size_t i = 0; i < captured_.size(); ++i) {
    if (captured_[i].id == id) {
      AIRSCOPE_RETURN_IF_ERROR(allocator_.ReleasePool(captured_[i].pool));
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

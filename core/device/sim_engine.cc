#include "core/device/sim_engine.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/analysis/node_util.h"
#include "core/interrupt.h"

namespace airscope {

Prepared Prepare(const TaskGraph& graph, const DeviceSpec& spec, DType dtype, const std::string& default_as) {
  Prepared p;
  std::map<std::string, uint32_t, std::less<>> stream_index;
  auto stream_of = [&](const std::string& s) {
    const std::string& name = s.empty() && !default_as.empty() ? default_as : s;
    // find first: emplace would build (and drop) a node for every task.
    auto it = stream_index.find(name);
    if (it != stream_index.end()) return it->second;
    stream_index.emplace(name, static_cast<uint32_t>(p.streams.size()));
    p.streams.push_back(StreamDisplayName(name));
    return static_cast<uint32_t>(p.streams.size() - 1);
  };
  for (const std::string& s : graph.streams) stream_of(s);
  std::map<std::string, int32_t, std::less<>> event_index;
  std::vector<int64_t> last_user(graph.tasks.size(), -1);
  p.tasks.reserve(graph.tasks.size());
  p.out_bytes.reserve(graph.tasks.size());
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
        pt.dur =
            t.cost_known ? spec.KernelNs(t.cost, t.dtype != DType::kUnknown ? t.dtype : dtype) : spec.min_kernel_ns;
        break;
      case TaskKind::kMemcpy: pt.dur = spec.D2DNs(std::max(t.cost.bytes_read, t.cost.bytes_written)); break;
      case TaskKind::kHostSync:
        pt.dur = spec.H2DNs(t.cost.bytes_read);  // the device-to-host copy, same link
        break;
      default: pt.dur = 0;
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
    // An in-place op (add_, copy_) writes into its first argument's memory:
    // it makes no tensor of its own.
    bool makes_tensor = (t.kind == TaskKind::kKernel || t.kind == TaskKind::kMemcpy) && OutOfPlaceTarget(t.op).empty();
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

std::string TaskLabel(const DeviceTask& t) {
  switch (t.kind) {
    case TaskKind::kEventRecord: return fmt::format("record {}", t.event);
    case TaskKind::kEventWait: return fmt::format("wait {}", t.event);
    default: return t.node;
  }
}

Engine::Engine(const Prepared& p, const DeviceSpec& spec, Trace* trace)
    : p_(p),
      spec_(spec),
      trace_(trace),
      sfree_(p.streams.size(), 0),
      ran_(p.streams.size(), 0),
      busy_(p.streams.size(), 0),
      event_time_(p.events, 0),
      event_slice_(p.events, -1),
      end_(p.tasks.size(), 0) {}

int32_t Engine::HostSlice(SliceCategory cat, std::string_view prefix, const std::string& name, int64_t dur,
                          int32_t iter, int64_t task) {
  int32_t idx = -1;
  if (trace_) {
    std::string full;
    full.reserve(prefix.size() + name.size());
    full.append(prefix).append(name);
    idx = Add(0, cat, std::move(full), host, dur, iter, task);
  }
  host += dur;
  host_busy += dur;
  return idx;
}

int32_t Engine::Add(uint32_t track, SliceCategory cat, std::string name, int64_t start, int64_t dur, int32_t iter,
                    int64_t task) {
  trace_->slices.push_back({track, cat, std::move(name), start, dur, iter, task});
  return static_cast<int32_t>(trace_->slices.size() - 1);
}

void Engine::AddCounter(const char* name, int64_t at, int64_t value) {
  if (trace_) trace_->counters.push_back({name, at, value});
}

void Engine::AddFlow(FlowKind kind, int32_t from, int32_t to) {
  if (trace_ && from >= 0 && to >= 0) {
    trace_->flows.push_back({kind, static_cast<uint32_t>(from), static_cast<uint32_t>(to)});
  }
}

int32_t Engine::RunTask(uint32_t i, int64_t ready, int64_t gap, int32_t iter, const std::string& name) {
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
        slice = Add(s + 1, t.kind == TaskKind::kKernel ? SliceCategory::kKernel : SliceCategory::kMemcpy, name, start,
                    t.dur, iter, i);
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
        slice = Add(s + 1, SliceCategory::kEvent, name, at, 0, iter, i);
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
        slice = Add(s + 1, SliceCategory::kWait, name, arrive, done - arrive, iter, i);
        AddFlow(FlowKind::kEvent, event_slice_[t.event], slice);
      }
      break;
    }
  }
  return slice;
}

int64_t Engine::DeviceDone() const {
  int64_t t = 0;
  for (int64_t f : sfree_) t = std::max(t, f);
  return t;
}

void Engine::Synchronize(int32_t iter) {
  int64_t back = std::max(host, DeviceDone()) + spec_.sync_return_ns;
  if (trace_) Add(0, SliceCategory::kSync, "synchronize", host, back - host, iter, -1);
  host = back;
}

void Engine::StartGraph(int64_t at) {
  for (size_t s = 0; s < sfree_.size(); ++s) {
    sfree_[s] = std::max(sfree_[s], at);
    ran_[s] = 0;
  }
}

void Engine::RunMemcpyOn(uint32_t s, int64_t ready, int64_t dur) {
  int64_t start = std::max(ready, sfree_[s] + (ran_[s] ? spec_.kernel_gap_ns : 0));
  sfree_[s] = start + dur;
  ran_[s] = 1;
  busy_[s] += dur;
  last_start_ = start;
}

int64_t Engine::End() const { return std::max(host, DeviceDone()); }

void Engine::Fill(RunResult& r) const {
  r.host_busy_ns = host_busy;
  r.wall_ns = End();
  r.device_busy_ns = 0;
  for (size_t s = 0; s < busy_.size(); ++s) {
    r.device_busy_ns += busy_[s];
    r.streams.push_back({p_.streams[s], busy_[s]});
  }
}

EagerFailure RunEagerIterations(const EagerLoop& l) {
  static const std::string kNoName;
  const Prepared& p = l.p;
  const DeviceSpec& spec = l.spec;
  Engine& e = l.e;
  CachingAllocator& memory = l.memory;
  std::vector<BlockId> blocks(p.tasks.size(), 0);
  bool steady = false;  // the allocator is skipped (l.skip_steady_memory)
  int64_t steady_allocations = 0, repeats = 0;
  EagerFailure failed;
  auto counter = [&](int64_t at) {
    e.AddCounter("allocated (default pool)", at, l.counter_base + memory.Stats(kDefaultPool).allocated);
  };
  for (int64_t it = 0; it < l.last; ++it) {
    if (l.interruptible && InterruptRequested()) {
      failed = {it, 0, InterruptedStatus(), true};
      break;
    }
    if (it == l.stop_recording) e.StopRecording();
    const bool rec = e.recording();
    const int32_t iter = static_cast<int32_t>(it);
    CachingAllocator::Layout before;
    if (l.skip_steady_memory && !steady) before = memory.PoolLayout(kDefaultPool);
    int64_t allocations = 0;
    for (uint32_t i = 0; i < p.tasks.size(); ++i) {
      const Prepared::Task& t = p.tasks[i];
      const std::string& label = rec ? (*l.labels)[i] : kNoName;
      int64_t issue_cost = 0;
      SliceCategory host_cat = SliceCategory::kLaunch;
      if (t.kind == TaskKind::kEventRecord) {
        issue_cost = spec.event_record_ns;
        host_cat = SliceCategory::kEvent;
      } else if (t.kind == TaskKind::kEventWait) {
        issue_cost = spec.event_wait_ns;
        host_cat = SliceCategory::kWait;
      } else {
        if (l.options.framework_dispatch && spec.host_dispatch_ns > 0) {
          e.HostSlice(SliceCategory::kDispatch, "dispatch ", label, spec.host_dispatch_ns, iter, i);
        }
        issue_cost = spec.host_launch_ns;
      }
      int32_t launch = e.HostSlice(host_cat, "launch ", label, issue_cost, iter, i);
      if (p.out_bytes[i] > 0 && !steady) {
        if (l.inject && it == l.inject->iteration && i == l.inject->task) {
          failed = *l.inject;
          break;
        }
        Result<BlockId> b = memory.Allocate(kDefaultPool, p.out_bytes[i]);
        if (!b.ok()) {
          failed = {it, i, b.status()};
          break;
        }
        blocks[i] = *b;
        ++allocations;
        if (rec) counter(e.host);
      }
      int32_t slice = e.RunTask(i, e.host + spec.launch_latency_ns, spec.kernel_gap_ns, iter, label);
      if (t.kind != TaskKind::kEventWait && t.kind != TaskKind::kEventRecord) {
        e.AddFlow(FlowKind::kLaunch, launch, slice);
      }
      if (t.kind == TaskKind::kHostSync) {
        // .item(): the host waits for the value.
        int64_t back = std::max(e.host, e.task_end(i)) + spec.sync_return_ns;
        if (rec) e.Add(0, SliceCategory::kSync, "sync " + label, e.host, back - e.host, iter, i);
        e.host = back;
      }
      if (!steady && !p.frees_after[i].empty()) {
        for (uint32_t f : p.frees_after[i]) {
          memory.Free(blocks[f]);
          blocks[f] = 0;
        }
        if (rec) counter(e.host);
      }
    }
    if (failed.iteration >= 0) break;
    if (!steady) {
      for (uint32_t f : p.unused) {
        memory.Free(blocks[f]);
        blocks[f] = 0;
      }
    }
    if (rec) counter(e.host);
    if (l.options.sync_each_iteration || it + 1 == l.options.iterations) e.Synchronize(iter);
    if (steady) {
      ++repeats;
    } else if (l.skip_steady_memory && memory.PoolLayout(kDefaultPool) == before) {
      steady = true;
      steady_allocations = allocations;
    }
  }
  if (failed.iteration >= 0) {
    for (BlockId b : blocks) memory.Free(b);
  }
  memory.CountRepeats(kDefaultPool, steady_allocations, repeats);
  return failed;
}

bool RunReplayIterations(const ReplayLoop& l) {
  static const std::string kNoName;
  const Prepared& p = l.p;
  const DeviceSpec& spec = l.spec;
  Engine& e = l.e;
  const uint32_t cap = 0;  // the capture stream is the first stream
  const int64_t n = static_cast<int64_t>(p.tasks.size());
  std::vector<int64_t> copy_ns;
  for (const GraphInput& in : l.inputs) copy_ns.push_back(spec.D2DNs(static_cast<double>(in.bytes)));
  std::vector<uint8_t> seen(p.streams.size(), 0);
  for (int64_t it = 0; it < l.last; ++it) {
    if (l.interruptible && InterruptRequested()) return false;
    const bool rec = e.recording();
    const int32_t iter = static_cast<int32_t>(it);
    for (size_t k = 0; k < l.inputs.size(); ++k) {
      int32_t launch = e.HostSlice(SliceCategory::kLaunch, "copy ", l.inputs[k].name, spec.host_launch_ns, iter, -1);
      e.RunMemcpyOn(cap, e.host + spec.launch_latency_ns, copy_ns[k]);
      if (rec) {
        int32_t s =
            e.Add(cap + 1, SliceCategory::kMemcpy, "copy " + l.inputs[k].name, e.last_start(), copy_ns[k], iter, -1);
        e.AddFlow(FlowKind::kLaunch, launch, s);
      }
    }
    int32_t launch = e.HostSlice(SliceCategory::kGraphLaunch, "graph launch ", l.graph,
                                 spec.graph_launch_ns + spec.graph_launch_per_node_ns * n, iter, -1);
    e.StartGraph(e.host + spec.launch_latency_ns);
    if (rec) std::fill(seen.begin(), seen.end(), 0);
    for (uint32_t i = 0; i < p.tasks.size(); ++i) {
      int32_t slice = e.RunTask(i, 0, spec.graph_task_gap_ns, iter, rec ? (*l.labels)[i] : kNoName);
      uint32_t s = p.tasks[i].stream;
      if (rec && !seen[s]) {
        seen[s] = 1;
        e.AddFlow(FlowKind::kLaunch, launch, slice);
      }
    }
    if (l.options.sync_each_iteration || it + 1 == l.options.iterations) e.Synchronize(iter);
  }
  return true;
}

}  // namespace airscope

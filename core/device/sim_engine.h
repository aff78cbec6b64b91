// The simulator's inner loops, shared by SimDevice's runs and by the traced
// reruns that build a run's Trace on demand (simulator.cc); not an API of
// its own.
//
// Prepared: a TaskGraph flattened for the hot loop (small integers, no
// strings, every duration from the DeviceSpec computed once). Engine: one
// run's clocks (the host, each stream, each event, each task's end) and,
// while it records, the Trace it appends slices, flows and counters to.
// RunEagerIterations / RunReplayIterations: the per-iteration loops. Whether
// they record or not, the clocks advance identically, so a trace built by a
// rerun shows exactly what the run did.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "core/device/allocator.h"
#include "core/device/device_spec.h"
#include "core/device/simulator.h"
#include "core/device/trace.h"
#include "core/ir/dtype.h"
#include "core/lower/task_graph.h"

namespace airscope {

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

// `default_as` renames the default stream "" (empty: keep it).
Prepared Prepare(const TaskGraph& graph, const DeviceSpec& spec, DType dtype, const std::string& default_as);

// A task's name in a trace: the node, or "record EVENT" / "wait EVENT".
std::string TaskLabel(const DeviceTask& t);

class Engine {
 public:
  // `trace` null: totals only.
  Engine(const Prepared& p, const DeviceSpec& spec, Trace* trace);

  int64_t host = 0;
  int64_t host_busy = 0;

  bool recording() const { return trace_ != nullptr; }
  void StopRecording() { trace_ = nullptr; }

  // A host slice of `dur` named prefix + name (built only while recording).
  // Returns its index, -1 when not recording.
  int32_t HostSlice(SliceCategory cat, std::string_view prefix, const std::string& name, int64_t dur, int32_t iter,
                    int64_t task);
  // Appends a slice; only while recording.
  int32_t Add(uint32_t track, SliceCategory cat, std::string name, int64_t start, int64_t dur, int32_t iter,
              int64_t task);
  void AddFlow(FlowKind kind, int32_t from, int32_t to);
  void AddCounter(const char* name, int64_t at, int64_t value);

  // Runs task i on its stream once it is ready at `ready`; `gap` before it if
  // the stream already ran work in this context. Returns the device slice
  // (-1 when not recording).
  int32_t RunTask(uint32_t i, int64_t ready, int64_t gap, int32_t iter, const std::string& name);

  int64_t task_end(uint32_t i) const { return end_[i]; }
  int64_t DeviceDone() const;
  // Host blocks until every stream is idle, then returns after sync_return_ns.
  void Synchronize(int32_t iter);
  // Graph replay: the in-graph gap counts from the graph's own first task.
  void StartGraph(int64_t at);
  void RunMemcpyOn(uint32_t s, int64_t ready, int64_t dur);
  int64_t last_start() const { return last_start_; }
  // The run's end: the host and every stream done.
  int64_t End() const;
  // Totals into r (host/device busy, wall time, per-stream busy).
  void Fill(RunResult& r) const;

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

// Where an eager run stopped: its first failed allocation, or the iteration
// a Ctrl-C stopped it before (interrupted); iteration < 0: it ran to the end.
struct EagerFailure {
  int64_t iteration = -1;
  uint32_t task = 0;
  Status status;
  bool interrupted = false;
};

struct EagerLoop {
  const Prepared& p;
  const DeviceSpec& spec;
  const RunOptions& options;  // options.iterations is the run's length (it decides the last sync)
  Engine& e;
  CachingAllocator& memory;  // the default pool serves the task outputs
  int64_t last = 0;          // iterations to simulate: [0, last)
  // While e records: the tasks' names, the iteration it stops recording at,
  // and the counters' base (the allocated bytes of the run's own allocator
  // when it began, when memory is a scratch allocator).
  const std::vector<std::string>* labels = nullptr;
  int64_t stop_recording = std::numeric_limits<int64_t>::max();
  int64_t counter_base = 0;
  // A rerun of a run that failed: fail here instead of allocating.
  const EagerFailure* inject = nullptr;
  // The run itself: once an iteration leaves the default pool's layout as it
  // found it, every later one would do the same requests with the same
  // answers, so they skip the allocator and CountRepeats() accounts for them.
  bool skip_steady_memory = false;
  // Stop between iterations when the user interrupts (core/interrupt.h): the
  // run a command asked for, not a rerun that builds its trace.
  bool interruptible = false;
};
// On failure the blocks of the failed iteration are freed again; the caller
// synchronizes and reports.
EagerFailure RunEagerIterations(const EagerLoop& loop);

struct ReplayLoop {
  const Prepared& p;
  const DeviceSpec& spec;
  const RunOptions& options;
  Engine& e;
  const std::vector<GraphInput>& inputs;             // copied into the static buffers each iteration
  const std::string& graph;                          // its name, for the graph launch slice
  int64_t last = 0;                                  // iterations to simulate: [0, last)
  const std::vector<std::string>* labels = nullptr;  // while e records
  bool interruptible = false;                        // as EagerLoop::interruptible
};
// False when interrupted (between iterations) before the last one ran.
bool RunReplayIterations(const ReplayLoop& loop);

}  // namespace airscope

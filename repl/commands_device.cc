// Device commands: the simulated NPU. `device` shows and changes the cost
// model, `eager` / `capture` / `replay` run the current graph's task graph,
// `mem` shows the allocator's pools, `timeline` draws (or writes as Chrome
// trace JSON) the last run, `runstats` summarises it.
//
// `runstats` is its own command because `stats` summarises the graph; device
// parameters change through `device set PARAM VALUE` and, equivalently,
// `set device.PARAM VALUE` (the `set` command forwards `device.*` names here,
// because the Settings table is static and the parameters belong to the device).
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/device/capture_check.h"
#include "core/file_util.h"
#include "core/lower/task_graph.h"
#include "repl/command_table.h"
#include "repl/compile.h"
#include "repl/interpreter.h"
#include "repl/runtime_call.h"
#include "viz/chrome_trace.h"
#include "viz/run_stats.h"
#include "viz/timeline.h"

namespace airscope {

Status SetDeviceParameter(Session& session, std::string_view name, std::string_view value) {
  DeviceSpec spec = session.device().sim.spec();
  AIRSCOPE_RETURN_IF_ERROR(SetDeviceParam(spec, name, value));
  session.device().sim.set_spec(std::move(spec));
  return Status::Ok();
}

namespace {

Result<int64_t> ParsePositive(const Word& word, std::string_view what) {
  std::optional<int64_t> v = WordAsInt(word);
  if (!v || *v < 1) {
    return Status::Errorf("column {}: {} must be a whole number >= 1, not '{}'", word.column, what, word.text);
  }
  return *v;
}

struct Lowered {
  std::string name;
  TaskGraph tasks;
  std::vector<GraphInput> inputs;
  DType dtype = DType::kFloat32;
  std::string source;  // which graph (Compiled::source)
};

// The current graph as device tasks (later: the pipeline's lowered stage).
Result<Lowered> LowerCurrent(Session& session) {
  Result<Session::Entry*> entry = session.Current();
  if (!entry.ok()) return entry.status();
  // The device runs what TorchAir would run: the graph after `lower`.
  Result<Compiled> lowered = LoweredCurrentGraph(session);
  if (!lowered.ok()) return lowered.status();
  const Graph& graph = *lowered->graph;
  Result<TaskGraph> tasks = BuildTaskGraph(graph, session.registry());
  if (!tasks.ok()) return tasks.status().WithPrefix("lower");
  Lowered l;
  l.name = (*entry)->name;
  l.tasks = std::move(*tasks);
  l.source = std::move(lowered->source);
  bool dtype_set = false;
  for (const Node* p : graph.Placeholders()) {
    const TensorMeta* t = p->tensor();
    if (!t) continue;
    if (!dtype_set && t->dtype != DType::kUnknown) {
      l.dtype = t->dtype;
      dtype_set = true;
    }
    l.inputs.push_back({p->name(), t->NumBytes().value_or(0)});
  }
  return l;
}

// "eager N" / "replay N" arguments: [N] [--no-sync].
Result<RunOptions> ParseRunArgs(const std::vector<Word>& args, std::string_view usage) {
  RunOptions o;
  bool have_n = false;
  for (const Word& w : args) {
    if (w.text == "--no-sync") {
      o.sync_each_iteration = false;
    } else if (!have_n && !w.text.empty() && w.text[0] != '-') {
      Result<int64_t> n = ParsePositive(w, "the iteration count");
      if (!n.ok()) return n.status();
      o.iterations = *n;
      have_n = true;
    } else {
      return Status::Errorf("usage: {}", usage);
    }
  }
  // The trace stays on whatever N: the run costs the same per task with it
  // (the simulator builds it on demand, for the first iterations only).
  return o;
}

void PrintRun(CommandContext& ctx, const RunResult& r, const RunResult* eager) {
  const DeviceSpec& spec = ctx.session.device().sim.spec();
  ctx.out.Styled(Style::kHeading, "{} {} x{} on {}: {} tasks/iteration", r.mode, r.graph, r.iterations, spec.name,
                 r.tasks / r.iterations);
  // Kernels without a cost (no shapes) run at min_kernel_ns: device time and
  // what follows from it are then lower bounds, and say so.
  const bool bound = r.unknown_cost_kernels > 0;
  auto at_least = [bound](int64_t ns) { return fmt::format("{}{}", bound ? ">= " : "", FormatNs(ns)); };
  ctx.out.Print("  host time    {:>12} /iteration", FormatNs(r.host_per_iter()));
  ctx.out.Print("  device time  {:>12} /iteration", at_least(r.device_per_iter()));
  ctx.out.Print("  end-to-end   {:>12} /iteration", at_least(r.e2e_per_iter()));
  if (bound) {
    ctx.out.Styled(Style::kBad, "  >= lower bounds: {} of {} kernels have no cost (a shape unknown, or an op without a "
                   "cost model) and count as {} each; set input NAME f32[...] gives an input's shape",
                   r.unknown_cost_kernels, r.kernels, FormatNs(spec.min_kernel_ns));
  }
  if (eager) {
    double speedup = static_cast<double>(eager->e2e_per_iter()) / static_cast<double>(r.e2e_per_iter());
    if (bound || eager->unknown_cost_kernels > 0) {
      ctx.out.Print("  speedup vs eager: {:.2f}x of two lower bounds, not a measurement (eager >= {} /iteration)",
                    speedup, FormatNs(eager->e2e_per_iter()));
    } else {
      ctx.out.Print("  speedup vs eager: {:.2f}x (eager {} /iteration)", speedup, FormatNs(eager->e2e_per_iter()));
    }
  }
}

Status DeviceCommand(CommandContext& ctx) {
  DeviceState& dev = ctx.session.device();
  if (ctx.args.size() == 1) {
    Result<DeviceSpec> spec = DevicePreset(ctx.args[0].text);
    if (!spec.ok()) return spec.status();
    dev.sim.set_spec(std::move(*spec));
    ctx.out.Print("device: {}", dev.sim.spec().name);
    return Status::Ok();
  }
  if (!ctx.args.empty()) {
    if (ctx.args.size() == 3 && ctx.args[0].text == "set") {
      AIRSCOPE_RETURN_IF_ERROR(SetDeviceParameter(ctx.session, ctx.args[1].text, ctx.args[2].text));
      ctx.out.Print("device.{} = {}", ctx.args[1].text, *GetDeviceParam(dev.sim.spec(), ctx.args[1].text));
      return Status::Ok();
    }
    return Status::Error("usage: device [PRESET | set PARAM VALUE]");
  }
  const DeviceSpec& spec = dev.sim.spec();
  ctx.out.Styled(Style::kHeading, "device {} (presets: {})", spec.name, fmt::join(DevicePresetNames(), ", "));
  for (const DeviceParamInfo& p : DeviceParams()) {
    ctx.out.Print("  {:<26} {:>14} {:<7} {}", p.name, *GetDeviceParam(spec, p.name), p.unit, p.help);
  }
  return Status::Ok();
}

Status Eager(CommandContext& ctx) {
  Result<RunOptions> opts = ParseRunArgs(ctx.args, "eager [N] [--no-sync]");
  if (!opts.ok()) return opts.status();
  Result<Lowered> l = LowerCurrent(ctx.session);
  if (!l.ok()) return l.status();
  opts->compute_dtype = l->dtype;
  DeviceState& dev = ctx.session.device();
  Result<RunResult> r = dev.sim.Eager(l->tasks, l->name, *opts);
  if (!r.ok()) return r.status();
  dev.last_eager[l->name] = *r;
  PrintRun(ctx, *r, nullptr);
  ctx.out.Styled(Style::kDim, "  from {}", l->source);
  return Status::Ok();
}

Status CaptureCheckCommand(CommandContext& ctx) {
  Result<Session::Entry*> entry = ctx.session.Current();
  if (!entry.ok()) return entry.status();
  std::vector<CaptureIssue> issues = CaptureCheck(*(*entry)->loaded.graph);
  if (issues.empty()) {
    ctx.out.Styled(Style::kGood, "capture check: nothing in '{}' keeps it from being captured", (*entry)->name);
    return Status::Ok();
  }
  ctx.out.Styled(Style::kBad, "capture check: {} issue(s) in '{}':", issues.size(), (*entry)->name);
  for (const CaptureIssue& i : issues) ctx.out.Print("  {}: {}", i.node, i.reason);
  return Status::Ok();
}

Status Capture(CommandContext& ctx) {
  if (ctx.args.size() == 1 && ctx.args[0].text == "check") return CaptureCheckCommand(ctx);
  CaptureOptions opts;
  for (size_t i = 0; i < ctx.args.size(); ++i) {
    const std::string& a = ctx.args[i].text;
    if ((a == "--stream" || a == "--end-stream") && i + 1 < ctx.args.size()) {
      (a == "--stream" ? opts.capture_stream : opts.end_stream) = ctx.args[++i].text;
      if (a == "--end-stream" && opts.end_stream.empty()) opts.end_stream = "default";
    } else {
      return Status::Error("usage: capture [check] [--stream NAME] [--end-stream NAME]");
    }
  }
  Result<Lowered> l = LowerCurrent(ctx.session);
  if (!l.ok()) return l.status();
  opts.compute_dtype = l->dtype;
  DeviceState& dev = ctx.session.device();
  Result<uint32_t> id = dev.sim.Capture(l->tasks, l->name, l->inputs, opts);
  if (!id.ok()) return id.status();
  const CapturedGraph* c = dev.sim.FindCaptured(l->name);
  const PoolStats& pool = dev.sim.allocator().Stats(c->pool);
  std::vector<std::string> streams;
  for (const std::string& s : c->tasks.streams) streams.push_back(StreamDisplayName(s));
  // Outputs of kernels without a cost have no known size: the pool holds at least what is shown.
  int64_t unsized = CountKernels(c->tasks).unknown_cost;
  ctx.out.Print("captured {} as graph {} on stream '{}': {} tasks on {} stream(s) ({}), pool '{}' reserves {}{}",
                c->name, c->id, c->capture_stream, c->tasks.tasks.size(), streams.size(), fmt::join(streams, ", "),
                pool.name, unsized ? ">= " : "", FormatBytes(pool.reserved));
  if (unsized) {
    ctx.out.Styled(Style::kBad, "  >= a lower bound: {} kernel(s) have no cost, so no output size: the pool holds nothing for them", unsized);
  }
  ctx.out.Styled(Style::kDim, "  from {}", l->source);
  return Status::Ok();
}

Status Replay(CommandContext& ctx) {
  Result<RunOptions> opts = ParseRunArgs(ctx.args, "replay [N] [--no-sync]");
  if (!opts.ok()) return opts.status();
  Result<Session::Entry*> entry = ctx.session.Current();
  if (!entry.ok()) return entry.status();
  DeviceState& dev = ctx.session.device();
  const CapturedGraph* c = dev.sim.FindCaptured((*entry)->name);
  if (!c) return Status::Errorf("'{}' has not been captured: run capture first", (*entry)->name);
  Result<RunResult> r = dev.sim.Replay(c->id, *opts);
  if (!r.ok()) return r.status();
  auto eager = dev.last_eager.find(r->graph);
  PrintRun(ctx, *r, eager == dev.last_eager.end() ? nullptr : &eager->second);
  return Status::Ok();
}

Status Mem(CommandContext& ctx) {
  const bool graphs = ctx.args.size() == 1 && ctx.args[0].text == "--graph";
  if (!ctx.args.empty() && !graphs) return Status::Error("usage: mem [--graph]");
  const SimDevice& sim = ctx.session.device().sim;
  const CachingAllocator& a = sim.allocator();
  ctx.out.Styled(Style::kHeading, "memory on {}: {} reserved of {}", sim.spec().name, FormatBytes(a.total_reserved()),
                 FormatBytes(a.capacity()));
  ctx.out.Print("  {:<20} {:>12} {:>12} {:>12} {:>9} {:>7}  {}", "pool", "reserved", "allocated", "high-water",
                "segments", "reuse", "held by");
  for (PoolId id : a.Pools()) {
    const PoolStats& s = a.Stats(id);
    std::string held = id == kDefaultPool ? "eager runs" : "-";
    std::vector<std::string> holders;  // TorchAir captures every key of an FX graph into one pool
    for (const CapturedGraph& c : sim.captured()) {
      if (c.pool == id) holders.push_back(fmt::format("{} ({})", c.id, c.name));
    }
    if (holders.size() == 1) held = "captured graph " + holders[0];
    if (holders.size() > 1) held = fmt::format("captured graphs {}", fmt::join(holders, ", "));
    if (id == kDefaultPool && !ctx.session.device().buffers.handles().empty()) held += ", the caller's buffers";
    ctx.out.Print("  {:<20} {:>12} {:>12} {:>12} {:>9} {:>3}/{:<3}  {}", s.name, FormatBytes(s.reserved),
                  FormatBytes(s.allocated), FormatBytes(s.peak_allocated), s.segments, s.reused, s.allocations, held);
  }
  if (graphs) PrintGraphAddresses(ctx.session, ctx.out);
  return Status::Ok();
}

// The plot's columns: as many as the terminal has beside the row labels
// (10 characters); 100 when the output is not a terminal, so scripts and
// their golden files do not depend on a window's size.
int DefaultTimelineWidth() {
  winsize size{};
  if (!isatty(STDOUT_FILENO) || ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) != 0 || size.ws_col == 0) return 100;
  return std::clamp(static_cast<int>(size.ws_col) - 11, 10, 1000);
}

Status Timeline(CommandContext& ctx) {
  DeviceState& dev = ctx.session.device();
  int width = DefaultTimelineWidth();
  std::string json_path;
  for (size_t i = 0; i < ctx.args.size(); ++i) {
    const Word& w = ctx.args[i];
    if (w.text == "--width" && i + 1 < ctx.args.size()) {
      Result<int64_t> v = ParsePositive(ctx.args[++i], "the width");
      if (!v.ok()) return v.status();
      if (*v < 10 || *v > 1000) return Status::Errorf("the width must be between 10 and 1000, not {}", *v);
      width = static_cast<int>(*v);
    } else if (w.text == "--json" && i + 1 < ctx.args.size()) {
      json_path = Interpreter::ExpandHome(ctx.args[++i].text);
    } else {
      return Status::Error("usage: timeline [--width W] | timeline --json PATH");
    }
  }
  if (!dev.sim.has_trace()) return Status::Error("no run yet: run eager, capture or replay first");
  const Trace& trace = dev.sim.last_trace();
  if (!json_path.empty()) {
    std::string text = ChromeTraceJson(trace);
    if (json_path == "-") {
      ctx.out.AddBlock(text, Style::kData);
      return Status::Ok();
    }
    AIRSCOPE_RETURN_IF_ERROR(WriteFile(json_path, text));
    size_t x = 0;
    for (const Slice& s : trace.slices) x += s.category != SliceCategory::kError;
    ctx.out.Print("wrote {} (Chrome trace: {} slices, {} flows, {} tracks; open in ui.perfetto.dev)", json_path, x,
                  trace.flows.size(), trace.tracks.size());
    return Status::Ok();
  }
  ctx.out.AddBlock(RenderTimeline(trace, width));
  return Status::Ok();
}

Status RunStatsCommand(CommandContext& ctx) {
  if (!ctx.args.empty()) return Status::Error("usage: runstats");
  DeviceState& dev = ctx.session.device();
  if (!dev.sim.has_trace()) return Status::Error("no run yet: run eager, capture or replay first");
  const Trace& trace = dev.sim.last_trace();
  RunStats s = ComputeRunStats(trace);
  ctx.out.Styled(Style::kHeading, "run: {} on {}, span {}", trace.title, trace.device, FormatNs(s.span_ns));
  ctx.out.Print("  host busy {} ({:.1f}%)", FormatNs(s.host_busy_ns),
                s.span_ns ? 100.0 * static_cast<double>(s.host_busy_ns) / static_cast<double>(s.span_ns) : 0.0);
  for (const TrackStats& t : s.streams) {
    ctx.out.Print("  stream {:<12} busy {:>12} ({:5.1f}%)  longest idle gap {}", t.name, FormatNs(t.busy_ns),
                  t.busy_pct,
                  t.longest_gap_ns ? fmt::format("{} at {}: {}", FormatNs(t.longest_gap_ns), FormatNs(t.gap_start_ns),
                                                 t.gap_cause)
                                   : std::string("none"));
  }
  ctx.out.Print("  overlap between streams: {}", FormatNs(s.overlap_ns));
  return Status::Ok();
}

// What the trace of a long run keeps, for eager's and replay's help.
std::string TraceNote() {
  return fmt::format("`timeline` and `runstats` show the first iterations\n"
                     "(whole ones, up to {} tasks; the title says when the trace stops early).",
                     kTraceTaskBudget);
}

CompletionRule Fixed(std::vector<std::string> choices) { return {CompletionKind::kFixed, std::move(choices)}; }

}  // namespace

void RegisterDeviceCommands(CommandTable& table) {
  table.Add({"device", "device [PRESET | set PARAM VALUE]", "show or change the simulated device's cost model",
             "Without arguments shows every parameter of the device model (compute peaks, bandwidths, host\n"
             "dispatch and launch costs, launch latency, gaps, graph launch cost, sync latency, capacity).\n"
             "`device PRESET` switches to a preset (ascend-910b, a100, h100); `device set PARAM VALUE`\n"
             "(or `set device.PARAM VALUE`) changes one; rates take K/M/G/T suffixes (`354T`).",
             DeviceCommand, [](const std::vector<std::string>& before) {
               if (before.empty()) {
                 std::vector<std::string> c = DevicePresetNames();
                 c.push_back("set");
                 return Fixed(c);
               }
               if (before.size() == 1 && before[0] == "set") {
                 std::vector<std::string> c;
                 for (const DeviceParamInfo& p : DeviceParams()) c.push_back(p.name);
                 return Fixed(c);
               }
               return CompletionRule{};
             }});
  table.Add({"eager", "eager [N] [--no-sync]", "run the current graph op by op on the simulated device",
             "Runs the current graph's device tasks N times (default 1) eagerly: every op pays host dispatch\n"
             "and a launch, then runs on its stream after the launch latency and its dependencies. The host\n"
             "synchronizes after each iteration (--no-sync: once at the end). Prints host, device and\n"
             "end-to-end time per iteration. " + TraceNote(),
             Eager, nullptr});
  table.Add({"capture", "capture [check] [--stream S]",
             "capture the current graph into a device graph (aclgraph), or check that it can be",
             "Records the graph's tasks on a capture stream (default 'capture'; the graph's default-stream\n"
             "tasks go there) into a graph whose tensors live in a private memory pool. Side streams join\n"
             "by waiting on an event recorded in the capture and must join back before the end. Errors\n"
             "carry aclgraph's codes: default-stream capture refused (207000), unjoined stream (107025),\n"
             "host sync during capture (507903), ending on another stream (107036), a stream used without\n"
             "joining (107024); --end-stream S ends it on S (to see that error).\n"
             "`capture check` lists what keeps the graph from being captured up front.",
             Capture, [](const std::vector<std::string>& before) {
               return before.empty() ? Fixed({"check", "--stream", "--end-stream"}) : CompletionRule{};
             }});
  table.Add({"replay", "replay [N] [--no-sync]", "replay the current graph's captured device graph N times",
             "Per iteration: input copies into the static buffers, one graph launch, then the tasks with\n"
             "their stream and event dependencies. Prints host, device and end-to-end time per iteration\n"
             "and the speedup over the last eager run of the same graph.\n" + TraceNote(),
             Replay, nullptr});
  table.Add({"mem", "mem [--graph]", "device memory: reserved / allocated / high-water per pool",
             "Shows the caching allocator's pools: the default pool (eager runs, the buffers reduce-overhead calls\n"
             "pass) and the private pools of captured graphs, held until the graph is replaced: one per `capture`,\n"
             "one per FX graph for reduce-overhead calls, shared by the captures of all its graph keys as TorchAir\n"
             "shares its mempool (acl_graph.py:946-962); reuse counts allocations served from cache.\n"
             "--graph: per captured graph, the addresses it baked in: staged or captured inputs, parameters,\n"
             "mutated inputs, outputs (which are whose, and which TorchAir keeps alive), then the buffers the\n"
             "caller holds. Addresses are airscope's: segment and offset in the simulated allocator.",
             Mem, [](const std::vector<std::string>& before) {
               return before.empty() ? Fixed({"--graph"}) : CompletionRule{};
             }});
  table.Add({"timeline", "timeline [--width W | --json PATH]", "draw the last run per stream",
             "Draws the last eager/capture/replay run, as wide as the terminal (or --width W; 100 columns when\n"
             "the output is not a terminal): one row for the host and one per stream, a time axis,\n"
             "kernel names where they fit, waits as ~, then utilisation and the longest idle gap per stream\n"
             "with its cause. --json PATH writes Chrome trace JSON for ui.perfetto.dev (as dump writes files;\n"
             "--json - prints it).",
             Timeline, [](const std::vector<std::string>& before) {
               if (!before.empty() && before.back() == "--json") return CompletionRule{CompletionKind::kFile, {}};
               return before.empty() ? Fixed({"--width", "--json"}) : CompletionRule{};
             }});
  table.Add({"runstats", "runstats", "statistics of the last run: busy %, overlap, idle gaps",
             "For the last eager/capture/replay run: host busy time, each stream's busy time and\n"
             "utilisation, the overlap between streams (time two or more are busy), and each stream's\n"
             "longest idle gap with its cause (waiting on an event, host launch bound, nothing to do).",
             RunStatsCommand, nullptr});
}

}  // namespace airscope

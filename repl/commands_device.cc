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
#include "core/device/capture_rules.h"
#include "core/file_util.h"
#include "core/lower/task_graph.h"
#include "core/scanner.h"
#include "core/text.h"
#include "formats/chrome_trace.h"
#include "repl/aclgraph_dump.h"
#include "repl/command_table.h"
#include "repl/compile.h"
#include "repl/device_tasks.h"
#include "repl/interpreter.h"
#include "repl/runtime_call.h"
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

constexpr const char* kCaptureUsage = "capture [check] [--stream S] [--end-stream S] [--mode M]";

Result<int64_t> ParsePositive(const Word& word, std::string_view what) {
  std::optional<int64_t> v = WordAsInt(word);
  if (!v || *v < 1) {
    return ColumnErrorf(word.column, "{} must be a whole number >= 1, not '{}'", what, word.text);
  }
  return *v;
}

// "eager N" / "replay N" arguments: [N] [--no-sync].
Result<RunOptions> ParseRunArgs(const CommandContext& ctx, std::string_view usage) {
  RunOptions o;
  o.sync_each_iteration = !ctx.flags.Has("--no-sync");
  if (ctx.args.size() > 1) return UsageError(usage);
  if (ctx.args.size() == 1) {
    AIRSCOPE_ASSIGN_OR_RETURN(int64_t n, ParsePositive(ctx.args[0], "the iteration count"));
    o.iterations = n;
  }
  // The trace stays on whatever N: the run costs the same per task with it
  // (the simulator builds it on demand, for the first iterations only).
  return o;
}

int64_t TotalBytes(const std::vector<GraphInput>& inputs) {
  int64_t bytes = 0;
  for (const GraphInput& in : inputs) bytes += in.bytes;
  return bytes;
}

// What a replay copies first: every static input, each iteration.
std::string InputCopiesText(const std::vector<GraphInput>& inputs) {
  if (inputs.empty()) return "no input copies before a replay (no static inputs)";
  std::vector<std::string> names;
  for (const GraphInput& in : inputs) names.push_back(in.name);
  return fmt::format("{} input cop{} ({}) before every replay, into the static buffers: {}", inputs.size(),
                     inputs.size() == 1 ? "y" : "ies", FormatBytes(TotalBytes(inputs)), JoinAtMost(names, 4));
}

std::string ParametersInPlaceText(const std::vector<GraphInput>& parameters) {
  if (parameters.empty()) return "no lifted parameters";
  return fmt::format("{} lifted parameter(s) ({}) read in place, never copied", parameters.size(),
                     FormatBytes(TotalBytes(parameters)));
}

void PrintRun(CommandContext& ctx, const RunResult& r, const RunResult* eager) {
  const DeviceSpec& spec = ctx.session.device().sim.spec();
  // The device is simulated: every time below is the cost model's (`help device`), never a measurement.
  ctx.out.Styled(Style::kHeading, "{} {} x{} on {} (simulated): {} tasks/iteration", r.mode, r.graph, r.iterations,
                 spec.name, r.tasks / r.iterations);
  // Kernels without a cost (no shapes) run at min_kernel_ns: device time and
  // what follows from it are then lower bounds, and say so.
  const bool bound = r.unknown_cost_kernels > 0;
  auto at_least = [bound](int64_t ns) { return fmt::format("{}{}", bound ? ">= " : "", FormatNs(ns)); };
  ctx.out.Print("  host time    {:>12} /iteration", FormatNs(r.host_per_iter()));
  ctx.out.Print("  device time  {:>12} /iteration", at_least(r.device_per_iter()));
  ctx.out.Print("  end-to-end   {:>12} /iteration", at_least(r.e2e_per_iter()));
  if (bound) {
    ctx.out.Styled(Style::kBad,
                   "  >= lower bounds: {} of {} kernels have no cost (a shape unknown, or an op without a "
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
    AIRSCOPE_ASSIGN_OR_RETURN(DeviceSpec spec, DevicePreset(ctx.args[0].text));
    dev.sim.set_spec(std::move(spec));
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
  AIRSCOPE_ASSIGN_OR_RETURN(RunOptions opts, ParseRunArgs(ctx, "eager [N] [--no-sync]"));
  AIRSCOPE_ASSIGN_OR_RETURN(LoweredTasks l, LowerCurrentTasks(ctx.session));
  opts.compute_dtype = l.dtype;
  DeviceState& dev = ctx.session.device();
  AIRSCOPE_ASSIGN_OR_RETURN(RunResult r, dev.sim.Eager(l.tasks, l.name, opts));
  dev.last_eager[l.name] = r;
  PrintRun(ctx, r, nullptr);
  ctx.out.Styled(Style::kDim, "  from {}", l.source);
  return Status::Ok();
}

// What `capture check` and `capture` share: the current graph's tasks
// (waits without a record kept, for the capture rules to name) and the
// capture the flags and settings describe.
struct CapturePlan {
  LoweredTasks lowered;
  CaptureSetup setup;
};

Result<CapturePlan> PlanCapture(CommandContext& ctx, const std::vector<Word>& args) {
  std::vector<Word> rest;
  AIRSCOPE_ASSIGN_OR_RETURN(CaptureSetup setup, CaptureSetupFrom(ctx.session, args, &rest));
  if (!rest.empty()) return UsageError(kCaptureUsage);
  TaskGraphOptions options;
  options.allow_unrecorded_waits = true;
  AIRSCOPE_ASSIGN_OR_RETURN(LoweredTasks l, LowerCurrentTasks(ctx.session, options));
  return CapturePlan{std::move(l), std::move(setup)};
}

Status CaptureCheckCommand(CommandContext& ctx, const std::vector<Word>& args) {
  AIRSCOPE_ASSIGN_OR_RETURN(CapturePlan plan, PlanCapture(ctx, args));
  const CaptureSetup& setup = plan.setup;
  std::vector<CaptureViolation> refused =
      ApplyCaptureRules(OnCaptureStream(plan.lowered.tasks, setup.capture_stream), setup, false);
  Result<Session::Entry*> entry = ctx.session.Current();
  std::vector<CaptureIssue> notes = CaptureCheck(*(*entry)->loaded.graph);
  std::string how = fmt::format("capture mode {}, on stream '{}'", CaptureModeName(setup.mode),
                                StreamDisplayName(setup.capture_stream));
  if (refused.empty()) {
    ctx.out.Styled(Style::kGood, "capture check: nothing in '{}' keeps it from being captured ({})", plan.lowered.name,
                   how);
  } else {
    ctx.out.Styled(Style::kBad, "capture check: capture would refuse '{}' ({}), {} reason(s):", plan.lowered.name, how,
                   refused.size());
    for (const CaptureViolation& v : refused) ctx.out.Print("  {}: {}", CaptureRuleName(v.rule), v.message);
  }
  for (const CaptureIssue& i : notes) ctx.out.Styled(Style::kDim, "  note: {}: {}", i.node, i.reason);
  ctx.out.Styled(Style::kDim, "  from {}", plan.lowered.source);
  return Status::Ok();
}

Status Capture(CommandContext& ctx) {
  if (!ctx.args.empty() && ctx.args[0].text == "check") {
    return CaptureCheckCommand(ctx, std::vector<Word>(ctx.args.begin() + 1, ctx.args.end()));
  }
  AIRSCOPE_ASSIGN_OR_RETURN(CapturePlan plan, PlanCapture(ctx, ctx.args));
  const LoweredTasks& l = plan.lowered;
  CaptureOptions opts;
  opts.capture_stream = plan.setup.capture_stream;
  opts.end_stream = plan.setup.end_stream;
  opts.mode = plan.setup.mode;
  opts.task_queue_enable = plan.setup.task_queue_enable;
  opts.compute_dtype = l.dtype;
  DeviceState& dev = ctx.session.device();
  Result<uint32_t> id = dev.sim.Capture(l.tasks, l.name, l.inputs, opts);
  if (!id.ok()) return id.status();
  const CapturedGraph* c = dev.sim.FindCaptured(l.name);
  const PoolStats& pool = dev.sim.allocator().Stats(c->pool);
  std::vector<std::string> streams;
  for (const std::string& s : c->tasks.streams) streams.push_back(StreamDisplayName(s));
  // Outputs of kernels without a cost have no known size: the pool holds at least what is shown.
  int64_t unsized = CountKernels(c->tasks).unknown_cost;
  ctx.out.Print("captured {} as graph {} on stream '{}': {} tasks on {} stream(s) ({}), pool '{}' reserves {}{}",
                c->name, c->id, c->capture_stream, c->tasks.tasks.size(), streams.size(), fmt::join(streams, ", "),
                pool.name, unsized ? ">= " : "", FormatBytes(pool.reserved));
  if (unsized) {
    ctx.out.Styled(Style::kBad,
                   "  >= a lower bound: {} kernel(s) have no cost, so no output size: the pool holds nothing for them",
                   unsized);
  }
  ctx.out.Print("  {}; {}", InputCopiesText(c->inputs), ParametersInPlaceText(l.parameters));
  ctx.out.Styled(Style::kDim, "  from {}", l.source);
  return Status::Ok();
}

Status Replay(CommandContext& ctx) {
  AIRSCOPE_ASSIGN_OR_RETURN(RunOptions opts, ParseRunArgs(ctx, "replay [N] [--no-sync]"));
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  DeviceState& dev = ctx.session.device();
  const CapturedGraph* c = dev.sim.FindCaptured(entry->name);
  if (!c) {
    // torch_npu's words (NPUGraph.cpp:394) for a graph never captured.
    return Status::Errorf(
        "RuntimeError: Called NPUGraph::replay without a preceding successful capture. "
        "(torch_npu NPUGraph.cpp:394): '{}' has not been captured: run capture first",
        entry->name);
  }
  AIRSCOPE_ASSIGN_OR_RETURN(RunResult r, dev.sim.Replay(c->id, opts));
  auto eager = dev.last_eager.find(r.graph);
  PrintRun(ctx, r, eager == dev.last_eager.end() ? nullptr : &eager->second);
  ctx.out.Print("  {}", InputCopiesText(c->inputs));
  return Status::Ok();
}

Status Mem(CommandContext& ctx) {
  const bool graphs = ctx.flags.Has("--graph");
  if (!ctx.args.empty()) return UsageError("mem [--graph]");
  const SimDevice& sim = ctx.session.device().sim;
  const CachingAllocator& a = sim.allocator();
  ctx.out.Styled(Style::kHeading, "memory on {} (simulated): {} reserved of {}", sim.spec().name,
                 FormatBytes(a.total_reserved()), FormatBytes(a.capacity()));
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
    if (holders.size() > 1 && holders.size() <= 4) held = fmt::format("captured graphs {}", fmt::join(holders, ", "));
    if (holders.size() > 4) {  // a piecewise model's pool holds hundreds
      held = fmt::format("{} captured graphs: {}, ... {} more", holders.size(),
                         fmt::join(holders.begin(), holders.begin() + 3, ", "), holders.size() - 3);
    }
    if (id == kDefaultPool && !ctx.session.device().buffers.handles().empty()) held += ", the caller's buffers";
    ctx.out.Print("  {:<20} {:>12} {:>12} {:>12} {:>9} {:>3}/{:<3}  {}", s.name, FormatBytes(s.reserved),
                  FormatBytes(s.allocated), FormatBytes(s.peak_allocated), s.segments, s.reused, s.allocations, held);
  }
  if (sim.streams_held() > 0 || !sim.captured().empty()) {
    ctx.out.Print("  streams held by captured graphs{}: {}{}", sim.stream_holders().empty() ? "" : " and communication",
                  sim.streams_held(),
                  sim.spec().streams > 0 ? fmt::format(" of {} (device set streams)", sim.spec().streams) : "");
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
  const CommandFlags& flags = ctx.flags;
  if (!ctx.args.empty() || (flags.Has("--aclgraph-json") && flags.given().size() > 1)) {
    return UsageError("timeline [--width W] | timeline --json PATH | timeline --aclgraph-json PATH");
  }
  if (const std::string* path = flags.Value("--aclgraph-json")) {
    return WriteAclGraphDump(ctx, Interpreter::ExpandHome(*path));
  }
  if (const Word* w = flags.Word("--width")) {
    AIRSCOPE_ASSIGN_OR_RETURN(int64_t v, ParsePositive(*w, "the width"));
    if (v < 10 || v > 1000) return Status::Errorf("the width must be between 10 and 1000, not {}", v);
    width = static_cast<int>(v);
  }
  if (const std::string* path = flags.Value("--json")) json_path = Interpreter::ExpandHome(*path);
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
                  t.longest_gap_ns
                      ? fmt::format("{} at {}: {}", FormatNs(t.longest_gap_ns), FormatNs(t.gap_start_ns), t.gap_cause)
                      : std::string("none"));
  }
  ctx.out.Print("  overlap between streams: {}", FormatNs(s.overlap_ns));
  return Status::Ok();
}

// What the trace of a long run keeps, for eager's and replay's help.
std::string TraceNote() {
  return fmt::format(
      "`timeline` and `runstats` show the first iterations\n"
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
             "(or `set device.PARAM VALUE`) changes one; rates take K/M/G/T suffixes (`354T`).\n"
             "Core counts (aicore_num, vectorcore_num: what `check` holds concurrent kernels to): ascend-910b 24\n"
             "cube and 48 vector cores, the Atlas A2 processor of CANN's ATC --aicore_num documentation\n"
             "(platform_config: ai_core_cnt=24, cube_core_cnt=24, vector_core_cnt=48) and TorchAir's\n"
             "deadlock_check.py default; other 910B variants are not confirmed. a100 108 and h100 132: their SMs\n"
             "(NVIDIA's A100 whitepaper, Hopper in depth), a GPU having no cube/vector split.",
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
  table.Add({"eager",
             "eager [N] [--no-sync]",
             "run the current graph op by op on the simulated device",
             "Runs the current graph's device tasks N times (default 1) eagerly: every op pays host dispatch\n"
             "and a launch, then runs on its stream after the launch latency and its dependencies. The host\n"
             "synchronizes after each iteration (--no-sync: once at the end). Prints host, device and\n"
             "end-to-end time per iteration. " +
                 TraceNote(),
             Eager,
             nullptr,
             {{"--no-sync", "", {}}}});
  table.Add(
      {"capture", kCaptureUsage, "capture the current graph into a device graph (aclgraph), or check that it can be",
       "Records the graph's tasks on a capture stream (default 'capture'; the graph's default-stream\n"
       "tasks go there) into a graph whose tensors live in a private memory pool, as TorchAir's capture\n"
       "does: torch_npu.npu.graph(...) (acl_graph.py:1193), i.e. torch_npu's NPUGraph::capture_begin /\n"
       "capture_end (csrc/core/npu/NPUGraph.cpp @9e73e708) around ACL's aclmdlRICaptureBegin / End. A side\n"
       "stream joins the capture by waiting on an event recorded in it; its work before that runs outside.\n"
       "Inputs: each user input gets a static buffer in the pool, which every replay first copies the new\n"
       "value into (the `static_input.copy_(x)` of a torch.npu.graph capture); the parameters and buffers\n"
       "the aot stage lifted (the Dynamo graph's get_attr tensors, declared modules') are read where they\n"
       "live and never copied, as a captured graph reads a module's parameters. A graph loaded as aten has\n"
       "no inputs airscope can tell are parameters: all are copied. The capture line says which is which.\n"
       "`capture check` applies the same rules (core/device/capture_rules.h) and lists every refusal.\n"
       "\n"
       "Refusals. torch_npu's RuntimeErrors, verbatim:\n"
       "  env.TASK_QUEUE_ENABLE 2: \"Do not support TASK_QUEUE_ENABLE = 2 during NPU graph capture, please\n"
       "    export TASK_QUEUE_ENABLE=1/0.\" (NPUGraph.cpp:243-247)\n"
       "  --stream default: \"NPU graphs must be captured on a non-default stream. (However, after capture,\n"
       "    it's ok to replay them on the default stream.)\" (NPUGraph.cpp:270-274)\n"
       "  --end-stream S: \"Capture must end on the same stream it began on.\" (NPUGraph.cpp:348)\n"
       "  replay of a graph never captured: \"Called NPUGraph::replay without a preceding successful\n"
       "    capture.\" (NPUGraph.cpp:394)\n"
       "ACL's codes, as CANN's aclError documentation gives them (\"aclError\", runtime API reference,\n"
       "https://www.hiascend.com/document/detail/zh/canncommercial/latest/API/runtimeapi/aclcppdevg_03_1345.html;\n"
       "hicann/runtime docs/zh/api_ref/25-01_aclError.md, messages from src/runtime/core/src/common/\n"
       "errcode_manage.cc):\n"
       "  .item() / _local_scalar_dense synchronizes its stream first (LocalScalarDenseNpu.cpp:25-26):\n"
       "    ACL_ERROR_RT_STREAM_CAPTURED 107027 \"stream is captured\", in every mode\n"
       "  a blocking host<->device copy (no non_blocking=True; CopyKernel.cpp:141-159: synchronize, then\n"
       "    aclrtMemcpy): ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT 107030 in modes global and thread_local; in\n"
       "    relaxed the synchronize fails: \"ACL stream synchronize failed, error code:107027\"\n"
       "  a captured stream waiting on an event no captured task recorded: ACL_ERROR_RT_CAPTURE_DEPENDENCY\n"
       "    107024 (\"the event wait task has no corresponding event record task\")\n"
       "  at the end, a side stream not joined back (its last task must be an event record that the\n"
       "    capture stream, or a stream that returns, waits for): ACL_ERROR_RT_STREAM_UNJOINED 107025\n"
       "airscope's own refusal: work on a stream that never joined the capture. The real capture succeeds\n"
       "without it and replays do not run it; airscope will not simulate replays that lose work.\n"
       "\n"
       "Capture modes M, aclmdlRICaptureMode: global, thread_local, relaxed (--mode M, or set\n"
       "capture_error_mode; default global, TorchAir's, fx2acl_converter.py:58). The \"unsafe\" calls are\n"
       "aclrtMemset, aclrtMemcpy, aclrtMemcpy2d and async copies from pageable host memory; global refuses\n"
       "them on every thread, thread_local on the capturing thread, relaxed nowhere (CANN\n"
       "aclmdlRICaptureThreadExchangeMode; hicann/runtime docs/zh/api_ref/\n"
       "15_model_running_instance__management.md). Synchronizing or querying a stream,\n"
       "event, device or context is refused in every mode (CANN dev guide, single-stream capture,\n"
       "docs/zh/dev_guide/04-01_single_stream_capture.md). airscope has one host thread, the capturing\n"
       "one, so global and thread_local refuse the same calls here.\n"
       "\n"
       "Not modelled: ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED 507903 (aclmdlRICaptureEnd after a failed\n"
       "task submission invalidated the capture; airscope models no submission failure); 107031 (a\n"
       "default-stream call during capture: the graph's default-stream work is the capture stream's here);\n"
       "107041 (an async copy from pageable memory: non_blocking copies are taken to be pinned); torch_npu's\n"
       "\"This NPUGraph instance already owns a captured graph.\" (NPUGraph.cpp:260-263: TorchAir makes a\n"
       "new NPUGraph per capture; a new capture of the same graph here replaces the old one).",
       Capture, [](const std::vector<std::string>& before) {
         if (!before.empty() && before.back() == "--mode") return Fixed(CaptureModeNames());
         return Fixed({"check", "--stream", "--end-stream", "--mode"});
       }});
  table.Add({"replay",
             "replay [N] [--no-sync]",
             "replay the current graph's captured device graph N times",
             "Per iteration: input copies into the static buffers (the user inputs only: lifted parameters\n"
             "are read in place, see help capture), one graph launch, then the tasks with their stream and\n"
             "event dependencies. Prints host, device and end-to-end time per iteration, the speedup over the\n"
             "last eager run of the same graph, and the copies each iteration made, with their bytes.\n" +
                 TraceNote(),
             Replay,
             nullptr,
             {{"--no-sync", "", {}}}});
  table.Add({"mem",
             "mem [--graph]",
             "device memory: reserved / allocated / high-water per pool",
             "Shows the caching allocator's pools: the default pool (eager runs, the buffers reduce-overhead calls\n"
             "pass) and the private pools of captured graphs, held until the graph is replaced: one per `capture`,\n"
             "one per FX graph for reduce-overhead calls, shared by the captures of all its graph keys as TorchAir\n"
             "shares its mempool (acl_graph.py:946-962); reuse counts allocations served from cache.\n"
             "--graph: per captured graph, the addresses it baked in: staged or captured inputs, parameters,\n"
             "mutated inputs, outputs (which are whose, and which TorchAir keeps alive), then the buffers the\n"
             "caller holds. Addresses are airscope's: segment and offset in the simulated allocator.",
             Mem,
             nullptr,
             {{"--graph", "", {}}}});
  table.Add({"timeline",
             "timeline [--width W | --json PATH | --aclgraph-json PATH]",
             "draw the last run per stream",
             "Draws the last eager/capture/replay run, as wide as the terminal (or --width W; 100 columns when\n"
             "the output is not a terminal): one row for the host and one per stream, a time axis,\n"
             "kernel names where they fit, waits as ~, then utilisation and the longest idle gap per stream\n"
             "with its cause. --json PATH writes Chrome trace JSON for ui.perfetto.dev (as dump writes files;\n"
             "--json - prints it).\n"
             "--aclgraph-json PATH writes the current graph's captured graph as TorchAir's NPUGraph.debug_dump\n"
             "does (acl_graph.py:1261-1269 -> aclmdlRIDebugJsonPrint, NPUGraph.cpp:414-418), the JSON TorchAir's\n"
             "tools/gegraph_check/ scripts (filter_operators.py, align_trace.py, deadlock_check.py) read: one\n"
             "Chrome-trace \"X\" event per task, tid \"stream<id>\", name (EVENT_RECORD_<id>, EVENT_WAIT_<id>, the\n"
             "kernel's), args Model Id, Stream Id, Task Id, Task Type and, for kernels the runtime knows, Numblocks,\n"
             "Task Ration, Schem Mode; ts/dur the runtime's schematic layout, not timings (hicann/runtime\n"
             "src/runtime/core/src/stream/stream.cc TraceEventToJson, DebugJsonPrintForModelStm; stream.hpp:37-65).\n"
             "airscope knows no kernel's block count, mix type or arguments: a kernel is KERNEL_AICORE without\n"
             "Numblocks, except a communication kernel (help check), written KERNEL_AIVEC, Numblocks = the vector\n"
             "cores it assumes, Schem Mode 1, so deadlock_check.py sees what `check` sees; stream ids are the\n"
             "streams' order (the mapping is printed); no STREAM_ACTIVE, NOP or EVENT_RESET tasks the runtime\n"
             "adds. `load` reads such a file (a real dump too) back: its tasks become the graph's for check,\n"
             "timeline and runstats, drawn where the file puts them; task types other than records, waits and\n"
             "MEMCPY_* (STREAM_ACTIVE, NOP, EVENT_RESET, ...) are drawn and counted as kernels.",
             Timeline,
             nullptr,
             {{"--width", "W", {}},
              {"--json", "PATH", {CompletionKind::kFile, {}}},
              {"--aclgraph-json", "PATH", {CompletionKind::kFile, {}}}}});
  table.Add({"runstats", "runstats", "statistics of the last run: busy %, overlap, idle gaps",
             "For the last eager/capture/replay run: host busy time, each stream's busy time and\n"
             "utilisation, the overlap between streams (time two or more are busy), and each stream's\n"
             "longest idle gap with its cause (waiting on an event, host launch bound, nothing to do).",
             RunStatsCommand, nullptr});
}

}  // namespace airscope

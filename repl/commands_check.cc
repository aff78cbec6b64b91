// `check`: hazards between the streams of the current graph before any
// hardware (core/check/hazards.h): on its captured graph, on the capture
// dump it was loaded from, or else on its lowered graph (the pipeline run to
// `lower`, as capture does).
#include <fmt/format.h>

#include "core/check/hazards.h"
#include "repl/command_table.h"
#include "repl/device_tasks.h"
#include "repl/interpreter.h"

namespace airscope {
namespace {

constexpr const char* kCheckUsage = "check [--stream S]";

struct Checked {
  TaskGraph tasks;
  std::string capture_stream;
  std::string source;
  bool dump = false;
};

Result<Checked> TasksToCheck(CommandContext& ctx, const std::string* stream) {
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  const std::string& name = entry->name;
  DeviceState& dev = ctx.session.device();
  if (const CapturedGraph* c = dev.sim.FindCaptured(name)) {
    return Checked{c->tasks, stream ? *stream : c->capture_stream,
                   fmt::format("captured graph {} (capture stream '{}')", c->id, c->capture_stream)};
  }
  if (auto it = dev.loaded_captures.find(name); it != dev.loaded_captures.end()) {
    const DeviceState::LoadedCapture& l = it->second;
    std::string cap = stream ? *stream : l.capture_stream;
    return Checked{l.tasks, cap,
                   fmt::format("the capture dump {} (capture stream '{}'; a dump names no buffers and was captured, "
                               "so races and joins are not looked for)",
                               l.path, cap),
                   true};
  }
  TaskGraphOptions options;
  options.allow_unrecorded_waits = true;
  AIRSCOPE_ASSIGN_OR_RETURN(LoweredTasks l, LowerCurrentTasks(ctx.session, options));
  return Checked{std::move(l.tasks), stream ? *stream : "", fmt::format("{}, not captured", l.source)};
}

Status Check(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError(kCheckUsage);
  const std::string* stream = ctx.flags.Value("--stream");
  AIRSCOPE_ASSIGN_OR_RETURN(Checked checked, TasksToCheck(ctx, stream));
  const DeviceSpec& spec = ctx.session.device().sim.spec();
  std::vector<Hazard> hazards =
      FindHazards(checked.tasks, {checked.capture_stream, spec.vectorcore_num, spec.name, !checked.dump});
  const std::string name = ctx.session.current()->name;
  size_t streams = checked.tasks.streams.size();
  if (hazards.empty()) {
    ctx.out.Styled(Style::kGood, "check: no hazards in '{}' ({} tasks on {} stream(s))", name,
                   checked.tasks.tasks.size(), streams);
  } else {
    ctx.out.Styled(Style::kBad, "check: {} hazard(s) in '{}' ({} tasks on {} stream(s)):", hazards.size(), name,
                   checked.tasks.tasks.size(), streams);
    for (const Hazard& h : hazards) ctx.out.Print("  {}: {}", HazardKindName(h.kind), h.message);
  }
  ctx.out.Styled(Style::kDim, "  from {}", checked.source);
  return Status::Ok();
}

}  // namespace

void RegisterCheckCommand(CommandTable& table) {
  table.Add(
      {"check",
       kCheckUsage,
       "hazards between streams before any hardware: races, events, joins, cores",
       "Finds what can go wrong between the current graph's streams from the order the device\n"
       "guarantees, not from one simulated schedule: tasks of a stream run in issue order, a wait after the\n"
       "record it waits for (the event's latest record issued before it), and a host sync or blocking copy\n"
       "before everything issued after it; vector clocks over that order give happens-before\n"
       "(core/check/happens_before.h; the rule of TorchAir's tools/gegraph_check/deadlock_check.py).\n"
       "It checks the current graph's captured graph, else the capture dump it was loaded from, else its\n"
       "lowered graph (the pipeline run to `lower`, as capture does). Findings:\n"
       "  race                two tasks on different streams, unordered, touching one buffer, one writing\n"
       "                      (buffers: the storages of tensor inputs and values, core/analysis/alias_analysis.h:\n"
       "                      views read their base, in-place ops and copy_ write their first argument,\n"
       "                      out= ops their out tensor; values without tensor meta are not tracked, nor is\n"
       "                      the caching allocator reusing a freed buffer on another stream)\n"
       "  unrecorded wait     a wait whose event no task before it records\n"
       "  re-recorded event   an event recorded again before a wait consumed the first record\n"
       "  unjoined stream     a side stream not joined back to the capture stream, or work on a stream that\n"
       "                      never joined: the capture rules' own verdict (help capture; ACL 107025)\n"
       "  core over-subscription  deadlock_check.py's: two concurrent communication kernels (a name with\n"
       "                      aiv_, dispatch or combine, or ExtendInfo taskType communication) in Schem Mode 1\n"
       "                      whose vector cores sum above the device's (device.vectorcore_num; TorchAir passes\n"
       "                      torch.npu.get_device_limit()['vector_core_num'], _acl_concrete_graph/utils.py\n"
       "                      run_deadlock_check). Vector cores: a dump's Task Type and Numblocks (MIX_AIV and\n"
       "                      AIVEC: Numblocks; MIX_AIC: Numblocks x 2, 0 when Task Ration is 0). A lowered\n"
       "                      graph has neither: airscope takes such a kernel to hold, in Schem Mode 1, the\n"
       "                      vector cores of its stream's limit_core_num (set_stream_limit) or else all the\n"
       "                      device's. AI (cube) cores are not checked; the script does not either.\n"
       "--stream S names the capture stream (default: the captured graph's; for a dump, its first stream that\n"
       "does not begin with a wait).\n"
       "A capture dump names no buffers, and the capture that wrote it succeeded: on one, races and joins are\n"
       "not looked for.",
       Check,
       nullptr,
       {{"--stream", "S", {}}}});
}

}  // namespace airscope

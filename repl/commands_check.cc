// `check`: hazards between the streams of the current graph before any
// hardware (core/check/hazards.h): on its captured graph, on the capture
// dump it was loaded from, or else on its lowered graph (the pipeline run to
// `lower`, as capture does); repl/hazard_check.h finds them, for the
// drawings too.
#include <fmt/format.h>

#include "repl/command_table.h"
#include "repl/hazard_check.h"
#include "repl/interpreter.h"

namespace airscope {
namespace {

constexpr const char* kCheckUsage = "check [--stream S]";

Status Check(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError(kCheckUsage);
  AIRSCOPE_ASSIGN_OR_RETURN(CheckedGraph checked, CheckCurrentGraph(ctx.session, ctx.flags.Value("--stream")));
  const std::vector<Hazard>& hazards = checked.hazards;
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
       "The drawing shows the same findings: dump dot|svg|png and show --format dot of the graph check\n"
       "lowers (the last stage once the pipeline has run to its end, or a loaded graph already lowered) draw\n"
       "each hazard's nodes with a red border and a note (\"race with add\"), a red edge between the two, and\n"
       "`check`'s text as their tooltip; the report's stage and device pages mark and list them too. Earlier\n"
       "stages are drawn without marks: their nodes are not the ones that race.\n"
       "--stream S names the capture stream (default: the captured graph's; for a dump, its first stream that\n"
       "does not begin with a wait).\n"
       "A capture dump names no buffers, and the capture that wrote it succeeded: on one, races and joins are\n"
       "not looked for.",
       Check,
       nullptr,
       {{"--stream", "S", {}}}});
}

}  // namespace airscope

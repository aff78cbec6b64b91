// The one index in the shell: `compiles` for a TORCH_COMPILE_DEBUG tree, and
// `compiles ID` / `show compile ID` for any log: one compile from where
// Dynamo started to its captures (repl/compile_index.h builds it).
#include <algorithm>

#include <fmt/format.h>

#include "core/line_reader.h"
#include "core/scanner.h"
#include "core/text.h"
#include "repl/compile_index.h"
#include "repl/interpreter.h"
#include "repl/log_commands.h"

namespace airscope {
namespace {

void Section(CommandContext& ctx, std::string_view title, const std::vector<std::string>& lines) {
  if (lines.empty()) return;
  ctx.out.Print("  {}:", title);
  for (const std::string& line : lines) ctx.out.Print("    {}", line);
}

void PrintDetail(CommandContext& ctx, const IndexCompile& c, bool all_phases) {
  std::string attempts = c.attempts > 1 ? fmt::format(" after {} attempts (restarted analysis)", c.attempts) : "";
  ctx.out.Styled(Style::kHeading, "compile {}: {}{}", c.id, c.status == "-" ? "status not logged" : c.status, attempts);
  if (!c.reason.empty()) ctx.out.Print("  {}: {}", c.status, IndentLinesAfterFirst(c.reason, 4));
  ctx.out.Print("  from: {}", fmt::join(c.sources, "; "));
  ctx.out.Print("  function: {}", c.function.empty() ? "?" : c.function);
  if (!c.stack.empty()) {
    ctx.out.Print("  dynamo_start stack (outermost first):");
    for (const std::string& frame : c.stack) ctx.out.Print("    {}", frame);
  }
  if (c.graph_breaks.empty()) {
    ctx.out.Print("  graph breaks: none logged");
  } else {
    for (const std::string& b : c.graph_breaks) ctx.out.Print("  graph break {}", b);
  }
  // The traceback a failed compile left (dynamo_error), whole: the failure
  // line above is only its last line.
  for (const IndexCompile::Error& error : c.errors) {
    ctx.out.Print("  dynamo_error (line {}):", error.line);
    ForEachLine(error.traceback, [&ctx](std::string_view line) {
      if (!line.empty()) ctx.out.Print("    {}", line);
    });
  }
  std::vector<std::string> graphs;
  for (const IndexGraph& g : c.graphs) graphs.push_back(fmt::format("{} ({}, {} nodes)", g.name, g.kind, g.nodes));
  Section(ctx, "graphs", graphs);
  Section(ctx, "TorchAir", c.torchair);
  if (c.guard_count >= 0 || !c.guards.empty()) {
    ctx.out.Print("  guards: {}{} (guards {})", c.guard_count >= 0 ? fmt::format("{} ", c.guard_count) : "",
                  c.guards.empty() ? "counted in compilation_metrics" : c.guards, c.id);
  } else {
    ctx.out.Print("  guards: none logged");
  }
  for (const std::string& r : c.recompile_reasons) ctx.out.Print("  recompiled because: {}", r);
  if (!c.cache.empty()) ctx.out.Print("  cache artifacts: {}", fmt::join(c.cache, ", "));
  if (c.ops >= 0 || c.nodes >= 0 || c.cache_size >= 0) {
    ctx.out.Print("  sizes: ops {}, nodes {}, inputs {}; cache_size {}", CountOrDash(c.ops), CountOrDash(c.nodes),
                  CountOrDash(c.inputs), CountOrDash(c.cache_size));
  }
  if (c.started_at >= 0) {
    std::string ended;
    if (c.ended_at >= c.started_at) ended = fmt::format(", ended {} later", FormatSeconds(c.ended_at - c.started_at));
    ctx.out.Print("  started: {}{} (compilation_metrics)", FormatEpochSeconds(c.started_at), ended);
  }
  if (!c.phases.empty() || !c.metric_times.empty()) {
    ctx.out.Print("  compile time per phase:");
    // Every level the log has: a phase nested deep (inductor's passes inside
    // backend_compile inside compile_attempt) is what a slow compile is
    // looked at for. Only the count is capped.
    constexpr size_t kMaxPhaseLines = 60;
    size_t shown = 0;
    for (const IndexPhase& p : c.phases) {
      if (++shown > kMaxPhaseLines && !all_phases) {
        ctx.out.Print("    ... and {} more phases ({} in all; `compiles {} --phases` lists them all)",
                      c.phases.size() - kMaxPhaseLines, c.phases.size(), c.id);
        break;
      }
      ctx.out.Print("    {}{} {}", std::string(static_cast<size_t>(p.depth) * 2, ' '), p.name,
                    FormatSeconds(p.seconds));
    }
    if (!c.metric_times.empty()) {
      std::vector<std::string> metrics;
      for (const auto& [name, seconds] : c.metric_times)
        metrics.push_back(fmt::format("{} {}", name, FormatSeconds(seconds)));
      ctx.out.Print("    compilation_metrics: {}", fmt::join(metrics, ", "));
    }
  }
  Section(ctx, "captures and replays", c.runtime);
  Section(ctx, "also", c.other);
}

}  // namespace

Status ShowIndexCompile(CommandContext& ctx, const LogBundle& bundle, const Word& which, bool all_phases) {
  CompileIndex index = BuildCompileIndex(bundle, ctx.session);
  for (const IndexCompile& c : index.compiles) {
    if (c.id == which.text) {
      PrintDetail(ctx, c, all_phases);
      return Status::Ok();
    }
  }
  std::vector<std::string> ids;
  for (const IndexCompile& c : index.compiles) ids.push_back(c.id);
  return ColumnErrorf(which.column, "no compile '{}' in the log (compiles: {})", which.text,
                      ids.empty() ? "none" : fmt::format("{}", fmt::join(ids, ", ")));
}

Status ShowIndexCompiles(CommandContext& ctx, const LogBundle& bundle) {
  CompileIndex index = BuildCompileIndex(bundle, ctx.session);
  ctx.out.Print("{} compile(s) in {} {}", index.compiles.size(), index.what, index.path);
  size_t width = 6;
  for (const IndexCompile& c : index.compiles) width = std::max(width, c.id.size());
  if (!index.compiles.empty()) {
    ctx.out.Print("  {:<{}} {:<8} {:>6} {:>6}  {:<28}  {}", "id", width, "status", "guards", "graphs", "TorchAir",
                  "function");
  }
  for (const IndexCompile& c : index.compiles) {
    std::string torchair = "-";
    for (const std::string& t : c.torchair) {
      if (t.starts_with("simulated")) continue;
      torchair = t.substr(0, t.find(' '));
      if (torchair.ends_with(":")) torchair.pop_back();
      break;
    }
    ctx.out.Print("  {:<{}} {:<8} {:>6} {:>6}  {:<28}  {}", c.id, width, c.status, CountOrDash(c.guard_count),
                  c.graphs.size(), torchair, c.function.empty() ? "?" : c.function);
    std::string time = PhaseSummary(c);
    if (time != "-") ctx.out.Styled(Style::kDim, "  {:<{}} time: {}", "", width, time);
  }
  if (!index.unlinked.empty()) {
    ctx.out.Styled(Style::kHeading, "not tied to a compile id:");
    for (const std::string& u : index.unlinked) ctx.out.Print("  {}", u);
  }
  ctx.out.Print("compiles ID shows one in full: graphs, TorchAir's stages, guards, reasons, times, captures");
  return Status::Ok();
}

}  // namespace airscope

#include "repl/report_collector.h"
#include "core/text.h"

#include <charconv>
#include <map>
#include <set>
#include <string_view>

#include <fmt/format.h>

#include "repl/cache_state.h"
#include "repl/compile.h"
#include "repl/compile_index.h"
#include "repl/coverage.h"
#include "repl/folded_diff.h"
#include "repl/graph_folding.h"
#include "repl/hazard_check.h"
#include "repl/log_commands.h"
#include "repl/session.h"
#include "viz/report/report_writer.h"

namespace airscope {
namespace {

// What `command` prints with the session as it is ("" when it fails: the
// report then leaves that section out, as the shell would have said why).
std::string Captured(Interpreter& interpreter, std::string_view command) {
  CommandOutput out;
  if (!interpreter.ExecuteCaptured(command, &out).ok()) return "";
  return out.Text();
}

// Makes each graph current in turn; the user's current graph comes back at the end.
class CurrentGraphRestorer {
 public:
  explicit CurrentGraphRestorer(Session& session) : session_(session) {
    if (const Session::Entry* current = session.current()) name_ = current->name;
  }
  ~CurrentGraphRestorer() {
    if (!name_.empty()) (void)session_.Use(name_);
  }

 private:
  Session& session_;
  std::string name_;
};

// The guards and problems of one TORCH_TRACE log (`prefix` before its compile ids).
void AddTrace(ReportLog& out, const std::string& prefix, const TraceLog& log) {
  for (const auto& [id, text] : log.cpp_guards) out.guards.emplace_back(prefix + id, text);
  for (const auto& [id, text] : log.dynamo_guards) {
    if (!log.cpp_guards.count(id)) out.guards.emplace_back(prefix + id, text);
  }
  for (const TraceProblem& p : log.problems) {
    out.problems.push_back(fmt::format("{}line {}: {}", prefix, p.line, p.message));
  }
}

void AddText(ReportLog& out, const std::string& prefix, const TorchLogs& log) {
  for (const TorchLogsGuards& g : log.guards) {
    out.guards.emplace_back(g.id.empty() ? prefix + "(no compile id)" : prefix + log.Qualified(g.rank, g.id), g.text);
  }
  for (const TorchLogsProblem& p : log.problems) {
    out.problems.push_back(fmt::format("{}line {}: {}", prefix, p.line, p.message));
  }
}

// One load of logs: its compiles from the one index (repl/compile_index.h),
// the log page's table (TORCH_TRACE's columns when it is one TORCH_TRACE log),
// guards and problems.
// Where the ranks of a directory of rank logs diverge, as `load DIR` printed
// it; "" for anything else. The rank is the one the load named each log by
// (its graphs' "rankN:" prefix).
std::string DivergenceText(const LogBundle& bundle) {
  if (bundle.traces.size() < 2) return "";
  std::vector<std::pair<int, const TraceLog*>> logs;
  for (const LogBundle::Trace& trace : bundle.traces) {
    int rank = -1;
    std::string_view prefix = trace.prefix;
    if (prefix.starts_with("rank")) std::from_chars(prefix.data() + 4, prefix.data() + prefix.size(), rank);
    if (rank < 0) return "";
    logs.emplace_back(rank, trace.log.get());
  }
  CommandOutput out;
  PrintRankDivergence(out, logs);
  return out.Text();
}

ReportLog LogOf(const LogBundle& bundle, Session& session) {
  ReportLog out;
  out.path = bundle.path;
  out.kind = bundle.what;
  CompileIndex index = BuildCompileIndex(bundle, session);
  for (const IndexCompile& c : index.compiles) {
    ReportCompile r;
    r.id = c.id;
    r.status = c.status;
    r.function = c.function.empty() ? "?" : c.function;
    r.stack = c.stack;
    r.sizes = c.ops < 0 && c.nodes < 0 && c.inputs < 0 ? "-"
                                                       : fmt::format("ops {}, nodes {}, inputs {}", CountOrDash(c.ops),
                                                                     CountOrDash(c.nodes), CountOrDash(c.inputs));
    r.guards = CountOrDash(c.guard_count);
    std::vector<std::string> cache;
    if (c.cache_size >= 0) cache.push_back(fmt::format("cache_size {}", c.cache_size));
    for (const std::string& a : c.cache) cache.push_back(a);
    r.cache = cache.empty() ? "-" : fmt::format("{}", fmt::join(cache, "; "));
    r.recompile_reasons = c.recompile_reasons;
    for (const IndexPhase& p : c.phases) {
      if (p.depth == 0) r.times.push_back(fmt::format("{} {}", p.name, FormatSeconds(p.seconds)));
    }
    if (r.times.empty()) {
      for (const auto& [name, seconds] : c.metric_times)
        r.times.push_back(fmt::format("{} {}", name, FormatSeconds(seconds)));
    }
    std::vector<std::string> torchair;
    for (const std::string& t : c.torchair) torchair.push_back(t);
    r.torchair = torchair.empty() ? "-" : fmt::format("{}", fmt::join(torchair, "; "));
    for (const IndexGraph& g : c.graphs) r.graphs.push_back(g.name);
    out.compiles.push_back(std::move(r));
  }
  out.columns = {"compile id", "status", "function", "sizes", "guards", "cache", "compile time per phase", "TorchAir"};
  for (const ReportCompile& r : out.compiles) {
    out.rows.push_back({r.id, r.status, r.function, r.sizes, r.guards, r.cache,
                        r.times.empty() ? "-" : fmt::format("{}", fmt::join(r.times, ", ")), r.torchair});
  }
  for (const std::string& u : index.unlinked) out.problems.push_back("not tied to a compile id: " + u);
  for (const LogBundle::Trace& t : bundle.traces) AddTrace(out, t.prefix, *t.log);
  for (const LogBundle::Text& t : bundle.texts) AddText(out, t.prefix, *t.log);
  if (bundle.tree) {
    for (const DebugTreeProblem& p : bundle.tree->problems)
      out.problems.push_back(fmt::format("{}: {}", p.path, p.message));
  }
  return out;
}

// The name a trace gives a task's slices (core/device/sim_engine.cc TaskLabel).
std::string SliceName(const DeviceTask& t) {
  if (t.kind == TaskKind::kEventRecord) return "record " + t.event;
  if (t.kind == TaskKind::kEventWait) return "wait " + t.event;
  return t.node;
}

// `check`'s findings on the timeline of a run of the graph it checked: only
// when every stream slice of the run is the task of that id in the checked
// tasks (the graph may have been run, then changed and checked again).
void MarkTrace(const Trace& trace, const CheckedGraph& checked, ReportDevice& device) {
  const std::vector<DeviceTask>& tasks = checked.tasks.tasks;
  for (const Slice& s : trace.slices) {
    if (s.track == 0 || s.task < 0) continue;
    if (s.task >= static_cast<int64_t>(tasks.size()) || s.name != SliceName(tasks[static_cast<size_t>(s.task)])) {
      return;
    }
  }
  for (const Hazard& h : checked.hazards) {
    std::string kind(HazardKindName(h.kind));
    auto node = [&](int64_t task) { return tasks[static_cast<size_t>(task)].node; };
    if (h.first >= 0 && h.second >= 0) {
      device.trace_marks.push_back({h.first, fmt::format("{} with {}", kind, node(h.second))});
      device.trace_marks.push_back({h.second, fmt::format("{} with {}", kind, node(h.first))});
      device.trace_links.push_back({h.first, h.second, fmt::format("{}: {}", kind, h.message)});
    } else if (h.second >= 0 || h.first >= 0) {
      device.trace_marks.push_back({h.second >= 0 ? h.second : h.first, kind});
    }
  }
}

ReportGraph GraphOf(Interpreter& interpreter, const Session::Entry& entry) {
  ReportGraph graph;
  graph.name = entry.name;
  graph.source = fmt::format("{} ({})", entry.loaded.path, GraphFormatName(entry.loaded.format));
  graph.loaded = entry.loaded.graph;
  if (const PipelineRun* run = entry.pipeline.get()) {
    graph.pipeline = run->passes();
    std::shared_ptr<const Graph> previous;
    for (const StageRecord& record : run->stages()) {
      ReportStage stage;
      stage.number = record.number;
      stage.pass = record.pass;
      stage.status = std::string(StageStatusName(record.status));
      stage.changed = record.changed;
      stage.seconds = record.seconds;
      stage.nodes = record.nodes;
      stage.remarks = record.remarks;
      stage.effects_changed = record.effects_changed;
      stage.error = record.error;
      // An unchanged stage is its predecessor's graph: one pointer, so the
      // writer draws it once even when a dropped snapshot is recomputed.
      if (record.number > 0 && !record.changed && previous) {
        stage.graph = previous;
      } else if (Result<std::shared_ptr<const Graph>> at = run->GraphAt(record.number); at.ok()) {
        stage.graph = *at;
      }
      previous = stage.graph;
      graph.stages.push_back(std::move(stage));
    }
  }
  const CacheState* state = entry.cache.get();
  if (state) {
    for (const CacheState::CallRecord& c : state->calls)
      graph.calls.push_back({c.number, c.spec, c.outcome, c.compile_id});
  }
  if (state && !state->calls.empty()) {
    Coverage coverage = BuildCoverage(*state);
    graph.coverage_summary = fmt::format("{} of {} calls{}", coverage.graphed, coverage.calls,
                                         coverage.truncated ? " (the newest kept)" : "");
    graph.coverage_text = Captured(interpreter, "coverage");
  }
  if (state && state->frame) {
    graph.cache_text = Captured(interpreter, "cache");
    graph.guards_text = Captured(interpreter, "guards");
    graph.recompiles_text = Captured(interpreter, "recompiles");
  }
  return graph;
}

}  // namespace

Result<ReportData> CollectReport(Interpreter& interpreter, const std::string& version) {
  Session& session = interpreter.session();
  ReportData data;
  data.title = "airscope report";
  data.version = version;
  std::map<const LogBundle*, size_t> logs;             // each load once, however many graphs it registered
  std::map<std::string, CheckedGraph> checked_graphs;  // by graph name
  for (size_t g = 0; g < session.graphs().size(); ++g) {
    if (session.current() == &session.graphs()[g]) data.current_graph = g;  // before the loop below makes each current
  }
  {
    CurrentGraphRestorer restore(session);
    for (size_t g = 0; g < session.graphs().size(); ++g) {
      const Session::Entry& entry = session.graphs()[g];
      AIRSCOPE_RETURN_IF_ERROR(session.Use(entry.name));
      data.graphs.push_back(GraphOf(interpreter, entry));
      // Hazards between the graph's streams, where check needs no compile (a
      // captured graph, or one whose lowered graph exists: the report only
      // reads), marked on the drawings of the graph check lowers.
      std::shared_ptr<const Graph> lowered = LoweredWithoutCompiling(entry);
      if (session.device().sim.FindCaptured(entry.name) || lowered) {
        data.device.checks.emplace_back(entry.name, Captured(interpreter, "check"));
        if (Result<CheckedGraph> checked = CheckCurrentGraph(session, nullptr); checked.ok()) {
          ReportGraph& graph = data.graphs.back();
          graph.checked = lowered;
          graph.hazards = HazardMarks(checked->tasks, checked->hazards);
          checked_graphs.emplace(entry.name, std::move(*checked));
        }
      }
      if (const CacheState* state = entry.cache.get(); state && state->bundle) {
        auto [it, fresh] = logs.emplace(state->bundle.get(), data.logs.size());
        if (fresh) {
          data.logs.push_back(LogOf(*state->bundle, session));
          data.logs.back().recompiles_text = Captured(interpreter, "recompiles");
          data.logs.back().divergence_text = DivergenceText(*state->bundle);
        }
        data.logs[it->second].graph_names.push_back(entry.name);
      }
    }
  }
  for (const Session::TranscriptEntry& t : session.transcript()) {
    data.commands.push_back({t.origin, t.line, t.text, t.output, t.error});
  }
  DeviceState& device = session.device();
  data.device.preset = device.sim.spec().name;
  if (device.sim.has_trace()) {
    data.device.trace = device.sim.last_trace();
    data.device.runstats_text = Captured(interpreter, "runstats");
    if (auto it = checked_graphs.find(data.device.trace->graph); it != checked_graphs.end()) {
      MarkTrace(*data.device.trace, it->second, data.device);
    }
  }
  data.device.mem_text = Captured(interpreter, "mem");
  std::string captured;
  for (const CapturedGraph& c : device.sim.captured()) {
    captured += fmt::format("graph {} ({}): {} tasks on capture stream {}, {} stream(s)\n", c.id, c.name,
                            c.tasks.tasks.size(), c.capture_stream, c.tasks.streams.size());
  }
  data.device.captured_text = captured;
  return data;
}

ReportOptions ShellReportOptions() {
  ReportOptions options;
  options.folded_fx = [](const Graph& graph) {
    FoldedGraph folded = FoldRepeats(graph);
    return folded.blocks.empty() ? std::string() : FoldedFxText(graph, folded);
  };
  options.fold_diff = [](std::string_view unified, const Graph& before, const Graph& after) {
    FoldedDiff folded = FoldAlikeHunks(unified, before, after, "fx", kMinAlikeHunks);
    return folded.folded > 0 ? HunkFolding{std::move(folded.hidden), std::move(folded.note_after)} : HunkFolding();
  };
  return options;
}

Status WriteSessionReport(Interpreter& interpreter, const std::string& dir, const std::string& version,
                          CommandOutput& out, bool force) {
  AIRSCOPE_ASSIGN_OR_RETURN(ReportData data, CollectReport(interpreter, version));
  ReportOptions options = ShellReportOptions();
  options.force = force;
  AIRSCOPE_ASSIGN_OR_RETURN(ReportSummary summary, WriteReport(data, dir, options));
  out.Print("wrote {} ({} pages, {} drawings, {:.1f} MB)", summary.index, summary.pages, summary.drawings,
            static_cast<double>(summary.bytes) / 1e6);
  for (const std::string& note : summary.notes) out.Print("  note: {}", note);
  return Status::Ok();
}

}  // namespace airscope

#include "repl/report_collector.h"

#include <map>
#include <set>

#include <fmt/format.h>

#include "repl/cache_state.h"
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

std::string Count(int64_t value) { return value < 0 ? "-" : fmt::format("{}", value); }

ReportLog LogOf(const TraceLog& log) {
  ReportLog out;
  out.path = log.path;
  out.kind = "TORCH_TRACE";
  out.columns = {"compile id", "function", "status", "ops", "nodes", "inputs", "cache size", "guards", "reason"};
  for (const TraceCompile& c : log.compiles) {
    out.rows.push_back({c.id, c.function.empty() ? "?" : fmt::format("{} {}", c.function, c.filename), c.status,
                        Count(c.graph_op_count), Count(c.graph_node_count), Count(c.graph_input_count),
                        Count(c.cache_size), Count(c.guard_count), c.reason});
  }
  for (const auto& [id, text] : log.cpp_guards) out.guards.emplace_back(id, text);
  for (const auto& [id, text] : log.dynamo_guards) {
    if (!log.cpp_guards.count(id)) out.guards.emplace_back(id, text);
  }
  for (const TraceProblem& p : log.problems) out.problems.push_back(fmt::format("line {}: {}", p.line, p.message));
  return out;
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
    for (const CacheState::CallRecord& c : state->calls) graph.calls.push_back({c.number, c.spec, c.outcome, c.compile_id});
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
  std::map<const TraceLog*, size_t> logs;  // each log once, however many graphs it registered
  {
    CurrentGraphRestorer restore(session);
    for (size_t g = 0; g < session.graphs().size(); ++g) {
      const Session::Entry& entry = session.graphs()[g];
      if (session.current() == &entry) data.current_graph = g;
      AIRSCOPE_RETURN_IF_ERROR(session.Use(entry.name));
      data.graphs.push_back(GraphOf(interpreter, entry));
      // Hazards between the streams of the graph as captured (check on an
      // uncaptured graph would compile it: the report only reads).
      if (session.device().sim.FindCaptured(entry.name)) {
        data.device.checks.emplace_back(entry.name, Captured(interpreter, "check"));
      }
      if (const CacheState* state = entry.cache.get(); state && state->trace) {
        auto [it, fresh] = logs.emplace(state->trace.get(), data.logs.size());
        if (fresh) {
          data.logs.push_back(LogOf(*state->trace));
          data.logs.back().recompiles_text = Captured(interpreter, "recompiles");
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

Status WriteSessionReport(Interpreter& interpreter, const std::string& dir, const std::string& version,
                          CommandOutput& out) {
  Result<ReportData> data = CollectReport(interpreter, version);
  if (!data.ok()) return data.status();
  Result<ReportSummary> summary = WriteReport(*data, dir);
  if (!summary.ok()) return summary.status();
  out.Print("wrote {} ({} pages, {} drawings, {:.1f} MB)", summary->index, summary->pages, summary->drawings,
            static_cast<double>(summary->bytes) / 1e6);
  for (const std::string& note : summary->notes) out.Print("  note: {}", note);
  return Status::Ok();
}

}  // namespace airscope

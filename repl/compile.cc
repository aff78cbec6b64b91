#include "repl/compile.h"

#include <fmt/format.h>

#include "core/pass/pipeline_run.h"

namespace airscope {

Result<Compiled> CompileThroughPipeline(std::shared_ptr<const Graph> graph, const Session& session) {
  PassContext context = session.MakePassContext();
  PipelineEnv env;
  env.passes = &session.passes();
  env.context = &context;
  env.ignore_breakpoints = true;
  PipelineRun run(std::move(graph), session.settings().DefaultPasses());
  Result<RunReport> report = run.RunUntil(std::nullopt, env);
  if (!report.ok()) return report.status().WithPrefix("compile");
  if (report->stopped_early()) return report->error.WithPrefix("compile");
  Compiled compiled;
  compiled.graph = run.CurrentShared();
  for (const StageRecord& stage : run.stages()) {
    if (stage.number == 0) continue;
    ++compiled.passes_run;
    compiled.passes_changed += stage.changed;
  }
  return compiled;
}

Result<Compiled> LoweredCurrentGraph(Session& session) {
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, session.Current());
  if (const PipelineRun* run = entry->pipeline.get()) {
    if (run->at_end()) {
      Compiled compiled;
      compiled.graph = run->CurrentShared();
      compiled.passes_run = run->cursor();
      compiled.source = fmt::format("stage {} of its pipeline", run->cursor());
      return compiled;
    }
    if (run->cursor() > 0) {
      return Status::Errorf(
          "the pipeline of '{}' is at stage {} of {}: `run` it to the end (or `reset`) before running it on the "
          "device",
          entry->name, run->cursor(), run->passes().size());
    }
  }
  const std::shared_ptr<const Graph>& loaded = entry->loaded.graph;
  if (IsLowered(*loaded)) {
    Compiled as_is;
    as_is.graph = loaded;
    as_is.source = "the loaded graph as it is (its streams and events are already set)";
    return as_is;
  }
  Result<Compiled> fresh = CompileThroughPipeline(loaded, session);
  if (fresh.ok()) {
    fresh->source = fmt::format(
        "the loaded graph compiled afresh through the {} passes of the pipeline; `run` "
        "would step through them",
        fresh->passes_run);
  }
  return fresh;
}

std::shared_ptr<const Graph> LoweredWithoutCompiling(const Session::Entry& entry) {
  if (const PipelineRun* run = entry.pipeline.get()) {
    if (run->at_end()) return run->CurrentShared();
    if (run->cursor() > 0) return nullptr;
  }
  return IsLowered(*entry.loaded.graph) ? entry.loaded.graph : nullptr;
}

bool IsLowered(const Graph& graph) {
  for (const Node* node : graph) {
    if (!node->stream().empty()) return true;
    std::string_view target = StripTorchOps(node->target());
    if (target == "air.tagged_event_record.default" || target == "air.tagged_event_wait.default") return true;
  }
  return false;
}

}  // namespace airscope

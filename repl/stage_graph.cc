#include "repl/stage_graph.h"

#include <fmt/format.h>

namespace airscope {

std::string StageLabel(const PipelineRun& run, size_t stage) {
  return fmt::format("stage {} ({})", stage, run.stages()[stage].pass);
}

Result<StageGraph> ResolveStageGraph(Session& session, std::string_view spec) {
  Result<PipelineRun*> run = session.CurrentPipeline();
  if (!run.ok()) return run.status();
  Result<size_t> stage = (*run)->FindStage(session.CanonicalPassName(spec));
  if (!stage.ok()) return stage.status();
  Result<std::shared_ptr<const Graph>> graph = (*run)->GraphAt(*stage);
  if (!graph.ok()) return graph.status();
  return StageGraph{*stage, StageLabel(**run, *stage), std::move(graph).value()};
}

}  // namespace airscope

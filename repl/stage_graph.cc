#include "repl/stage_graph.h"

#include <fmt/format.h>

namespace airscope {

std::string StageLabel(const PipelineRun& run, size_t stage) {
  return fmt::format("stage {} ({})", stage, run.stages()[stage].pass);
}

Result<StageGraph> ResolveStageGraph(Session& session, std::string_view spec) {
  AIRSCOPE_ASSIGN_OR_RETURN(PipelineRun * run, session.CurrentPipeline());
  AIRSCOPE_ASSIGN_OR_RETURN(size_t stage, run->FindStage(session.CanonicalPassName(spec)));
  AIRSCOPE_ASSIGN_OR_RETURN(std::shared_ptr<const Graph> graph, run->GraphAt(stage));
  return StageGraph{stage, StageLabel(*run, stage), std::move(graph)};
}

}  // namespace airscope

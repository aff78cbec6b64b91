// Stage lookup for commands: `--stage S` (show, dump), diff and bisect name
// stages the same way: a number, a pass name (its latest stage), `input`,
// `last`. Creates the current graph's pipeline on first use.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "repl/session.h"

namespace airscope {

struct StageGraph {
  size_t stage = 0;
  std::string label;  // "stage 3 (remove_noop)"
  std::shared_ptr<const Graph> graph;
};

std::string StageLabel(const PipelineRun& run, size_t stage);
Result<StageGraph> ResolveStageGraph(Session& session, std::string_view spec);

}  // namespace airscope

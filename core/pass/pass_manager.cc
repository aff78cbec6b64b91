#include "core/pass/pass_manager.h"

#include <utility>

namespace airscope {

Result<PassOutcome> PassManager::Run(const PassInfo& pass, Graph& graph, PassContext& context) {
  for (PassInstrumentation* inst : instrumentations_) inst->BeforePass(pass, graph);
  // The copy is the rollback point: a pass may fail half way through.
  std::unique_ptr<Graph> before = graph.Clone();
  context.remarks.clear();
  auto start = std::chrono::steady_clock::now();
  Result<bool> changed = pass.run ? pass.run(graph, context)
                                  : Result<bool>(Status::Errorf("pass '{}' has no implementation", pass.name));
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Status failure;
  if (!changed.ok()) {
    failure = Status::Errorf("pass '{}' failed: {}", pass.name, changed.status().message());
  } else if (Status lint = graph.Lint(); !lint.ok()) {
    failure = Status::Errorf("pass '{}' broke the graph: lint: {}", pass.name, lint.message());
  }
  if (!failure.ok()) {
    graph = std::move(*before);
    for (PassInstrumentation* inst : instrumentations_) inst->AfterPassFailed(pass, graph, failure);
    return failure;
  }
  for (PassInstrumentation* inst : instrumentations_) inst->AfterPass(pass, graph, *changed);
  PassOutcome outcome;
  outcome.changed = *changed;
  outcome.seconds = seconds;
  outcome.remarks = std::move(context.remarks);
  return outcome;
}

}  // namespace airscope

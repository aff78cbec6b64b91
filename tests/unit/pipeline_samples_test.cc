// Every sample graph (both torch forms) runs the whole default pipeline with
// the builtin passes, lint clean after every stage, and lowers to tasks.
#include <gtest/gtest.h>

#include "core/lower/task_graph.h"
#include "core/pass/decomposition.h"
#include "core/pass/pipeline_run.h"
#include "repl/graph_loader.h"

namespace airscope {
namespace {

class PipelineSamplesTest : public ::testing::TestWithParam<const char*> {};

TEST_P(PipelineSamplesTest, RunsTheWholePipelineLintClean) {
  std::string path = std::string(AIRSCOPE_TEST_DATA) + "/" + GetParam();
  Result<LoadedGraph> loaded = LoadGraphFile(path, 1 << 24, OpRegistry::Builtin());
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  PassRegistry passes = PassRegistry::WithBuiltins();
  DecompositionTable decompositions = DecompositionTable::Builtin();
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  context.decompositions = &decompositions;
  context.passes = &passes;
  PipelineEnv env;
  env.passes = &passes;
  env.context = &context;
  PipelineRun run(std::shared_ptr<const Graph>(std::move(loaded->graph)));
  Result<RunReport> report = run.RunUntil(std::nullopt, env);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_NE(report->stop, RunReport::Stop::kFailed) << report->error.message();
  EXPECT_TRUE(run.at_end());
  EXPECT_EQ(run.stages().size(), DefaultPipeline().size() + 1);
  for (size_t stage = 0; stage < run.stages().size(); ++stage) {
    Result<std::shared_ptr<const Graph>> graph = run.GraphAt(stage);
    ASSERT_TRUE(graph.ok()) << graph.status().message();
    Status lint = (*graph)->Lint();
    EXPECT_TRUE(lint.ok()) << "stage " << stage << " (" << run.stages()[stage].pass << "): " << lint.message();
  }
  Result<TaskGraph> tasks = BuildTaskGraph(run.Current(), OpRegistry::Builtin());
  ASSERT_TRUE(tasks.ok()) << tasks.status().message();
  EXPECT_FALSE(tasks->tasks.empty());
}

INSTANTIATE_TEST_SUITE_P(Samples, PipelineSamplesTest,
                         ::testing::Values("mlp.graph.txt", "mlp.readable.py", "gpt_block2.graph.txt",
                                           "gpt_block2.readable.py", "gpt2_train_fw.graph.txt",
                                           "gpt2_train_fw.readable.py", "mobilenet_v2.graph.txt",
                                           "mobilenet_v2.readable.py", "seed_multistream.graph.txt",
                                           "seed_multistream.readable.py", "torchair_style_add.pbtxt",
                                           "conv_large_batch.readable.py"));

}  // namespace
}  // namespace airscope

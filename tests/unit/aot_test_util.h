// Helpers of the aot tests: a Dynamo graph from print_readable text, and the
// aot pass run on it with a module table and a world size.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/aot/aot.h"
#include "core/fx/readable.h"
#include "core/pass/builtin_passes.h"
#include "pass_test_util.h"

namespace airscope::testing_util {

inline std::unique_ptr<Graph> ParseDynamo(const std::string& body, const std::string& signature) {
  std::string text = "class GraphModule(torch.nn.Module):\n    def forward(self, " + signature + "):\n" + body;
  auto graph = ParseReadable(text, "test.py");
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  return graph.ok() ? std::move(*graph) : std::make_unique<Graph>();
}

struct AotResult {
  bool changed = false;
  std::vector<std::string> remarks;
  bool Remarks(const std::string& text) const {
    for (const std::string& remark : remarks) {
      if (remark.find(text) != std::string::npos) return true;
    }
    return false;
  }
};

inline AotResult RunAotPass(Graph& graph, const ModuleTable* modules = nullptr, int64_t world_size = 0,
                            bool keep_input_mutations = true) {
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  context.modules = modules;
  context.env.world_size = world_size;
  context.config.keep_inference_input_mutations = keep_input_mutations;
  Result<bool> changed = AotPass().run(graph, context);
  EXPECT_TRUE(changed.ok()) << changed.status().message();
  EXPECT_TRUE(graph.Lint().ok()) << graph.Lint().message();
  return {changed.ok() && *changed, context.remarks};
}

// The calls only (no placeholders), as Describe prints them.
inline std::vector<std::string> Calls(const Graph& graph) {
  std::vector<std::string> out;
  for (const std::string& line : Describe(graph)) {
    if (line.find(" = placeholder(") == std::string::npos) out.push_back(line);
  }
  return out;
}

}  // namespace airscope::testing_util

// Dynamo's graph-sizes table given to its graph (formats/graph_sizes.h).
// The tables are torch's format (torch/_dynamo/output_graph.py,
// get_graph_sizes); the symbolic one is the example of torch's own
// documentation of dynamic shapes (docs/source/torch.compiler_dynamic_shapes,
// "TORCH_LOGS=graph_sizes": `l_a_: (s0, 3)`, `l_a_ (concrete): (8, 3)`).
#include "formats/graph_sizes.h"

#include <gtest/gtest.h>

#include "core/fx/readable.h"
#include "core/scanner.h"

namespace airscope {
namespace {

// The graph that documentation example traces, as print_readable writes it
// (no annotations: Dynamo's graph_code states none).
constexpr const char* kDocGraph =
    "class GraphModule(torch.nn.Module):\n"
    "    def forward(self, s0 : torch.SymInt, L_a_ : torch.Tensor, L_b_ : torch.Tensor):\n"
    "        l_a_ = L_a_\n"
    "        l_b_ = L_b_\n"
    "        # File: /tmp/ex.py:5, code: return a.shape[0] * a * b\n"
    "        mul = s0 * l_a_\n"
    "        mul_1 = mul * l_b_\n"
    "        return (mul_1,)\n";

TorchLogsGraphSizes DocTable() {
  TorchLogsGraphSizes table;
  table.id = "1/0";
  table.title = "__compiled_fn_1";
  table.sizes = {"l_a_: (s0, 3)",   "l_a_ (concrete): (8, 3)", "l_b_: (s0, 3)",  "l_b_ (concrete): (8, 3)",
                 "mul: (s0, 3)",    "mul (concrete): (8, 3)",  "mul_1: (s0, 3)", "mul_1 (concrete): (8, 3)",
                 "scalar_like: ()", "nowhere: (2,)",           "garbled: 2, 3"};
  return table;
}

TEST(GraphSizesTest, TheTablesSizesWithoutADtypeAndNothingElse) {
  auto graph = ParseReadable(kDocGraph, "ex.py");
  ASSERT_TRUE(graph.ok()) << graph.status().message();
  std::vector<std::string> unread;
  std::vector<std::string> contradicted;
  EXPECT_EQ(ApplyGraphSizes(**graph, DocTable(), &unread, &contradicted), 4u);
  EXPECT_TRUE(contradicted.empty());
  for (const char* name : {"l_a_", "l_b_", "mul", "mul_1"}) {
    const TensorMeta* tensor = (*graph)->Find(name)->tensor();
    ASSERT_NE(tensor, nullptr) << name;
    EXPECT_EQ(tensor->ShapeString(), "?[s0, 3]") << name;  // the symbolic size, not the concrete hint
    EXPECT_FALSE(tensor->NumBytes().has_value());
  }
  // mul kept the comment it had; the SymInt placeholder is no tensor and got nothing.
  EXPECT_EQ((*graph)->Find("mul")->meta()->stack_trace, "# File: /tmp/ex.py:5, code: return a.shape[0] * a * b");
  EXPECT_EQ((*graph)->Find("s0")->meta(), nullptr);
  // Lines naming no node, or not `NAME: (sizes)`, are said, not dropped.
  EXPECT_EQ(unread, (std::vector<std::string>{"scalar_like: ()", "nowhere: (2,)", "garbled: 2, 3"}));
}

TEST(GraphSizesTest, AStatedValueIsKeptAndTheTableFindsItsGraph) {
  auto graph = ParseReadable(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[8]\"):\n"
      "        neg: \"f32[8]\" = torch.ops.aten.neg.default(x)\n"
      "        return (neg,)\n",
      "m.py");
  ASSERT_TRUE(graph.ok());
  TorchLogsGraphSizes table;
  table.sizes = {"x: (8,)", "neg: (9,)"};
  std::vector<std::string> unread, contradicted;
  EXPECT_EQ(ApplyGraphSizes(**graph, table, &unread, &contradicted), 0u);  // annotations win: nothing is overwritten
  EXPECT_EQ((*graph)->Find("neg")->tensor()->ShapeString(), "f32[8]");
  // ... and where the table says otherwise, that is said.
  EXPECT_EQ(contradicted, std::vector<std::string>{"neg: (9,), but the graph has f32[8]"});

  TorchLogs log;
  log.graph_sizes.push_back(DocTable());
  TorchLogsGraph dynamo;
  dynamo.id = "1/0";
  dynamo.title = "__compiled_fn_1";
  EXPECT_EQ(GraphSizesTableOf(log, dynamo), &log.graph_sizes[0]);
  dynamo.id = "0/0";
  EXPECT_EQ(GraphSizesTableOf(log, dynamo), nullptr);  // another compile's graph
  dynamo.id = "1/0";
  dynamo.title = "Forward graph 0";
  EXPECT_EQ(GraphSizesTableOf(log, dynamo), nullptr);  // AOT's graphs have other node names
}

}  // namespace
}  // namespace airscope

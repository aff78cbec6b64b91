#include "core/analysis/sym_expr_nodes.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/analysis/node_util.h"
#include "core/fx/fx_text.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

// arg0_1: Sym(s0), arg1_1: Sym(s1), x: f32[s0]; `use` is where sizes are built before.
std::unique_ptr<Graph> SymGraph() {
  return testing_util::ParseForward("arg0_1: \"Sym(s0)\", arg1_1: \"Sym(s1)\", x: \"f32[s0]\"",
                                    "        use: \"f32[s0]\" = torch.ops.aten.exp.default(x)\n"
                                    "        return (use,)\n");
}

// The nodes built, as FX prints them, in order.
std::vector<std::string> BuiltNodes(const Graph& graph) {
  std::vector<std::string> lines;
  for (const Node* node : graph) {
    if (node->target().starts_with("operator.")) lines.push_back(PrintFxNode(graph, *node));
  }
  return lines;
}

TEST(SymExprNodesTest, BuildsWhatPythonBuildsWithProxies) {
  auto graph = SymGraph();
  const std::map<std::string, Node*> inputs = SymIntPlaceholders(*graph);
  SymExprNodes sizes(*graph, inputs, OpRegistry::Builtin());
  Node* use = graph->Find("use");
  // A reflected operator keeps the source order: 2 * s0 is operator.mul(2, arg0_1).
  Result<Argument> twice = sizes.Build("2*s0", use);
  ASSERT_TRUE(twice.ok()) << twice.status().message();
  ASSERT_TRUE(twice->is_node());
  // Ints fold among themselves (2**3 is 8), operations left to right, unary minus a neg node.
  ASSERT_TRUE(sizes.Build("32*(s0//32) + 2**3*s1", use).ok());
  ASSERT_TRUE(sizes.Build("-s0 + 10", use).ok());
  EXPECT_EQ(
      BuiltNodes(*graph),
      (std::vector<std::string>{
          "%mul : [num_users=0] = call_function[target=operator.mul](args = (2, %arg0_1), kwargs = {})",
          "%floordiv : [num_users=1] = call_function[target=operator.floordiv](args = (%arg0_1, 32), kwargs = {})",
          "%mul_1 : [num_users=1] = call_function[target=operator.mul](args = (32, %floordiv), kwargs = {})",
          "%mul_2 : [num_users=1] = call_function[target=operator.mul](args = (8, %arg1_1), kwargs = {})",
          "%add : [num_users=0] = call_function[target=operator.add](args = (%mul_1, %mul_2), kwargs = {})",
          "%neg : [num_users=1] = call_function[target=operator.neg](args = (%arg0_1,), kwargs = {})",
          "%add_1 : [num_users=0] = call_function[target=operator.add](args = (%neg, 10), kwargs = {})",
      }));
  // The same text again is the same node (TorchAir's _GLOBAL_SYM_EXPR_2_NODE_MAP); a symbol is its placeholder.
  Result<Argument> again = sizes.Build("2*s0", use);
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(again->as_node(), twice->as_node());
  Result<Argument> single = sizes.Build("s1", use);
  ASSERT_TRUE(single.ok());
  EXPECT_EQ(single->as_node()->name(), "arg1_1");
  EXPECT_EQ(BuiltNodes(*graph).size(), 7u);
  EXPECT_TRUE(graph->Lint().ok());
}

TEST(SymExprNodesTest, CheckSaysWhatAirscopeDoesNotEvaluateAndBuildsNothing) {
  auto graph = SymGraph();
  const std::map<std::string, Node*> inputs = SymIntPlaceholders(*graph);
  SymExprNodes sizes(*graph, inputs, OpRegistry::Builtin());
  size_t before = graph->size();
  Result<std::string> ok = sizes.Check("2*s0 + s1");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(*ok, "");
  Result<std::string> call = sizes.Check("Max(1, s0)");
  ASSERT_TRUE(call.ok());
  EXPECT_NE(call->find("the call Max(...) is not an expression airscope builds nodes for"), std::string::npos) << *call;
  Result<std::string> division = sizes.Check("s0/2");
  ASSERT_TRUE(division.ok());
  EXPECT_NE(division->find("true division (/)"), std::string::npos) << *division;
  // A symbol no placeholder is: TorchAir's own error, not airscope's limit.
  Result<std::string> unknown = sizes.Check("2*s9");
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("KeyError: s9"), std::string::npos) << unknown.status().message();
  EXPECT_EQ(graph->size(), before);
}

}  // namespace
}  // namespace airscope

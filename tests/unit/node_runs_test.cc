#include "core/analysis/node_runs.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

TEST(NodeRunsTest, ParsesBothOfTorchsFileCommentForms) {
  // torch >= 2.2 (fx/graph.py: `File: {file}:{lineno} in {name}, code: {code}`), from a real log
  // (tests/data/torch_logs/troubleshooting_graph_code.log).
  auto frame = ParseFileComment("# File: /data/users/williamwen/pytorch/playground.py:8 in f, code: x = torch.sin(x)");
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->file, "/data/users/williamwen/pytorch/playground.py");
  EXPECT_EQ(frame->line, "8");
  EXPECT_EQ(frame->function, "f");
  EXPECT_EQ(frame->code, "x = torch.sin(x)");
  // torch 2.0-2.1: no function; a path with " in " and a code with ", code: " in it.
  frame = ParseFileComment("File: /my dir/a in b.py:12, code: s = f(\", code: \")");
  ASSERT_TRUE(frame.has_value());
  EXPECT_EQ(frame->file, "/my dir/a in b.py");
  EXPECT_EQ(frame->line, "12");
  EXPECT_EQ(frame->function, "");
  EXPECT_EQ(frame->code, "s = f(\", code: \")");
  EXPECT_FALSE(ParseFileComment("# No stacktrace found for following nodes").has_value());
  EXPECT_FALSE(ParseFileComment("# File: no line number, code: x").has_value());
  EXPECT_FALSE(ParseFileComment("x = 1").has_value());
}

// torch writes a comment where the stack trace changes; the nodes after it share it.
std::unique_ptr<Graph> Commented() {
  return testing_util::ParseForward("x: \"f32[4]\"",
                                    "        # File: /m.py:8 in f, code: y = torch.sin(x) + 1\n"
                                    "        sin: \"f32[4]\" = torch.ops.aten.sin.default(x)\n"
                                    "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(sin, 1)\n"
                                    "        # File: /m.py:9 in f, code: return g(y)\n"
                                    "        neg: \"f32[4]\" = torch.ops.aten.neg.default(add)\n"
                                    "        # File: /m.py:3 in g, code: return y * 2\n"
                                    "        mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(neg, 2)\n"
                                    "        # No stacktrace found for following nodes\n"
                                    "        cos: \"f32[4]\" = torch.ops.aten.cos.default(mul)\n"
                                    "        return (cos,)\n");
}

struct RunView {
  size_t begin, end;
  std::string key;
  bool operator==(const RunView&) const = default;
};

std::vector<RunView> RunViews(const std::vector<NodeRun>& runs) {
  std::vector<RunView> out;
  for (const NodeRun& run : runs) out.push_back({run.begin, run.end, run.key});
  return out;
}

TEST(NodeRunsTest, ASourceHoldsUntilTheNextCommentAndNoStacktraceEndsIt) {
  auto graph = Commented();
  // Positions: x 0, sin 1, add 2, neg 3, mul 4, cos 5, output 6.
  std::vector<NodeRun> lines = NodeRuns(*graph, RunKey::kLine);
  EXPECT_EQ(RunViews(lines),
            (std::vector<RunView>{
                {0, 1, ""}, {1, 3, "/m.py:8 in f"}, {3, 4, "/m.py:9 in f"}, {4, 5, "/m.py:3 in g"}, {5, 7, ""}}));
  EXPECT_EQ(lines[1].code, "y = torch.sin(x) + 1");
  EXPECT_EQ(RunViews(NodeRuns(*graph, RunKey::kFunction)),
            (std::vector<RunView>{{0, 1, ""}, {1, 4, "/m.py in f"}, {4, 5, "/m.py in g"}, {5, 7, ""}}));
  EXPECT_EQ(NodesWithSource(*graph), 4u);
  // A range starting inside a run still knows the comment before it.
  EXPECT_EQ(RunViews(NodeRuns(*graph, RunKey::kLine, 2, 4)),
            (std::vector<RunView>{{2, 3, "/m.py:8 in f"}, {3, 4, "/m.py:9 in f"}}));
}

TEST(NodeRunsTest, StreamsRunWhereConsecutiveNodesShareOne) {
  auto graph = Commented();
  graph->SetStream(graph->Find("sin"), "s1");
  graph->SetStream(graph->Find("add"), "s1");
  graph->SetStream(graph->Find("neg"), "s2");
  EXPECT_EQ(RunViews(NodeRuns(*graph, RunKey::kStream)),
            (std::vector<RunView>{{0, 1, ""}, {1, 3, "s1"}, {3, 4, "s2"}, {4, 7, ""}}));
  EXPECT_EQ(NodesWithSource(*testing_util::ParseForward("x: \"f32[4]\"", "        return (x,)\n")), 0u);
}

}  // namespace
}  // namespace airscope

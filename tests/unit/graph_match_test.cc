// MatchGraphs: equality up to node names, the check behind `expect graph matches`.
#include <gtest/gtest.h>

#include "core/fx/readable.h"
#include "core/ir/graph_match.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

// `body` starts with the forward's parameters: "x):\n        ...".
std::unique_ptr<Graph> ParseForwardTail(std::string_view body) {
  return testing_util::ParseModule("    def forward(self, " + std::string(body));
}

TEST(GraphMatchTest, NamesAndAnnotationsDoNotMatter) {
  auto a = ParseForwardTail(
      "arg0_1: \"f32[4, 4]\"):\n"
      "        add: \"f32[4, 4]\" = torch.ops.aten.add.Tensor(arg0_1, 1)\n"
      "        copy_ = torch.ops.aten.copy_.default(arg0_1, add)\n"
      "        return (add,)\n");
  auto b = ParseForwardTail(
      "x):\n"
      "        y = aten.add.Tensor(x, 1)\n"
      "        z = torch.ops.aten.copy_.default(x, y)\n"
      "        return (y,)\n");
  std::string why;
  EXPECT_TRUE(MatchGraphs(*a, *b, &why)) << why;
}

TEST(GraphMatchTest, ReferencesMustPointAtTheSamePosition) {
  auto a = ParseForwardTail(
      "x, y):\n"
      "        add = torch.ops.aten.add.Tensor(x, y)\n"
      "        return (add,)\n");
  auto b = ParseForwardTail(
      "x, y):\n"
      "        add = torch.ops.aten.add.Tensor(y, x)\n"
      "        return (add,)\n");
  std::string why;
  size_t at = 0;
  EXPECT_FALSE(MatchGraphs(*a, *b, &why, &at));
  EXPECT_EQ(at, 2u);
  EXPECT_NE(why.find("arg 0 differs"), std::string::npos) << why;
}

TEST(GraphMatchTest, TargetsKwargsAndLengthAreCompared) {
  auto a = ParseForwardTail(
      "x):\n        s = torch.ops.aten.sum.dim_IntList(x, [0], keepdim = True)\n        return (s,)\n");
  auto other_target =
      ParseForwardTail("x):\n        s = torch.ops.aten.mean.dim(x, [0], keepdim = True)\n        return (s,)\n");
  auto other_kwarg = ParseForwardTail(
      "x):\n        s = torch.ops.aten.sum.dim_IntList(x, [0], keepdim = False)\n        return (s,)\n");
  auto longer = ParseForwardTail(
      "x):\n        s = torch.ops.aten.sum.dim_IntList(x, [0], keepdim = True)\n"
      "        t = torch.ops.aten.neg.default(s)\n        return (s,)\n");
  std::string why;
  EXPECT_FALSE(MatchGraphs(*a, *other_target, &why));
  EXPECT_NE(why.find("target"), std::string::npos) << why;
  EXPECT_FALSE(MatchGraphs(*a, *other_kwarg, &why));
  EXPECT_NE(why.find("kwarg 'keepdim'"), std::string::npos) << why;
  EXPECT_FALSE(MatchGraphs(*a, *longer, &why));
}

}  // namespace
}  // namespace airscope

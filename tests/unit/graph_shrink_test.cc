// KeepOnly (core/analysis/graph_shrink.h): a cut value becomes an input of the
// same meta, a getitem of a cut producer becomes that input, unused inputs go,
// the output returns what nothing kept reads, and the result lints.
#include "core/analysis/graph_shrink.h"

#include <gtest/gtest.h>

#include "core/fx/readable.h"

namespace airscope {
namespace {

std::unique_ptr<Graph> ParseReadableText(const std::string& text) {
  auto g = ParseReadable(text, "test.py");
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(*g) : nullptr;
}

std::vector<uint32_t> Positions(const Graph& g, std::initializer_list<const char*> names) {
  std::vector<uint32_t> out;
  for (const char* n : names) out.push_back(g.PositionOf(g.Find(n)));
  std::sort(out.begin(), out.end());
  return out;
}

const std::string kGraph =
    "class GraphModule(torch.nn.Module):\n"
    "    def forward(self, x: \"f32[4, 4]\", y: \"f32[4]\"):\n"
    "        relu: \"f32[4, 4]\" = torch.ops.aten.relu.default(x)\n"
    "        split = torch.ops.aten.split.Tensor(relu, 2)\n"
    "        getitem: \"f32[2, 4]\" = split[0]\n"
    "        mul: \"f32[2, 4]\" = torch.ops.aten.mul.Tensor(getitem, 2)\n"
    "        sum_1: \"f32[]\" = torch.ops.aten.sum.default(mul)\n"
    "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(y, 1)\n"
    "        return (sum_1, add)\n";

TEST(GraphShrinkTest, ShrinkableNodesAreAllButInputsAndOutput) {
  auto g = ParseReadableText(kGraph);
  EXPECT_EQ(ShrinkableNodes(*g).size(), 6u);
  EXPECT_EQ(ComputeNodeCount(*g), 6u);
}

TEST(GraphShrinkTest, ACutValueBecomesAnInputOfTheSameShape) {
  auto g = ParseReadableText(kGraph);
  auto kept = KeepOnly(*g, Positions(*g, {"sum_1"}));
  ASSERT_TRUE(kept->Lint().ok()) << kept->Lint().message();
  EXPECT_EQ(PrintReadable(*kept),
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, mul: \"f32[2, 4]\"):\n"
            "        sum_1: \"f32[]\" = torch.ops.aten.sum.default(mul)\n"
            "        return (sum_1,)\n");
}

TEST(GraphShrinkTest, AGetitemOfACutProducerIsTheInputItself) {
  auto g = ParseReadableText(kGraph);
  auto kept = KeepOnly(*g, Positions(*g, {"getitem", "mul"}));
  ASSERT_TRUE(kept->Lint().ok()) << kept->Lint().message();
  ASSERT_NE(kept->Find("getitem"), nullptr);
  EXPECT_EQ(kept->Find("getitem")->op(), OpKind::kPlaceholder);
  EXPECT_EQ(kept->Find("getitem")->tensor()->ShapeString(), "f32[2, 4]");
  EXPECT_EQ(kept->Find("split"), nullptr);
  EXPECT_EQ(kept->Placeholders().size(), 1u);  // x and y: nothing kept reads them
}

TEST(GraphShrinkTest, OutputReturnsWhatNothingKeptReads) {
  auto g = ParseReadableText(kGraph);
  auto kept = KeepOnly(*g, Positions(*g, {"relu", "add"}));
  ASSERT_TRUE(kept->Lint().ok()) << kept->Lint().message();
  const Node* out = kept->output();
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(out->args()[0].items().size(), 2u);
  EXPECT_EQ(out->args()[0].items()[0].as_node()->name(), "relu");
  EXPECT_EQ(out->args()[0].items()[1].as_node()->name(), "add");
  EXPECT_EQ(kept->Placeholders().size(), 2u);  // x and y, as they were
  EXPECT_EQ(kept->size(), 5u);
}

}  // namespace
}  // namespace airscope

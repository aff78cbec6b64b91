// minify's size steps (repl/minify_sizes.h): the search for the smallest
// failing size, the `call` lines of a script read and written back, and a
// graph input resized only where shape inference can follow.
#include "repl/minify_sizes.h"

#include <gtest/gtest.h>

#include "core/fx/readable.h"
#include "repl/command_table.h"

namespace airscope {
namespace {

TEST(MinifySizesTest, SmallestFailingSizeHalvesDownToTheThreshold) {
  std::vector<int64_t> asked;
  Result<int64_t> smallest = SmallestFailingSize(100, [&](int64_t size) -> Result<bool> {
    asked.push_back(size);
    return size >= 37;
  });
  ASSERT_TRUE(smallest.ok());
  EXPECT_EQ(*smallest, 37);
  EXPECT_EQ(asked.front(), 1);  // 1 first, then halving
  EXPECT_LE(asked.size(), 8u);  // 1 + log2(100)
  // Nothing smaller fails: the size stays; an error stops the search.
  EXPECT_EQ(*SmallestFailingSize(8, [](int64_t) -> Result<bool> { return false; }), 8);
  EXPECT_EQ(*SmallestFailingSize(1, [](int64_t) -> Result<bool> { return true; }), 1);
  Result<int64_t> stopped = SmallestFailingSize(8, [](int64_t) -> Result<bool> { return Status::Error("stop"); });
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.status().message(), "stop");
}

TEST(MinifySizesTest, ScriptCallsFindsCallLinesAndCallLineWritesThemBack) {
  CommandTable table = BuildCommandTable();
  std::vector<std::string> lines = {
      "# calls",       "call x=f32[4, 8]:cpu grad s=4 keep", "expect nodes 3", "call x = bf16[2,2]@[1,2]",
      "call x=f33[2]",  // does not parse: left to fail as it would
  };
  std::vector<ScriptCall> calls = ScriptCalls(lines, table);
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].line, 1u);
  EXPECT_EQ(calls[1].line, 3u);
  EXPECT_EQ(CallLine(calls[0].spec), "call x=f32[4,8]:cpu grad s=4 keep");
  ASSERT_TRUE(ResizableInput(calls[0].spec.inputs[0]));
  EXPECT_FALSE(ResizableInput(calls[0].spec.inputs[1]));  // a scalar
  // Strides that are not contiguous are written back and keep the sizes.
  EXPECT_EQ(CallLine(calls[1].spec), "call x=bf16[2,2]@[1,2]");
  EXPECT_FALSE(ResizableInput(calls[1].spec.inputs[0]));
  // A resized input has contiguous strides for its new sizes.
  CallSpec smaller = calls[0].spec;
  smaller.inputs[0] = Resized(smaller.inputs[0], 0, 1);
  EXPECT_EQ(CallLine(smaller), "call x=f32[1,8]:cpu grad s=4 keep");
  EXPECT_EQ(smaller.inputs[0].strides, (std::vector<int64_t>{8, 1}));
}

std::unique_ptr<Graph> Parse(const std::string& text) {
  auto g = ParseReadable(text, "test.py");
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(*g) : nullptr;
}

TEST(MinifySizesTest, WithInputSizeInfersTheGraphAgain) {
  auto g = Parse(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[64, 32]\", w: \"f32[32, 16]\"):\n"
      "        mm: \"f32[64, 16]\" = torch.ops.aten.mm.default(x, w)\n"
      "        relu: \"f32[64, 16]\" = torch.ops.aten.relu.default(mm)\n"
      "        return (relu,)\n");
  ASSERT_NE(g, nullptr);
  Result<std::shared_ptr<const Graph>> smaller = WithInputSize(*g, 0, 0, 5, OpRegistry::Builtin());
  ASSERT_TRUE(smaller.ok()) << smaller.status().message();
  EXPECT_EQ((*smaller)->Find("x")->tensor()->ShapeString(), "f32[5, 32]");
  EXPECT_EQ((*smaller)->Find("relu")->tensor()->ShapeString(), "f32[5, 16]");
  EXPECT_EQ(g->Find("relu")->tensor()->ShapeString(), "f32[64, 16]");  // the graph given is untouched
  // The inner dim of mm must agree with w's: inference refuses, no candidate.
  Result<std::shared_ptr<const Graph>> refused = WithInputSize(*g, 0, 1, 8, OpRegistry::Builtin());
  EXPECT_FALSE(refused.ok());
}

TEST(MinifySizesTest, WithInputSizeRefusesASizeBakedIntoAView) {
  auto g = Parse(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[8, 4]\"):\n"
      "        view: \"f32[32]\" = torch.ops.aten.view.default(x, [32])\n"
      "        return (view,)\n");
  ASSERT_NE(g, nullptr);
  Result<std::shared_ptr<const Graph>> smaller = WithInputSize(*g, 0, 0, 2, OpRegistry::Builtin());
  ASSERT_FALSE(smaller.ok());
  EXPECT_NE(smaller.status().message().find("node 'view'"), std::string::npos) << smaller.status().message();
}

}  // namespace
}  // namespace airscope

// SplitAtOps (core/analysis/piecewise_split.h): vLLM's split_graph and torch's
// split_module on a graph shaped like the attention part of a vLLM layer. The
// piece around the two split ops reads (key_2, s72, value, query_2, output_4),
// the order vLLM PR #33441 shows for submod_1 of a real Llama layer: inputs by
// first read, and the symbol s72 right after the first input whose shape has it.
#include "core/analysis/piecewise_split.h"

#include <gtest/gtest.h>

#include <vector>

#include "core/fx/readable.h"

namespace airscope {
namespace {

std::unique_ptr<Graph> Parse(const std::string& text) {
  auto g = ParseReadable(text, "test.py");
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(*g) : nullptr;
}

std::vector<SplitOp> Ops(std::initializer_list<const char*> written) {
  std::vector<SplitOp> ops;
  for (const char* w : written) {
    auto op = ParseSplitOp(w);
    EXPECT_TRUE(op.ok()) << op.status().message();
    if (op.ok()) ops.push_back(*op);
  }
  return ops;
}

const std::string kLayer =
    "class GraphModule(torch.nn.Module):\n"
    "    def forward(self, s72: \"Sym(s72)\", x: \"bf16[s72, 128]\", w: \"bf16[128, 128]\"):\n"
    "        mm: \"bf16[s72, 128]\" = torch.ops.aten.mm.default(x, w)\n"
    "        key_2: \"bf16[s72, 2, 64]\" = torch.ops.aten.view.default(mm, [-1, 2, 64])\n"
    "        value: \"bf16[s72, 2, 64]\" = torch.ops.aten.view.default(x, [-1, 2, 64])\n"
    "        query_2: \"bf16[s72, 2, 64]\" = torch.ops.aten.view.default(mm, [-1, 2, 64])\n"
    "        output_4: \"bf16[s72, 2, 64]\" = torch.ops.aten.empty.memory_format([s72, 2, 64], dtype = "
    "torch.bfloat16)\n"
    "        unified_kv_cache_update: \"bf16[0]\" = torch.ops.vllm.unified_kv_cache_update(key_2, value, "
    "'model.layers.0.attn.attn')\n"
    "        unified_attention_with_output = torch.ops.vllm.unified_attention_with_output(query_2, key_2, value, "
    "output_4, 'model.layers.0.attn.attn', kv_cache_dummy_dep = unified_kv_cache_update)\n"
    "        view_1: \"bf16[s72, 128]\" = torch.ops.aten.view.default(output_4, [-1, 128])\n"
    "        add: \"bf16[s72, 128]\" = torch.ops.aten.add.Tensor(view_1, x)\n"
    "        return (add,)\n";

TEST(PiecewiseSplitTest, SplitsALayerAtItsAttentionAsVllmDoes) {
  auto g = Parse(kLayer);
  auto split = SplitAtOps(*g, Ops({"vllm::unified_kv_cache_update", "vllm::unified_attention_with_output"}));
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->pieces.size(), 3u);
  const GraphPiece& before = split->pieces[0];
  const GraphPiece& attention = split->pieces[1];
  const GraphPiece& after = split->pieces[2];
  EXPECT_EQ(before.name, "submod_0");
  EXPECT_FALSE(before.is_split_op);
  EXPECT_EQ(before.inputs, (std::vector<std::string>{"x", "s72", "w"}));
  EXPECT_EQ(before.outputs, (std::vector<std::string>{"key_2", "value", "query_2", "output_4"}));
  // The two split ops in a row share one piece (vLLM PR #33441).
  EXPECT_EQ(attention.name, "submod_1");
  EXPECT_TRUE(attention.is_split_op);
  EXPECT_EQ(attention.inputs, (std::vector<std::string>{"key_2", "s72", "value", "query_2", "output_4"}));
  EXPECT_TRUE(attention.outputs.empty());
  EXPECT_EQ(after.name, "submod_2");
  EXPECT_EQ(after.inputs, (std::vector<std::string>{"output_4", "s72", "x"}));
  EXPECT_EQ(after.outputs, (std::vector<std::string>{"add"}));
  for (const GraphPiece& p : split->pieces) EXPECT_TRUE(p.graph->Lint().ok()) << p.name << p.graph->Lint().message();
  EXPECT_EQ(PrintReadable(*attention.graph),
            "class GraphModule(torch.nn.Module):\n"
            "    def forward(self, key_2: \"bf16[s72, 2, 64]\", s72: \"Sym(s72)\", value: \"bf16[s72, 2, 64]\", "
            "query_2: \"bf16[s72, 2, 64]\", output_4: \"bf16[s72, 2, 64]\"):\n"
            "        unified_kv_cache_update: \"bf16[0]\" = torch.ops.vllm.unified_kv_cache_update(key_2, value, "
            "'model.layers.0.attn.attn')\n"
            "        unified_attention_with_output = torch.ops.vllm.unified_attention_with_output(query_2, key_2, "
            "value, output_4, 'model.layers.0.attn.attn', kv_cache_dummy_dep = unified_kv_cache_update)\n"
            "        return ()\n");
  EXPECT_TRUE(split->unmatched.empty());
}

TEST(PiecewiseSplitTest, TheStitchedGraphCallsEachPiece) {
  auto g = Parse(kLayer);
  auto split = SplitAtOps(*g, Ops({"vllm::unified_kv_cache_update", "vllm::unified_attention_with_output"}));
  ASSERT_TRUE(split.ok()) << split.status().message();
  std::string text = PrintReadable(*split->stitched);
  EXPECT_NE(text.find("submod_0 = self.submod_0(x, s72, w)"), std::string::npos) << text;
  EXPECT_NE(text.find("getitem_3: \"bf16[s72, 2, 64]\" = operator.getitem(submod_0, 3)"), std::string::npos) << text;
  EXPECT_NE(text.find("self.submod_1(getitem, s72, getitem_1, getitem_2, getitem_3)"), std::string::npos) << text;
  EXPECT_NE(text.find("self.submod_2(getitem_3, s72, x)"), std::string::npos) << text;
  EXPECT_NE(text.find("return (submod_2,)"), std::string::npos) << text;
}

TEST(PiecewiseSplitTest, EachSplitOpApartGetsItsOwnPieceAndIdsSkipEmptyOnes) {
  // Starting with a split op leaves no submod_0; one split op between two
  // others makes pieces 1, 2, 3.
  auto g = Parse(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[4]\"):\n"
      "        relu: \"f32[4]\" = torch.ops.aten.relu.default(x)\n"
      "        neg: \"f32[4]\" = torch.ops.aten.neg.default(relu)\n"
      "        relu_1: \"f32[4]\" = torch.ops.aten.relu.default(neg)\n"
      "        return (relu_1,)\n");
  auto split = SplitAtOps(*g, Ops({"aten::relu", "vllm::unified_attention"}));
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->pieces.size(), 3u);
  EXPECT_EQ(split->pieces[0].name, "submod_1");
  EXPECT_TRUE(split->pieces[0].is_split_op);
  EXPECT_EQ(split->pieces[1].name, "submod_2");
  EXPECT_FALSE(split->pieces[1].is_split_op);
  EXPECT_EQ(split->pieces[2].name, "submod_3");
  EXPECT_EQ(split->unmatched, (std::vector<std::string>{"vllm::unified_attention"}));
}

TEST(PiecewiseSplitTest, AGetitemStaysWithTheNodeItReads) {
  auto g = Parse(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[4, 4]\"):\n"
      "        split = torch.ops.aten.split.Tensor(x, 2)\n"
      "        relu: \"f32[4, 4]\" = torch.ops.aten.relu.default(x)\n"
      "        getitem: \"f32[2, 4]\" = split[0]\n"
      "        neg: \"f32[2, 4]\" = torch.ops.aten.neg.default(getitem)\n"
      "        return (neg, relu)\n");
  auto split = SplitAtOps(*g, Ops({"aten::relu"}));
  ASSERT_TRUE(split.ok()) << split.status().message();
  ASSERT_EQ(split->pieces.size(), 3u);
  EXPECT_EQ(split->pieces[0].outputs, (std::vector<std::string>{"getitem"}));
  EXPECT_EQ(split->pieces[2].inputs, (std::vector<std::string>{"getitem"}));
}

TEST(PiecewiseSplitTest, ASymbolNoNodeDefinesIsAnError) {
  auto g = Parse(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[s0, 4]\"):\n"
      "        relu: \"f32[s0, 4]\" = torch.ops.aten.relu.default(x)\n"
      "        neg: \"f32[s0, 4]\" = torch.ops.aten.neg.default(relu)\n"
      "        return (neg,)\n");
  auto split = SplitAtOps(*g, Ops({"aten::neg"}));
  ASSERT_FALSE(split.ok());
  EXPECT_EQ(split.status().message(),
            "piece submod_0 reads 'x', whose shape has the symbol s0, and no node of the graph is that symbol (a "
            "SymInt input Sym(s0)): torch's split_module needs it to pass the symbol to the piece");
}

TEST(PiecewiseSplitTest, SplitOpsAreWrittenAsPyTorchNamesThem) {
  auto packet = ParseSplitOp("vllm::unified_attention");
  ASSERT_TRUE(packet.ok());
  EXPECT_EQ(packet->op, "vllm.unified_attention");
  EXPECT_EQ(packet->overload, "default");
  auto overload = ParseSplitOp("aten.add.Tensor");
  ASSERT_TRUE(overload.ok());
  EXPECT_EQ(overload->op, "aten.add");
  EXPECT_EQ(overload->overload, "Tensor");
  EXPECT_FALSE(ParseSplitOp("attention").ok());
  EXPECT_FALSE(ParseSplitOp("vllm::").ok());
  EXPECT_FALSE(ParseSplitOp("a b::c").ok());
  auto g = Parse(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[4]\"):\n"
      "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(x, x)\n"
      "        add_1: \"f32[4]\" = torch.ops.aten.add.default(x, x)\n"
      "        return (add, add_1)\n");
  EXPECT_TRUE(MatchesSplitOp(*g->Find("add"), *overload));
  EXPECT_FALSE(MatchesSplitOp(*g->Find("add_1"), *overload));
  auto add_default = ParseSplitOp("aten::add");
  ASSERT_TRUE(add_default.ok());
  EXPECT_FALSE(MatchesSplitOp(*g->Find("add"), *add_default));
  EXPECT_TRUE(MatchesSplitOp(*g->Find("add_1"), *add_default));
  EXPECT_EQ(DefaultSplitOps().front(), "vllm::unified_attention");
}

}  // namespace
}  // namespace airscope

// PiecewiseRuntime (core/runtime/piecewise_runtime.h) and the capture plan
// (core/runtime/capture_plan.h) on a graph shaped like two layers of a vLLM
// model: each piece between attentions captured once per size into one pool,
// the streams each graph holds counted against the device's budget, and the
// plan's answers checked against vllm-ascend's own worked examples.
#include "core/runtime/piecewise_runtime.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/device/device_spec.h"
#include "core/fx/readable.h"
#include "core/runtime/capture_plan.h"
#include "core/spread_sample.h"

namespace airscope {
namespace {

// Two layers: projection, attention (a split op) writing into a buffer the
// piece before made, output projection and residual.
std::string Layers(int layers) {
  std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, s72: \"Sym(s72)\", x: \"bf16[s72, 128]\", w: \"bf16[128, 128]\"):\n";
  std::string h = "x";
  for (int l = 0; l < layers; ++l) {
    std::string n = std::to_string(l);
    text += "        q" + n + ": \"bf16[s72, 128]\" = torch.ops.aten.mm.default(" + h + ", w)\n";
    text += "        o" + n +
            ": \"bf16[s72, 128]\" = torch.ops.aten.empty.memory_format([s72, 128], dtype = torch.bfloat16)\n";
    text += "        a" + n + " = torch.ops.vllm.unified_attention_with_output(q" + n + ", q" + n + ", q" + n + ", o" +
            n + ", 'model.layers." + n + ".attn')\n";
    text += "        p" + n + ": \"bf16[s72, 128]\" = torch.ops.aten.mm.default(o" + n + ", w)\n";
    text += "        h" + n + ": \"bf16[s72, 128]\" = torch.ops.aten.add.Tensor(p" + n + ", " + h + ")\n";
    h = "h" + n;
  }
  text += "        return (" + h + ",)\n";
  return text;
}

Result<PiecewiseRuntime> Make(int layers, PiecewiseOptions options) {
  auto graph = ParseReadable(Layers(layers), "layers.py");
  if (!graph.ok()) return graph.status();
  auto op = ParseSplitOp("vllm::unified_attention_with_output");
  auto split = SplitAtOps(**graph, std::vector<SplitOp>{*op});
  if (!split.ok()) return split.status();
  std::vector<RuntimePiece> pieces;
  for (GraphPiece& p : split->pieces) {
    RuntimePiece piece;
    piece.lowered = p.graph;
    piece.piece = std::move(p);
    pieces.push_back(std::move(piece));
  }
  return PiecewiseRuntime::Make("layers", std::move(pieces), std::move(options), OpRegistry::Builtin());
}

DeviceSpec Spec(int64_t streams) {
  DeviceSpec spec = *DevicePreset("ascend-910b");
  spec.streams = streams;
  return spec;
}

TEST(PiecewiseRuntimeTest, CapturesEachPieceOncePerSizeIntoOnePoolLargestFirst) {
  PiecewiseOptions options;
  options.capture_sizes = {1, 4, 2};
  auto rt = Make(2, options);
  ASSERT_TRUE(rt.ok()) << rt.status().message();
  EXPECT_EQ(rt->size_symbol(), "s72");
  EXPECT_EQ(rt->captured_instances(), 3u);  // layers + 1
  EXPECT_EQ(rt->CaptureOrder(), (std::vector<int64_t>{4, 2, 1}));
  SimDevice device(Spec(0));
  PoolId pool = device.allocator().CreatePool("vLLM global graph pool");
  std::vector<int64_t> after;
  for (int64_t size : rt->CaptureOrder()) {
    std::vector<std::string> lines;
    auto c = rt->CaptureSize(size, device, pool, OpRegistry::Builtin(), &lines);
    ASSERT_TRUE(c.ok()) << c.status().message();
    EXPECT_EQ(c->graphs.size(), 3u);
    EXPECT_EQ(c->streams, 3);  // one stream each, no communication
    ASSERT_EQ(lines.size(), 1u);
    EXPECT_NE(lines[0].find("Capturing a aclgraph on (PIECEWISE"), std::string::npos);
    after.push_back(c->pool_after);
  }
  EXPECT_EQ(device.captured().size(), 9u);
  EXPECT_EQ(device.streams_held(), 9);
  // Size 4 grows the pool; the smaller sizes fit in what it left.
  EXPECT_GT(after[0], 0);
  EXPECT_EQ(after[1], after[0]);
  EXPECT_EQ(after[2], after[0]);
  EXPECT_EQ(device.allocator().Stats(pool).allocated, 0);  // every forward's values went back to the pool
  rt->Release(device);
  EXPECT_EQ(device.captured().size(), 0u);
  EXPECT_EQ(device.streams_held(), 0);
}

TEST(PiecewiseRuntimeTest, ACaptureBeyondTheStreamsFailsWithTheRuntimesErrorAndKeepsTheSizesBefore) {
  PiecewiseOptions options;
  options.capture_sizes = {4, 2, 1};
  options.comm.assumed_groups = 1;  // FFTS+: 2 per graph and 40 once
  auto rt = Make(2, options);
  ASSERT_TRUE(rt.ok()) << rt.status().message();
  SimDevice device(Spec(40 + 9 + 9 + 5));
  PoolId pool = device.allocator().CreatePool("pool");
  ASSERT_TRUE(rt->CaptureSize(4, device, pool, OpRegistry::Builtin(), nullptr).ok());
  EXPECT_EQ(device.streams_held(), 40 + 9);
  ASSERT_TRUE(rt->CaptureSize(2, device, pool, OpRegistry::Builtin(), nullptr).ok());
  auto failed = rt->CaptureSize(1, device, pool, OpRegistry::Builtin(), nullptr);
  ASSERT_FALSE(failed.ok());
  const std::string& message = failed.status().message();
  EXPECT_NE(message.find("error code is 207008"), std::string::npos) << message;
  EXPECT_NE(message.find("Stream resources are insufficient"), std::string::npos);
  EXPECT_NE(message.find("ACL graph capture failed with a known stream-resource exhaustion signature"),
            std::string::npos);
  EXPECT_NE(message.find("submod_2 (layer 1)"), std::string::npos) << message;  // the second graph of size 1
  EXPECT_EQ(device.captured().size(), 6u);  // size 1's first graph was released again
  EXPECT_EQ(device.streams_held(), 40 + 18);
}

TEST(PiecewiseRuntimeTest, LayersRepeatTheMiddleLayerAndRunsPadToACapturedSize) {
  PiecewiseOptions options;
  options.capture_sizes = {8, 4};
  options.layers = 48;
  auto rt = Make(3, options);
  ASSERT_TRUE(rt.ok()) << rt.status().message();
  EXPECT_EQ(rt->graph_layers(), 3);
  EXPECT_EQ(rt->layers(), 48);
  EXPECT_EQ(rt->captured_instances(), 49u);
  SimDevice device(Spec(0));
  PoolId pool = device.allocator().CreatePool("pool");
  for (int64_t size : rt->CaptureOrder())
    ASSERT_TRUE(rt->CaptureSize(size, device, pool, OpRegistry::Builtin(), nullptr).ok());
  auto padded = rt->Run(3, device, OpRegistry::Builtin());
  ASSERT_TRUE(padded.ok()) << padded.status().message();
  EXPECT_EQ(padded->padded, 4);
  EXPECT_EQ(padded->replays, 49);
  EXPECT_EQ(padded->eager_pieces, 48);
  auto eager = rt->Run(9, device, OpRegistry::Builtin());
  ASSERT_TRUE(eager.ok()) << eager.status().message();
  EXPECT_EQ(eager->padded, 0);
  EXPECT_EQ(eager->replays, 0);
  EXPECT_EQ(eager->eager_pieces, 97);
}

TEST(PiecewiseRuntimeTest, RefusesWhatItCannotCapture) {
  PiecewiseOptions options;
  options.capture_sizes = {4, 4};
  EXPECT_FALSE(Make(2, options).ok());
  options.capture_sizes = {0};
  EXPECT_FALSE(Make(2, options).ok());
  options.capture_sizes = {4};
  options.layers = 10;
  auto one_layer = Make(1, options);  // no layer between the first and the last
  ASSERT_FALSE(one_layer.ok());
  EXPECT_NE(one_layer.status().message().find("no layer between"), std::string::npos);
}

// vllm-ascend's comment (vau26:708-710, 729-731): MAX_CAPTURE_SIZE = 1920,
// 48 layers, tp 4: "max_num_batch_sizes = math.floor(1920 / (48 + 1) / 2) =
// 19" with HCCL_OP_EXPANSION_MODE=AIV, "math.floor((1920 - 1 * 40) / (48 +
// 1) / (1 + 1 * 2)) = 12" with FFTS+. Fed the same assumptions (1920 streams,
// one group per graph), the simulation keeps as many.
TEST(CapturePlanTest, ReproducesTheFormulasWorkedExamples) {
  std::vector<int64_t> candidates;
  for (int64_t s = 512; s >= 8; s -= 8) candidates.push_back(s);
  for (int64_t s : {4, 2, 1}) candidates.push_back(s);
  for (HcclExpansion mode : {HcclExpansion::kAiv, HcclExpansion::kFfts}) {
    PiecewiseOptions options;
    options.capture_sizes = {1};
    options.layers = 48;
    options.comm.mode = mode;
    options.comm.assumed_groups = 1;
    auto rt = Make(3, options);
    ASSERT_TRUE(rt.ok()) << rt.status().message();
    auto plan = PlanCaptureAuto(*rt, candidates, {}, Spec(1920), OpRegistry::Builtin());
    ASSERT_TRUE(plan.ok()) << plan.status().message();
    EXPECT_EQ(plan->chosen.size(), mode == HcclExpansion::kAiv ? 19u : 12u) << HcclExpansionName(mode);
    EXPECT_NE(plan->failure.find("207008"), std::string::npos);
  }
}

// vllm-ascend #1168: Qwen3-235B (94 layers) on 8 NPUs, tp 8 and ep 8, the
// 2025-06 formula: floor(1920 / (94 + 1) / 3) = 6 sizes, [512, 408, 304,
// 192, 88, 1]. Two groups at one stream each per graph (its parallel_factor).
TEST(CapturePlanTest, ReproducesTheSizesOfVllmAscendIssue1168) {
  std::vector<int64_t> candidates;
  for (int64_t s = 512; s >= 8; s -= 8) candidates.push_back(s);
  for (int64_t s : {4, 2, 1}) candidates.push_back(s);
  PiecewiseOptions options;
  options.capture_sizes = {1};
  options.layers = 94;
  options.comm.mode = HcclExpansion::kAiv;
  options.comm.assumed_groups = 2;
  auto rt = Make(3, options);
  ASSERT_TRUE(rt.ok()) << rt.status().message();
  auto plan = PlanCaptureAuto(*rt, candidates, {}, Spec(1920), OpRegistry::Builtin());
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ(plan->chosen, (std::vector<int64_t>{1, 88, 192, 304, 408, 512}));
  ASSERT_FALSE(plan->rows.empty());
  EXPECT_EQ(plan->rows.front().streams, 95 * 3);
}

TEST(CapturePlanTest, LeastPaddingKeepsTheLargestAndFollowsTheBatches) {
  std::vector<int64_t> sizes = {1, 2, 4, 8, 16};
  std::map<int64_t, int64_t> batches = {{3, 10}, {16, 1}, {7, 1}};
  int64_t waste = -1;
  // Two sizes: 16 always; 4 pads the ten 3s by 1 each and 7 goes to 16 (9): 19;
  // 8 pads 3s by 5 (50) and 7 by 1: 51; 3 is no candidate.
  EXPECT_EQ(LeastPaddingSizes(sizes, 2, batches, &waste), (std::vector<int64_t>{4, 16}));
  EXPECT_EQ(waste, 10 * 1 + 9);
  EXPECT_EQ(LeastPaddingSizes(sizes, 3, batches, &waste), (std::vector<int64_t>{4, 8, 16}));
  EXPECT_EQ(waste, 10 + 1);
}

TEST(CapturePlanTest, PlanOfGivenSizesNamesTheFirstThatDoesNotFit) {
  PiecewiseOptions options;
  options.capture_sizes = {1};
  auto rt = Make(2, options);
  ASSERT_TRUE(rt.ok()) << rt.status().message();
  auto plan = PlanCaptureSizes(*rt, {1, 2, 4, 8}, Spec(7), OpRegistry::Builtin());
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_EQ(plan->rows.size(), 4u);
  EXPECT_EQ(plan->rows[0].size, 8);
  EXPECT_TRUE(plan->rows[0].captured);
  EXPECT_TRUE(plan->rows[1].captured);
  EXPECT_FALSE(plan->rows[2].captured);  // 3 more streams than 7 allow
  EXPECT_EQ(plan->failed_size, 2);
  EXPECT_EQ(plan->rows[1].total_streams, 6);
}

}  // namespace
}  // namespace airscope

// Wide fan-in through the whole default pipeline (issue 29 item 2): a cat of
// k inputs, which remove_cat_ops turns into an empty buffer and k out= writes,
// checked by the effect check after every pass, lowered to k tasks. A 16,000-
// way cat of one node took 2.5 GB and 13 s in `run` (the effect check spelled
// the buffer's value after every write: k^2/2 pieces); of 16,000 distinct
// nodes, 26 s (remove_cat_ops rewrote the cat's k-item list for each input).
//
// No clock: the bytes the pipeline allocates (allocation_counter.h) at k and
// at 4k. Linear work allocates about 4 times as much; quadratic, 16 times.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include <fmt/format.h>

#include "core/fx/readable.h"
#include "core/ops/op_registry.h"
#include "core/pass/decomposition.h"
#include "core/pass/pipeline_run.h"
#include "tests/scaling/allocation_counter.h"

namespace airscope {
namespace {

// x -> add(x, x) -> cat([add] * k): one node k times.
std::string OneNodeCat(size_t k) {
  std::string items;
  for (size_t i = 0; i < k; ++i) items += i ? ", add" : "add";
  return fmt::format(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[2, 3]\"):\n"
      "        add: \"f32[2, 3]\" = torch.ops.aten.add.Tensor(x, x)\n"
      "        cat: \"f32[{}, 3]\" = torch.ops.aten.cat.default([{}])\n"
      "        return (cat,)\n",
      2 * k, items);
}

// x -> add_i(x, x) for i < k -> cat of them all: k distinct nodes.
std::string DistinctNodesCat(size_t k) {
  std::string body, items;
  for (size_t i = 0; i < k; ++i) {
    body += fmt::format("        add_{0}: \"f32[2, 3]\" = torch.ops.aten.add.Tensor(x, x)\n", i);
    items += fmt::format("{}add_{}", i ? ", " : "", i);
  }
  return fmt::format(
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, x: \"f32[2, 3]\"):\n"
      "{}        cat: \"f32[{}, 3]\" = torch.ops.aten.cat.default([{}])\n"
      "        return (cat,)\n",
      body, 2 * k, items);
}

// relu(add(x, x)), whose relu a user's template turns into cat([$0] * k).
constexpr std::string_view kRelu =
    "class GraphModule(torch.nn.Module):\n"
    "    def forward(self, x: \"f32[2, 3]\"):\n"
    "        add: \"f32[2, 3]\" = torch.ops.aten.add.Tensor(x, x)\n"
    "        relu: \"f32[2, 3]\" = torch.ops.aten.relu.default(add)\n"
    "        return (relu,)\n";

std::string CatTemplate(size_t k) {
  std::string items;
  for (size_t i = 0; i < k; ++i) items += i ? ", $0" : "$0";
  return fmt::format("aten.cat.default([{}], 0)", items);
}

// The bytes one whole default pipeline run allocates on `text` (the effect
// check on, as `run` has it), with `decompositions` as the user's table. The
// run must end with more than `k` nodes: remove_cat_ops rewrote the cat.
uint64_t PipelineBytes(const std::string& text, const DecompositionTable& decompositions, size_t k) {
  Result<std::unique_ptr<Graph>> parsed = ParseReadable(text, "fanin.py");
  EXPECT_TRUE(parsed.ok()) << parsed.status().message();
  if (!parsed.ok()) return 0;
  std::shared_ptr<const Graph> input = std::move(parsed).value();
  PassRegistry passes = PassRegistry::WithBuiltins();
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  context.decompositions = &decompositions;
  context.passes = &passes;
  PipelineEnv env;
  env.passes = &passes;
  env.context = &context;
  env.ignore_breakpoints = true;
  uint64_t before = testing_alloc::AllocatedBytes();
  {
    PipelineRun run(input);
    Result<RunReport> report = run.RunUntil(std::nullopt, env);
    EXPECT_TRUE(report.ok() && report->stop == RunReport::Stop::kEnd)
        << (report.ok() ? report->error.message() : report.status().message());
    EXPECT_GT(run.Current().size(), k);
  }
  return testing_alloc::AllocatedBytes() - before;
}

constexpr size_t kSmall = 1000;
constexpr size_t kLarge = 4 * kSmall;
// Linear work with a fixed part gives a little under 4; quadratic, near 16.
constexpr double kMaxGrowth = 6;

TEST(FanInScaling, ACatOfOneNodeKTimes) {
  DecompositionTable none;
  double small = static_cast<double>(PipelineBytes(OneNodeCat(kSmall), none, kSmall));
  double large = static_cast<double>(PipelineBytes(OneNodeCat(kLarge), none, kLarge));
  EXPECT_LT(large / small, kMaxGrowth) << small << " bytes at k = " << kSmall << ", " << large << " at " << kLarge;
}

TEST(FanInScaling, ACatOfKDistinctNodes) {
  DecompositionTable none;
  double small = static_cast<double>(PipelineBytes(DistinctNodesCat(kSmall), none, kSmall));
  double large = static_cast<double>(PipelineBytes(DistinctNodesCat(kLarge), none, kLarge));
  EXPECT_LT(large / small, kMaxGrowth) << small << " bytes at k = " << kSmall << ", " << large << " at " << kLarge;
}

TEST(FanInScaling, ADecompositionTemplateThatBuildsAWideList) {
  auto bytes = [](size_t k) {
    DecompositionTable table;
    EXPECT_TRUE(table.AddTemplate("aten.relu.default", CatTemplate(k)).ok());
    return static_cast<double>(PipelineBytes(std::string(kRelu), table, k));
  };
  double small = bytes(kSmall);
  double large = bytes(kLarge);
  EXPECT_LT(large / small, kMaxGrowth) << small << " bytes at k = " << kSmall << ", " << large << " at " << kLarge;
}

}  // namespace
}  // namespace airscope

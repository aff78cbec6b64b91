// vllm-ascend's update_aclgraph_sizes against the numbers its own source and
// users quote (core/plan/aclgraph_size_formula.h).
#include "core/plan/aclgraph_size_formula.h"

#include <gtest/gtest.h>

namespace airscope {
namespace {

// vLLM's default capture list of mid-2025, largest first as vLLM then held
// it: 512, 504, ..., 8, 4, 2, 1 (67 sizes; vllm-ascend #1168 counts 67).
std::vector<int64_t> DefaultSizes2025() {
  std::vector<int64_t> sizes;
  for (int64_t s = 512; s >= 8; s -= 8) sizes.push_back(s);
  for (int64_t s : {4, 2, 1}) sizes.push_back(s);
  return sizes;
}

// vllm-ascend #1168 (2025-06-28): "when I running the Qwen3-235B model on 8
// NPUs, it can only capture 1920/94/3=6 batch sizes, and the engine choose
// these sizes: [512,408,304,192,88,1]". Qwen3-235B has 94 layers; on 8 NPUs
// with tp 8 and expert parallel the factor is 1 + 2 = 3.
TEST(AclGraphSizeFormula, Qwen3_235BOnEightNpusKeepsSixSizesAsIssue1168Reports) {
  AclGraphSizeInputs in;
  in.version = AclGraphSizeFormula::k2025_06;
  in.num_hidden_layers = 94;
  in.tensor_parallel_size = 8;
  in.expert_parallel_size = 8;
  in.sizes = DefaultSizes2025();
  ASSERT_EQ(in.sizes.size(), 67u);
  Result<AclGraphSizeResult> r = ApplyAclGraphSizeFormula(in);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->max_capture_size, 1920);
  EXPECT_EQ(r->max_num_batch_sizes, 6);
  EXPECT_TRUE(r->adjusted);
  EXPECT_EQ(r->sizes, (std::vector<int64_t>{512, 408, 304, 192, 88, 1}));
  EXPECT_EQ(r->steps.back(), "max_num_batch_sizes = floor(1920 / (94 + 1) / 3) = 6");
}

// #1168 too: "For a 64 layers 32B model running on two NPUs, it can only
// capture 1920/64/2=15 batch sizes" (with the + 1 of the code: 1920/65/2 = 14.8).
TEST(AclGraphSizeFormula, ThirtyTwoBOnTwoNpus) {
  AclGraphSizeInputs in;
  in.version = AclGraphSizeFormula::k2025_06;
  in.num_hidden_layers = 64;
  in.tensor_parallel_size = 2;
  in.sizes = DefaultSizes2025();
  Result<AclGraphSizeResult> r = ApplyAclGraphSizeFormula(in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->max_num_batch_sizes, 14);
  EXPECT_EQ(r->sizes.size(), 14u);
  EXPECT_EQ(r->sizes.front(), 512);
  EXPECT_EQ(r->sizes.back(), 1);
}

// The worked examples in the 2026 source's comments (vau26:707-710, 728-731)
// assume MAX_CAPTURE_SIZE = 1920, 48 layers, dp 1, tp 4. AIV (the example
// leaves out the dense-model deduction, so: a MoE model): floor(1920 / 49 / 2) = 19.
TEST(AclGraphSizeFormula, SourceCommentAivExample) {
  AclGraphSizeInputs in;
  in.max_capture_size = 1920;
  in.num_hidden_layers = 48;
  in.tensor_parallel_size = 4;
  in.hccl_aiv = true;
  in.moe_model = true;
  for (int64_t s = 1; s <= 40; ++s) in.sizes.push_back(s);
  Result<AclGraphSizeResult> r = ApplyAclGraphSizeFormula(in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->max_num_batch_sizes, 19);
  EXPECT_EQ(r->sizes.size(), 19u);
  // A dense model under AIV first gives up parallel_factor * resources_per_graph streams.
  in.moe_model = false;
  r = ApplyAclGraphSizeFormula(in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->max_capture_size, 1920 - 2 * 49);
  EXPECT_EQ(r->max_num_batch_sizes, 18);  // floor(1822 / 49 / 2)
}

// ... and the FFTS+ default: floor((1920 - 1 * 40) / (48 + 1) / (1 + 1 * 2)) = 12.
TEST(AclGraphSizeFormula, SourceCommentFftsExample) {
  AclGraphSizeInputs in;
  in.max_capture_size = 1920;
  in.num_hidden_layers = 48;
  in.tensor_parallel_size = 4;
  for (int64_t s = 1; s <= 40; ++s) in.sizes.push_back(s);
  Result<AclGraphSizeResult> r = ApplyAclGraphSizeFormula(in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->max_num_batch_sizes, 12);
  EXPECT_EQ(r->steps.back(), "max_num_batch_sizes = floor((1920 - 1 * 40) / 49 / (1 + 1 * 2)) = 12");
  // Its own MAX_CAPTURE_SIZE is 1800: floor(1760 / 49 / 3) = 11.
  in.max_capture_size = -1;
  r = ApplyAclGraphSizeFormula(in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->max_num_batch_sizes, 11);
}

// Draft (MTP) layers, context parallel and FULL_AND_PIECEWISE each take their share.
TEST(AclGraphSizeFormula, DraftLayersContextParallelAndFullAndPiecewise) {
  AclGraphSizeInputs in;
  in.num_hidden_layers = 61;
  in.draft_layers = 1;
  in.data_parallel_size = 2;
  in.tensor_parallel_size = 8;
  in.decode_context_parallel_size = 2;
  in.full_and_piecewise = true;
  for (int64_t s = 1; s <= 48; ++s) in.sizes.push_back(s * 8);
  Result<AclGraphSizeResult> r = ApplyAclGraphSizeFormula(in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->resources_per_graph, 64);
  EXPECT_EQ(r->max_capture_size, 1800 - 48 - 100);
  // floor((1652 - 2 * 40) / 64 / 5) = floor(4.9125) = 4
  EXPECT_EQ(r->max_num_batch_sizes, 4);
  EXPECT_EQ(r->sizes, (std::vector<int64_t>{8, 136, 256, 384}));  // indices round(0, 15.67, 31.33, 47)
}

// round() rounds halves to even: 9 sizes cut to 5 step by 2.0 (exact), 6 cut
// to 5 by 1.25, where i * step = 2.5 rounds to 2, not 3.
TEST(AclGraphSizeFormula, SamplingRoundsHalvesToEvenAsPythonDoes) {
  AclGraphSizeInputs in;
  in.max_capture_size = 5 * 2;  // resources_per_graph 2, FFTS divisor 1: floor(10 / 2 / 1) = 5
  in.num_hidden_layers = 1;
  in.sizes = {10, 11, 12, 13, 14, 15};
  Result<AclGraphSizeResult> r = ApplyAclGraphSizeFormula(in);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->max_num_batch_sizes, 5);
  // indices round(0, 1.25, 2.5, 3.75, 5) = 0, 1, 2, 4, 5
  EXPECT_EQ(r->sizes, (std::vector<int64_t>{10, 11, 12, 14, 15}));
}

TEST(AclGraphSizeFormula, NoCutWhenTheListFits) {
  AclGraphSizeInputs in;
  in.num_hidden_layers = 2;
  in.sizes = {1, 2, 4};
  Result<AclGraphSizeResult> r = ApplyAclGraphSizeFormula(in);
  ASSERT_TRUE(r.ok());
  EXPECT_FALSE(r->adjusted);
  EXPECT_EQ(r->sizes, in.sizes);
}

// At one size or fewer the 2026 code keeps the last size; the 2025 code
// divided by zero (or indexed an empty list), which is said, not papered over.
TEST(AclGraphSizeFormula, OneSizeOrFewer) {
  AclGraphSizeInputs in;
  in.num_hidden_layers = 1000;
  in.sizes = {1, 2, 4};
  Result<AclGraphSizeResult> r = ApplyAclGraphSizeFormula(in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->max_num_batch_sizes, 1);  // floor(1800 / 1001 / 1)
  EXPECT_EQ(r->sizes, (std::vector<int64_t>{4}));
  in.version = AclGraphSizeFormula::k2025_06;
  r = ApplyAclGraphSizeFormula(in);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("ZeroDivisionError"), std::string::npos) << r.status().message();
  in.num_hidden_layers = 5000;
  r = ApplyAclGraphSizeFormula(in);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("IndexError"), std::string::npos);
}

TEST(AclGraphSizeFormula, InputsTheSourceCannotHaveAreRefused) {
  AclGraphSizeInputs in;
  in.num_hidden_layers = 4;
  EXPECT_FALSE(ApplyAclGraphSizeFormula(in).ok());  // no sizes
  in.sizes = {1};
  in.num_hidden_layers = 0;
  EXPECT_FALSE(ApplyAclGraphSizeFormula(in).ok());
  in.num_hidden_layers = 4;
  in.tensor_parallel_size = 0;
  EXPECT_FALSE(ApplyAclGraphSizeFormula(in).ok());
}

}  // namespace
}  // namespace airscope

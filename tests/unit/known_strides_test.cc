// KnownStridesOf: stated strides win; inputs are contiguous; the ops torch
// gives their input's layout follow it (through chains); ops that allocate
// are contiguous; anything else is unknown, never guessed.
#include "core/analysis/known_strides.h"

#include <gtest/gtest.h>

#include "core/analysis/node_util.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

std::vector<Dim> D(std::initializer_list<int64_t> values) {
  std::vector<Dim> dims;
  for (int64_t v : values) dims.emplace_back(v);
  return dims;
}

// A transposed input (strides stated, as print_readable states a view's),
// then ops of each kind on it.
std::unique_ptr<Graph> Chain() {
  return testing_util::ParseForward(
      "arg0_1: \"f32[4, 8]\"",
      "        t: \"f32[8, 4][1, 8]\" = torch.ops.aten.t.default(arg0_1)\n"
      "        clone: \"f32[8, 4]\" = torch.ops.aten.clone.default(t)\n"
      "        convert: \"f16[8, 4]\" = torch.ops.prims.convert_element_type.default(clone, torch.float16)\n"
      "        contiguous: \"f32[8, 4]\" = torch.ops.aten.clone.default(t, memory_format = torch.contiguous_format)\n"
      "        cat: \"f32[16, 4]\" = torch.ops.aten.cat.default([t, t])\n"
      "        sin: \"f32[8, 4]\" = torch.ops.aten.sin.default(t)\n"
      "        return (convert, contiguous, cat, sin)\n",
      "strides.py");
}

TEST(KnownStridesTest, StatedAndInputsAreKnown) {
  auto g = Chain();
  KnownStrides input = KnownStridesOf(g->Find("arg0_1"));
  EXPECT_EQ(input.why, KnownStrides::Why::kGraphInput);
  EXPECT_EQ(input.strides, D({8, 1}));
  KnownStrides t = KnownStridesOf(g->Find("t"));
  EXPECT_EQ(t.why, KnownStrides::Why::kStated);
  EXPECT_EQ(t.strides, D({1, 8}));
}

TEST(KnownStridesTest, LayoutKeepingOpsFollowTheirInputThroughChains) {
  auto g = Chain();
  KnownStrides clone = KnownStridesOf(g->Find("clone"));  // preserve_format
  EXPECT_EQ(clone.why, KnownStrides::Why::kKeepsLayout);
  EXPECT_EQ(clone.from, g->Find("t"));
  EXPECT_EQ(clone.strides, D({1, 8}));
  KnownStrides convert = KnownStridesOf(g->Find("convert"));
  EXPECT_EQ(convert.from, g->Find("clone"));
  EXPECT_EQ(convert.strides, D({1, 8}));
}

TEST(KnownStridesTest, AllocatingOpsAreContiguousAndOthersUnknown) {
  auto g = Chain();
  EXPECT_EQ(KnownStridesOf(g->Find("contiguous")).strides, D({4, 1}));
  EXPECT_EQ(KnownStridesOf(g->Find("cat")).why, KnownStrides::Why::kAllocates);
  // sin of a transposed input keeps its layout in torch (TensorIterator), a
  // rule airscope does not model: unknown, not contiguous.
  KnownStrides sin = KnownStridesOf(g->Find("sin"));
  EXPECT_EQ(sin.why, KnownStrides::Why::kUnknown);
  EXPECT_FALSE(sin.strides.has_value());
}

// zero is zeros_like (preserve_format), as every *_like op: the input's
// layout, not a fresh contiguous tensor as creation from sizes is.
TEST(KnownStridesTest, ZeroAndLikeOpsKeepTheirInputsLayout) {
  auto g = testing_util::ParseForward(
      "arg0_1: \"f32[4, 8]\"",
      "        t: \"f32[8, 4][1, 8]\" = torch.ops.aten.t.default(arg0_1)\n"
      "        zero: \"f32[8, 4]\" = torch.ops.aten.zero.default(t)\n"
      "        like: \"f32[8, 4]\" = torch.ops.aten.empty_like.default(t)\n"
      "        fresh: \"f32[8, 4]\" = torch.ops.aten.zeros.default([8, 4], device = device(type='cpu'))\n"
      "        return (zero, like, fresh)\n",
      "like.py");
  EXPECT_EQ(KnownStridesOf(g->Find("zero")).strides, D({1, 8}));
  EXPECT_EQ(KnownStridesOf(g->Find("like")).strides, D({1, 8}));
  EXPECT_EQ(KnownStridesOf(g->Find("fresh")).strides, D({4, 1}));
  EXPECT_FALSE(KnownContiguous(g->Find("zero")));
  auto contiguous = testing_util::ParseForward(
      "arg0_1: \"f32[4, 8]\", arg1_1: \"f32[8, 8]\"",
      "        mm: \"f32[4, 8]\" = torch.ops.aten.mm.default(arg0_1, arg1_1)\n"
      "        zero: \"f32[4, 8]\" = torch.ops.aten.zero.default(mm)\n        return (zero,)\n",
      "c.py");
  EXPECT_TRUE(KnownContiguous(contiguous->Find("zero")));  // of a fresh contiguous tensor
}

}  // namespace
}  // namespace airscope

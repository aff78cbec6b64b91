// Unit tests of TorchAir's graph passes in core/pass: optimize_noop_ops (one
// test per rule of Inductor's noop table and per aliasing condition),
// view_to_reshape, remove_cat_ops, recover_view_inplace_pattern and
// apply_pattern_passes. Graphs are written as make_fx prints them.
#include <gtest/gtest.h>

#include <string>

#include "core/fx/readable.h"
#include "core/ops/shape_inference.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/pass_manager.h"
#include "tests/unit/pass_test_util.h"

namespace airscope {
namespace {

using testing_util::Describe;

std::unique_ptr<Graph> Parse(const std::string& body) {
  Result<std::unique_ptr<Graph>> g = ParseReadable("class GraphModule(torch.nn.Module):\n" + body, "test.py");
  EXPECT_TRUE(g.ok()) << g.status().message();
  return g.ok() ? std::move(*g) : std::make_unique<Graph>();
}

struct PassRun {
  bool changed = false;
  std::vector<std::string> remarks;
};

PassRun RunOn(PassInfo pass, Graph& graph, PassContext context = {}) {
  context.registry = &OpRegistry::Builtin();
  PassManager manager;
  Result<PassOutcome> outcome = manager.Run(pass, graph, context);
  EXPECT_TRUE(outcome.ok()) << outcome.status().message();
  if (!outcome.ok()) return {};
  return {outcome->changed, outcome->remarks};
}

bool Has(const Graph& g, std::string_view target) {
  for (const Node* n : g) {
    if (n->op() == OpKind::kCallFunction && StripTorchOps(n->target()) == target) return true;
  }
  return false;
}

// ---- optimize_noop_ops: each rule of Inductor's table

struct NoopCase {
  const char* name;
  const char* body;      // forward(...) with the node `n` under test
  const char* target;    // n's target
  bool removed;
};

class NoopRuleTest : public ::testing::TestWithParam<NoopCase> {};

TEST_P(NoopRuleTest, RemovedExactlyWhenInductorWould) {
  const NoopCase& c = GetParam();
  std::unique_ptr<Graph> g = Parse(c.body);
  PassRun run = RunOn(OptimizeNoopOpsPass(), *g);
  EXPECT_EQ(run.changed, c.removed) << c.name;
  EXPECT_EQ(Has(*g, c.target), !c.removed) << c.name;
}

#define FWD(args) "    def forward(self, " args "):\n"
INSTANTIATE_TEST_SUITE_P(
    Rules, NoopRuleTest,
    ::testing::Values(
        NoopCase{"slice_full", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.slice.Tensor(x, 0, 0, 9223372036854775807)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.slice.Tensor", true},
        NoopCase{"slice_end_size", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.slice.Tensor(x, 1, 0, 2)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.slice.Tensor", true},
        NoopCase{"slice_end_none_kept", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.slice.Tensor(x, 0, 0, None)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.slice.Tensor", false},
        NoopCase{"slice_step2_kept", FWD("x: \"f32[2, 2]\", y: \"f32[1, 2]\"")
                 "        n: \"f32[1, 2]\" = torch.ops.aten.slice.Tensor(x, 0, 0, 2, 2)\n"
                 "        add: \"f32[1, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.slice.Tensor", false},
        NoopCase{"slice_scatter_full", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.slice_scatter.default(x, y)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.slice_scatter.default", true},
        NoopCase{"repeat_ones", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.repeat.default(x, [1, 1])\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.repeat.default", true},
        NoopCase{"pad_zero", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.constant_pad_nd.default(x, [0, 0, 0, 0], 3.5)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.constant_pad_nd.default", true},
        NoopCase{"convert_same", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.prims.convert_element_type.default(x, torch.float32)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "prims.convert_element_type.default", true},
        NoopCase{"ceil_int", FWD("x: \"i64[2]\", y: \"i64[2]\"")
                 "        n: \"i64[2]\" = torch.ops.aten.ceil.default(x)\n"
                 "        add: \"i64[2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.ceil.default", true},
        NoopCase{"ceil_float_kept", FWD("x: \"f32[2]\", y: \"f32[2]\"")
                 "        n: \"f32[2]\" = torch.ops.aten.ceil.default(x)\n"
                 "        add: \"f32[2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.ceil.default", false},
        NoopCase{"pow_int_1", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.pow.Tensor_Scalar(x, 1)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.pow.Tensor_Scalar", true},
        NoopCase{"pow_float_1_kept", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.pow.Tensor_Scalar(x, 1.0)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.pow.Tensor_Scalar", false},
        NoopCase{"cat_one", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.cat.default([x])\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.cat.default", true},
        NoopCase{"view_same", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.view.default(x, [2, 2])\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.view.default", true},
        NoopCase{"view_minus_one_kept", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.view.default(x, [-1, 2])\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.view.default", false},
        NoopCase{"clone", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.clone.default(x)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.clone.default", true},
        NoopCase{"alias", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.alias.default(x)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.alias.default", true},
        // Not in Inductor's table: airscope no longer removes them.
        NoopCase{"add_zero_kept", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(x, 0)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.add.Tensor", false},
        NoopCase{"unsafe_view_kept", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten._unsafe_view.default(x, [2, 2])\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten._unsafe_view.default", false},
        // same_meta: a contiguous clone of a transpose changes strides.
        NoopCase{"clone_contiguous_of_transpose_kept", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        t: \"f32[2, 2]\" = torch.ops.aten.transpose.int(x, 0, 1)\n"
                 "        n: \"f32[2, 2]\" = torch.ops.aten.clone.default(t, memory_format = torch.contiguous_format)\n"
                 "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n",
                 "aten.clone.default", false},
        // Aliasing: a clone returned while its source is an input is kept.
        NoopCase{"clone_of_input_returned_kept", FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"")
                 "        n: \"f32[2, 2]\" = torch.ops.aten.clone.default(x)\n        return (n,)\n",
                 "aten.clone.default", false}),
    [](const ::testing::TestParamInfo<NoopCase>& info) { return std::string(info.param.name); });
#undef FWD

TEST(OptimizeNoopOpsTest, SwitchOffDoesNothingAndSaysSo) {
  std::unique_ptr<Graph> g = Parse(
      "    def forward(self, x: \"f32[2, 2]\", y: \"f32[2, 2]\"):\n"
      "        n: \"f32[2, 2]\" = torch.ops.aten.clone.default(x)\n"
      "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n        return (add,)\n");
  PassContext context;
  context.config.remove_noop_ops = false;
  PassRun run = RunOn(OptimizeNoopOpsPass(), *g, context);
  EXPECT_FALSE(run.changed);
  EXPECT_TRUE(Has(*g, "aten.clone.default"));
  ASSERT_FALSE(run.remarks.empty());
  EXPECT_NE(run.remarks[0].find("remove_noop_ops is false"), std::string::npos);
}

// ---- view_to_reshape

TEST(ViewToReshapeTest, OnlyViewDefault) {
  std::unique_ptr<Graph> g = Parse(
      "    def forward(self, x: \"f32[2, 3]\"):\n"
      "        view: \"f32[6]\" = torch.ops.aten.view.default(x, [6])\n"
      "        uv: \"f32[3, 2]\" = torch.ops.aten._unsafe_view.default(view, [3, 2])\n        return (uv,)\n");
  EXPECT_TRUE(RunOn(ViewToReshapePass(), *g).changed);
  EXPECT_EQ(StripTorchOps(g->Find("view")->target()), "aten.reshape.default");
  EXPECT_EQ(StripTorchOps(g->Find("uv")->target()), "aten._unsafe_view.default");
}

// ---- remove_cat_ops

TEST(RemoveCatOpsTest, RewritesCatOfOutCapableOps) {
  // tests/st/torchair_aclgraph_st.py test_cat_optimization_basic, static sizes.
  std::unique_ptr<Graph> g = Parse(
      "    def forward(self, x: \"f32[8]\"):\n"
      "        exp: \"f32[8]\" = torch.ops.aten.exp.default(x)\n"
      "        exp_1: \"f32[8]\" = torch.ops.aten.exp.default(x)\n"
      "        cat: \"f32[16]\" = torch.ops.aten.cat.default([exp, exp_1])\n        return (cat,)\n");
  EXPECT_TRUE(RunOn(RemoveCatOpsPass(), *g).changed);
  EXPECT_EQ(Describe(*g), (std::vector<std::string>{
      "x = placeholder()",
      "empty = aten.empty.memory_format([16], dtype=torch.float32, device=None, pin_memory=False, memory_format=None)",
      "slice = aten.slice.Tensor(empty, 0, 0, 8)",
      "exp_2 = aten.exp.out(x, out=slice)",
      "slice_1 = aten.slice.Tensor(empty, 0, 8, 16)",
      "exp_3 = aten.exp.out(x, out=slice_1)",
      "output = output((empty,))",
  }));
}

TEST(RemoveCatOpsTest, SkipsWhatTorchAirSkips) {
  const char* cases[] = {
      // dim 1 (test_cat_optimization_skip_non_first_dim)
      "    def forward(self, x: \"f32[2, 8]\"):\n"
      "        exp: \"f32[2, 8]\" = torch.ops.aten.exp.default(x)\n"
      "        exp_1: \"f32[2, 8]\" = torch.ops.aten.exp.default(x)\n"
      "        cat: \"f32[2, 16]\" = torch.ops.aten.cat.default([exp, exp_1], 1)\n        return (cat,)\n",
      // view has no .out (test_cat_optimization_skip_no_out_variant)
      "    def forward(self, x: \"f32[8]\"):\n"
      "        view: \"f32[8]\" = torch.ops.aten.view.default(x, [-1])\n"
      "        view_1: \"f32[8]\" = torch.ops.aten.view.default(x, [-1])\n"
      "        cat: \"f32[16]\" = torch.ops.aten.cat.default([view, view_1])\n        return (cat,)\n",
      // one input
      "    def forward(self, x: \"f32[8]\"):\n"
      "        exp: \"f32[8]\" = torch.ops.aten.exp.default(x)\n"
      "        cat: \"f32[8]\" = torch.ops.aten.cat.default([exp])\n        return (cat,)\n",
      // an input also feeds another cat
      "    def forward(self, x: \"f32[8]\"):\n"
      "        exp: \"f32[8]\" = torch.ops.aten.exp.default(x)\n"
      "        exp_1: \"f32[8]\" = torch.ops.aten.exp.default(x)\n"
      "        cat: \"f32[16]\" = torch.ops.aten.cat.default([exp, exp_1])\n"
      "        cat_1: \"f32[16]\" = torch.ops.aten.cat.default([exp_1, exp])\n        return (cat, cat_1)\n",
  };
  for (const char* body : cases) {
    std::unique_ptr<Graph> g = Parse(body);
    EXPECT_FALSE(RunOn(RemoveCatOpsPass(), *g).changed) << body;
    EXPECT_TRUE(Has(*g, "aten.cat.default")) << body;
  }
}

TEST(RemoveCatOpsTest, SwitchOffAndStreamScope) {
  const char* body =
      "    def forward(self, x: \"f32[8]\"):\n"
      "        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['s1'])\n"
      "        exp: \"f32[8]\" = torch.ops.aten.exp.default(x)\n"
      "        exp_1: \"f32[8]\" = torch.ops.aten.exp.default(x)\n"
      "        cat: \"f32[16]\" = torch.ops.aten.cat.default([exp, exp_1])\n"
      "        scope_exit = torch.ops.air.scope_exit.default()\n        return (cat,)\n";
  std::unique_ptr<Graph> off = Parse(body);
  PassContext context;
  context.config.remove_cat_ops = false;
  EXPECT_FALSE(RunOn(RemoveCatOpsPass(), *off, context).changed);
  std::unique_ptr<Graph> g = Parse(body);
  EXPECT_TRUE(RunOn(RemoveCatOpsPass(), *g).changed);
  std::vector<std::string> d = Describe(*g);
  ASSERT_GE(d.size(), 5u);
  EXPECT_EQ(d[2], "scope_enter_1 = air.scope_enter.default(['_user_stream_label'], ['s1'])");
  EXPECT_EQ(d[4], "scope_exit_1 = air.scope_exit.default()");
}

// ---- recover_view_inplace_pattern

const char* kScatterGraph =
    "    def forward(self, data: \"f32[16, 4, 16]\", indices: \"i64[2]\", updates: \"f32[16, 1, 16]\"):\n"
    "        view: \"f32[2, 8, 4, 16]\" = torch.ops.aten.view.default(data, [2, -1, 4, 16])\n"
    "        view_1: \"f32[2, 8, 1, 16]\" = torch.ops.aten.view.default(updates, [2, -1, 1, 16])\n"
    "        scatter_update: \"f32[2, 8, 4, 16]\" = torch.ops.npu.scatter_update.default(view, indices, view_1, -2)\n"
    "        view_2: \"f32[16, 4, 16]\" = torch.ops.aten.view.default(scatter_update, [-1, 4, 16])\n"
    "        copy_: \"f32[16, 4, 16]\" = torch.ops.aten.copy_.default(data, view_2)\n"
    "        return (view_2,)\n";

TEST(RecoverViewInplaceTest, ScatterBecomesInplaceAndCopyGoes) {
  std::unique_ptr<Graph> g = Parse(kScatterGraph);
  EXPECT_TRUE(RunOn(RecoverViewInplacePatternPass(), *g).changed);
  EXPECT_FALSE(Has(*g, "npu.scatter_update.default"));
  EXPECT_FALSE(Has(*g, "aten.copy_.default"));
  ASSERT_NE(g->Find("scatter_update_inplace"), nullptr);
  EXPECT_EQ(StripTorchOps(g->Find("scatter_update_inplace")->target()), "npu.scatter_update_.default");
}

TEST(RecoverViewInplaceTest, OldCannSkipsWithRemark) {
  std::unique_ptr<Graph> g = Parse(kScatterGraph);
  PassContext context;
  context.env.cann_version = "8.2.RC1";
  PassRun run = RunOn(RecoverViewInplacePatternPass(), *g, context);
  EXPECT_FALSE(run.changed);
  ASSERT_FALSE(run.remarks.empty());
  EXPECT_NE(run.remarks[0].find("8.2.RC1"), std::string::npos);
}

// ---- apply_pattern_passes

std::string BmmGraph(int k) {
  return fmt::format(
      "    def forward(self, x1: \"f16[64, 4, {0}]\", x2: \"f16[64, {0}, 128]\"):\n"
      "        bmm: \"f16[64, 4, 128]\" = torch.ops.aten.bmm.default(x1, x2)\n"
      "        transpose: \"f16[4, 64, 128]\" = torch.ops.aten.transpose.int(bmm, 1, 0)\n"
      "        return (transpose,)\n",
      k);
}

TEST(ApplyPatternPassesTest, BmmTransposeFusesWhenAligned) {
  std::unique_ptr<Graph> g = Parse(BmmGraph(512));
  EXPECT_TRUE(RunOn(ApplyPatternPassesPass(), *g).changed);
  EXPECT_FALSE(Has(*g, "aten.bmm.default"));
  EXPECT_TRUE(Has(*g, "npu.npu_transpose_batchmatmul.default"));
}

TEST(ApplyPatternPassesTest, MisalignedKOldTorchOrSwitchOffKeepBmm) {
  std::unique_ptr<Graph> g = Parse(BmmGraph(511));
  PassRun run = RunOn(ApplyPatternPassesPass(), *g);
  EXPECT_FALSE(run.changed);
  bool logged = false;
  for (const std::string& r : run.remarks) logged |= r.find("K or N alignment check failed") != std::string::npos;
  EXPECT_TRUE(logged);

  std::unique_ptr<Graph> old = Parse(BmmGraph(512));
  PassContext context;
  context.env.torch_version = "2.5.1";
  EXPECT_FALSE(RunOn(ApplyPatternPassesPass(), *old, context).changed);
  std::unique_ptr<Graph> off = Parse(BmmGraph(512));
  PassContext no_fusion;
  no_fusion.config.pattern_fusion_pass = false;
  EXPECT_FALSE(RunOn(ApplyPatternPassesPass(), *off, no_fusion).changed);
}

}  // namespace
}  // namespace airscope

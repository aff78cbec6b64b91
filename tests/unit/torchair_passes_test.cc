// Unit tests of TorchAir's graph passes in core/pass: optimize_noop_ops (one
// test per rule of Inductor's noop table and per aliasing condition),
// view_to_reshape, remove_cat_ops, recover_view_inplace_pattern and
// apply_pattern_passes. Graphs are written as make_fx prints them.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>

#include "core/analysis/node_util.h"
#include "core/fx/readable.h"
#include "core/ops/shape_inference.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/pass_manager.h"
#include "tests/unit/pass_test_util.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

using testing_util::Describe;

std::unique_ptr<Graph> ParseModuleText(const std::string& body) { return testing_util::ParseModule(body); }

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
  const char* body;    // forward(...) with the node `n` under test
  const char* target;  // n's target
  bool removed;
};

class NoopRuleTest : public ::testing::TestWithParam<NoopCase> {};

TEST_P(NoopRuleTest, RemovedExactlyWhenInductorWould) {
  const NoopCase& c = GetParam();
  std::unique_ptr<Graph> g = ParseModuleText(c.body);
  PassRun run = RunOn(OptimizeNoopOpsPass(), *g);
  EXPECT_EQ(run.changed, c.removed) << c.name;
  EXPECT_EQ(Has(*g, c.target), !c.removed) << c.name;
}

#define FWD(args) "    def forward(self, " args "):\n"
INSTANTIATE_TEST_SUITE_P(
    Rules, NoopRuleTest,
    ::testing::Values(
        NoopCase{"slice_full",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = torch.ops.aten.slice.Tensor(x, "
                                                           "0, 0, 9223372036854775807)\n"
                                                           "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten.slice.Tensor", true},
        NoopCase{"slice_end_size",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = torch.ops.aten.slice.Tensor(x, "
                                                           "1, 0, 2)\n"
                                                           "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten.slice.Tensor", true},
        NoopCase{"slice_end_none_kept",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = torch.ops.aten.slice.Tensor(x, "
                                                           "0, 0, None)\n"
                                                           "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten.slice.Tensor", false},
        NoopCase{"slice_step2_kept",
                 FWD("x: \"f32[2, 2]\", y: \"f32[1, 2]\"") "        n: \"f32[1, 2]\" = torch.ops.aten.slice.Tensor(x, "
                                                           "0, 0, 2, 2)\n"
                                                           "        add: \"f32[1, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten.slice.Tensor", false},
        NoopCase{"slice_scatter_full",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = "
                                                           "torch.ops.aten.slice_scatter.default(x, y)\n"
                                                           "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten.slice_scatter.default", true},
        NoopCase{"repeat_ones",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = "
                                                           "torch.ops.aten.repeat.default(x, [1, 1])\n"
                                                           "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten.repeat.default", true},
        NoopCase{
            "pad_zero",
            FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = "
                                                      "torch.ops.aten.constant_pad_nd.default(x, [0, 0, 0, 0], 3.5)\n"
                                                      "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n  "
                                                      "      return (add,)\n",
            "aten.constant_pad_nd.default", true},
        NoopCase{
            "convert_same",
            FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = "
                                                      "torch.ops.prims.convert_element_type.default(x, torch.float32)\n"
                                                      "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n  "
                                                      "      return (add,)\n",
            "prims.convert_element_type.default", true},
        NoopCase{"ceil_int",
                 FWD("x: \"i64[2]\", y: \"i64[2]\"") "        n: \"i64[2]\" = torch.ops.aten.ceil.default(x)\n"
                                                     "        add: \"i64[2]\" = torch.ops.aten.add.Tensor(n, y)\n      "
                                                     "  return (add,)\n",
                 "aten.ceil.default", true},
        NoopCase{"ceil_float_kept",
                 FWD("x: \"f32[2]\", y: \"f32[2]\"") "        n: \"f32[2]\" = torch.ops.aten.ceil.default(x)\n"
                                                     "        add: \"f32[2]\" = torch.ops.aten.add.Tensor(n, y)\n      "
                                                     "  return (add,)\n",
                 "aten.ceil.default", false},
        NoopCase{"pow_int_1",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = "
                                                           "torch.ops.aten.pow.Tensor_Scalar(x, 1)\n"
                                                           "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten.pow.Tensor_Scalar", true},
        NoopCase{"pow_float_1_kept",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = "
                                                           "torch.ops.aten.pow.Tensor_Scalar(x, 1.0)\n"
                                                           "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten.pow.Tensor_Scalar", false},
        NoopCase{
            "cat_one",
            FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = torch.ops.aten.cat.default([x])\n"
                                                      "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n  "
                                                      "      return (add,)\n",
            "aten.cat.default", true},
        NoopCase{"view_same",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = torch.ops.aten.view.default(x, "
                                                           "[2, 2])\n"
                                                           "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten.view.default", true},
        NoopCase{"view_minus_one_kept",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = torch.ops.aten.view.default(x, "
                                                           "[-1, 2])\n"
                                                           "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten.view.default", false},
        NoopCase{
            "clone",
            FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = torch.ops.aten.clone.default(x)\n"
                                                      "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n  "
                                                      "      return (add,)\n",
            "aten.clone.default", true},
        NoopCase{
            "alias",
            FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = torch.ops.aten.alias.default(x)\n"
                                                      "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n  "
                                                      "      return (add,)\n",
            "aten.alias.default", true},
        // Not in Inductor's table: airscope no longer removes them.
        NoopCase{
            "add_zero_kept",
            FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(x, 0)\n"
                                                      "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, y)\n  "
                                                      "      return (add,)\n",
            "aten.add.Tensor", false},
        NoopCase{"unsafe_view_kept",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = "
                                                           "torch.ops.aten._unsafe_view.default(x, [2, 2])\n"
                                                           "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten._unsafe_view.default", false},
        // same_meta: a contiguous clone of a transpose changes strides.
        NoopCase{"clone_contiguous_of_transpose_kept",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        t: \"f32[2, 2]\" = torch.ops.aten.transpose.int(x, "
                                                           "0, 1)\n"
                                                           "        n: \"f32[2, 2]\" = torch.ops.aten.clone.default(t, "
                                                           "memory_format = torch.contiguous_format)\n"
                                                           "        add: \"f32[2, 2]\" = torch.ops.aten.add.Tensor(n, "
                                                           "y)\n        return (add,)\n",
                 "aten.clone.default", false},
        // Aliasing: a clone returned while its source is an input is kept.
        NoopCase{"clone_of_input_returned_kept",
                 FWD("x: \"f32[2, 2]\", y: \"f32[2, 2]\"") "        n: \"f32[2, 2]\" = "
                                                           "torch.ops.aten.clone.default(x)\n        return (n,)\n",
                 "aten.clone.default", false}),
    [](const ::testing::TestParamInfo<NoopCase>& info) { return std::string(info.param.name); });
#undef FWD

TEST(OptimizeNoopOpsTest, SwitchOffDoesNothingAndSaysSo) {
  std::unique_ptr<Graph> g = ParseModuleText(
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
  std::unique_ptr<Graph> g = ParseModuleText(
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
  std::unique_ptr<Graph> g = ParseModuleText(
      "    def forward(self, x: \"f32[8]\"):\n"
      "        exp: \"f32[8]\" = torch.ops.aten.exp.default(x)\n"
      "        exp_1: \"f32[8]\" = torch.ops.aten.exp.default(x)\n"
      "        cat: \"f32[16]\" = torch.ops.aten.cat.default([exp, exp_1])\n        return (cat,)\n");
  EXPECT_TRUE(RunOn(RemoveCatOpsPass(), *g).changed);
  EXPECT_EQ(Describe(*g), (std::vector<std::string>{
                              "x = placeholder()",
                              "empty = aten.empty.memory_format([16], dtype=torch.float32, device=None, "
                              "pin_memory=False, memory_format=None)",
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
    std::unique_ptr<Graph> g = ParseModuleText(body);
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
  std::unique_ptr<Graph> off = ParseModuleText(body);
  PassContext context;
  context.config.remove_cat_ops = false;
  EXPECT_FALSE(RunOn(RemoveCatOpsPass(), *off, context).changed);
  std::unique_ptr<Graph> g = ParseModuleText(body);
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
  std::unique_ptr<Graph> g = ParseModuleText(kScatterGraph);
  EXPECT_TRUE(RunOn(RecoverViewInplacePatternPass(), *g).changed);
  EXPECT_FALSE(Has(*g, "npu.scatter_update.default"));
  EXPECT_FALSE(Has(*g, "aten.copy_.default"));
  ASSERT_NE(g->Find("scatter_update_inplace"), nullptr);
  EXPECT_EQ(StripTorchOps(g->Find("scatter_update_inplace")->target()), "npu.scatter_update_.default");
}

TEST(RecoverViewInplaceTest, OldCannSkipsWithRemark) {
  std::unique_ptr<Graph> g = ParseModuleText(kScatterGraph);
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
  std::unique_ptr<Graph> g = ParseModuleText(BmmGraph(512));
  EXPECT_TRUE(RunOn(ApplyPatternPassesPass(), *g).changed);
  EXPECT_FALSE(Has(*g, "aten.bmm.default"));
  EXPECT_TRUE(Has(*g, "npu.npu_transpose_batchmatmul.default"));
}

TEST(ApplyPatternPassesTest, MisalignedKOldTorchOrSwitchOffKeepBmm) {
  std::unique_ptr<Graph> g = ParseModuleText(BmmGraph(511));
  PassRun run = RunOn(ApplyPatternPassesPass(), *g);
  EXPECT_FALSE(run.changed);
  bool logged = false;
  for (const std::string& r : run.remarks) logged |= r.find("K or N alignment check failed") != std::string::npos;
  EXPECT_TRUE(logged);

  std::unique_ptr<Graph> old = ParseModuleText(BmmGraph(512));
  PassContext context;
  context.env.torch_version = "2.5.1";
  EXPECT_FALSE(RunOn(ApplyPatternPassesPass(), *old, context).changed);
  std::unique_ptr<Graph> off = ParseModuleText(BmmGraph(512));
  PassContext no_fusion;
  no_fusion.config.pattern_fusion_pass = false;
  EXPECT_FALSE(RunOn(ApplyPatternPassesPass(), *off, no_fusion).changed);
}

// ---- apply_pattern_passes: the AddRmsNorm* patterns (patterns/add_rms_norm_*.py)

bool Remarked(const PassRun& run, std::string_view text) {
  for (const std::string& r : run.remarks) {
    if (r.find(text) != std::string::npos) return true;
  }
  return false;
}

// add_rms_norm_dynamic_quant.py search_fn: y, _, xOut = norm; yOut, scale = dynamic_quant(y, smooth_scales=s).
std::string DynQuantGraph(std::string_view extra_use = "", std::string_view scope = "") {
  return fmt::format(
      "    def forward(self, x1: \"f16[2, 8]\", x2: \"f16[2, 8]\", g: \"f16[8]\", s: \"f16[8]\"):\n"
      "        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, g)\n"
      "        getitem: \"f16[2, 8]\" = npu_add_rms_norm[0]\n"
      "        getitem_2: \"f16[2, 8]\" = npu_add_rms_norm[2]\n"
      "{1}"
      "        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = s)\n"
      "        getitem_3: \"i8[2, 8]\" = npu_dynamic_quant[0]\n"
      "        getitem_4: \"f32[2]\" = npu_dynamic_quant[1]\n"
      "{2}"
      "{0}"
      "        return (getitem_3, getitem_2, getitem_4)\n",
      extra_use,
      scope.empty() ? ""
                    : "        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label', "
                      "'_user_stream_priority', '_enable_inner_parallel'], ['2', '3', 'False'])\n",
      scope.empty() ? "" : "        scope_exit = torch.ops.air.scope_exit.default()\n");
}

TEST(AddRmsNormPatternsTest, DynamicQuantFusesWithSmoothScales) {
  std::unique_ptr<Graph> g = ParseModuleText(DynQuantGraph());
  EXPECT_TRUE(RunOn(ApplyPatternPassesPass(), *g).changed);
  EXPECT_FALSE(Has(*g, "npu.npu_add_rms_norm.default"));
  EXPECT_FALSE(Has(*g, "npu.npu_dynamic_quant.default"));
  Node* fused = nullptr;
  for (Node* n : *g) {
    if (IsTarget(*n, "npu.npu_add_rms_norm_dynamic_quant.default")) fused = n;
  }
  ASSERT_NE(fused, nullptr);
  ASSERT_NE(fused->kwarg("smooth_scale1"), nullptr);
  EXPECT_EQ(fused->kwarg("smooth_scale1")->as_node()->name(), "s");
  ASSERT_NE(fused->kwarg("output_mask"), nullptr);
  EXPECT_EQ(fused->kwarg("output_mask")->items().size(), 2u);
  ASSERT_NE(fused->meta(), nullptr);  // npu_add_rms_norm_dynamic_quant_meta: scale1 [2] f32, scale2 [0]
  EXPECT_EQ(fused->meta()->tensors[3].ShapeString(), "f32[2]");
  EXPECT_EQ(fused->meta()->tensors[4].ShapeString(), "f32[0]");
  EXPECT_TRUE(g->Lint().ok());
}

TEST(AddRmsNormPatternsTest, DynamicQuantNearMisses) {
  // y has a second user: the traced pattern's getitem has _users=1.
  std::unique_ptr<Graph> extra =
      ParseModuleText(DynQuantGraph("        relu: \"f16[2, 8]\" = torch.ops.aten.relu.default(getitem)\n"));
  EXPECT_FALSE(RunOn(ApplyPatternPassesPass(), *extra).changed);
  // npu_dynamic_quant on a user stream, npu_add_rms_norm on the default one: _check_pattern_stream refuses.
  std::unique_ptr<Graph> streams = ParseModuleText(DynQuantGraph("", "2"));
  PassRun run = RunOn(ApplyPatternPassesPass(), *streams);
  EXPECT_FALSE(run.changed);
  EXPECT_TRUE(Remarked(run, "cross-stream operation detected"));
}

std::string FlattenQuantGraph(std::string_view view_size) {
  return fmt::format(
      "    def forward(self, x1: \"f16[2, 4, 8]\", x2: \"f16[2, 4, 8]\", g: \"f16[8]\"):\n"
      "        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, g, 1e-05)\n"
      "        getitem: \"f16[2, 4, 8]\" = npu_add_rms_norm[0]\n"
      "        getitem_2: \"f16[2, 4, 8]\" = npu_add_rms_norm[2]\n"
      "        view = torch.ops.aten.view.default(getitem, {})\n"
      "        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view)\n"
      "        getitem_3 = npu_dynamic_quant[0]\n"
      "        getitem_4 = npu_dynamic_quant[1]\n"
      "        view_1 = torch.ops.aten.view.default(getitem_4, [-1, 1])\n"
      "        return (getitem_3, view_1, getitem_2)\n",
      view_size);
}

TEST(AddRmsNormPatternsTest, DynamicQuant2NeedsFlattenOfFirstTwoDims) {
  std::unique_ptr<Graph> g = ParseModuleText(FlattenQuantGraph("[8, 8]"));
  EXPECT_TRUE(RunOn(ApplyPatternPassesPass(), *g).changed);
  EXPECT_TRUE(Has(*g, "npu.npu_add_rms_norm_dynamic_quant.default"));
  for (Node* n : *g) {
    if (IsTarget(*n, "npu.npu_add_rms_norm_dynamic_quant.default")) {
      ASSERT_NE(n->kwarg("epsilon"), nullptr);  // replace_fn_with_epsilon passes epsilon=epsilon
      EXPECT_DOUBLE_EQ(n->kwarg("epsilon")->as_float(), 1e-05);
    }
  }
  // view(y, [16, 4]): two sizes, but 16 != 2 * 4: _check_view_shape fails.
  std::unique_ptr<Graph> bad = ParseModuleText(FlattenQuantGraph("[16, 4]"));
  PassRun run = RunOn(ApplyPatternPassesPass(), *bad);
  EXPECT_FALSE(run.changed);
  EXPECT_TRUE(Remarked(run, "End extra check for addrmsnormdynamicquant: False"));
}

std::string CastGraph(std::string_view cast, std::string_view view_size = "[-1, 8]") {
  return fmt::format(
      "    def forward(self, x1: \"f16[2, 4, 8]\", x2: \"f16[2, 4, 8]\", g: \"f16[8]\"):\n"
      "        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, g)\n"
      "        getitem: \"f16[2, 4, 8]\" = npu_add_rms_norm[0]\n"
      "        getitem_2: \"f16[2, 4, 8]\" = npu_add_rms_norm[2]\n"
      "        view = torch.ops.aten.view.default(getitem, {1})\n"
      "        cast = {0}\n"
      "        return (getitem, getitem_2, cast)\n",
      cast, view_size);
}

TEST(AddRmsNormPatternsTest, CastFusesForToCopyAndNpuDtypeCast) {
  for (const char* cast : {"torch.ops.aten._to_copy.default(view, dtype = torch.float32)",
                           "torch.ops.npu._npu_dtype_cast.default(view, torch.float32)"}) {
    std::unique_ptr<Graph> g = ParseModuleText(CastGraph(cast));
    EXPECT_TRUE(RunOn(ApplyPatternPassesPass(), *g).changed) << cast;
    EXPECT_TRUE(Has(*g, "npu.npu_add_rms_norm_cast.default")) << cast;
    EXPECT_FALSE(Has(*g, "npu.npu_add_rms_norm.default")) << cast;
    // replace_fn_with_view: y_cast.view(-1, h), h = y.size(-1) = 8; the output is float32.
    const Node* out = g->output();
    ASSERT_TRUE(out->args()[0].is_sequence());
    const Node* y_cast = out->args()[0].items()[2].as_node();
    EXPECT_TRUE(IsTarget(*y_cast, "aten.view.default"));
    ASSERT_NE(y_cast->tensor(), nullptr);
    EXPECT_EQ(y_cast->tensor()->dtype, DType::kFloat32);
    EXPECT_EQ(y_cast->tensor()->ShapeString(), "f32[8, 8]");
  }
}

TEST(AddRmsNormPatternsTest, CastNearMisses) {
  // A cast to float16: the pattern's dtype constant is torch.float32.
  std::unique_ptr<Graph> f16 =
      ParseModuleText(CastGraph("torch.ops.aten._to_copy.default(view, dtype = torch.float16)"));
  EXPECT_FALSE(RunOn(ApplyPatternPassesPass(), *f16).changed);
  // view(y, [-1, 4]): str(4) != str(x1.shape[-1]) = "8": _pattern_extra_check fails.
  std::unique_ptr<Graph> rows =
      ParseModuleText(CastGraph("torch.ops.aten._to_copy.default(view, dtype = torch.float32)", "[-1, 4]"));
  EXPECT_FALSE(RunOn(ApplyPatternPassesPass(), *rows).changed);
  EXPECT_TRUE(Has(*rows, "npu.npu_add_rms_norm.default"));
}

std::string QuantGraph(std::string_view zero_points_dtype, std::string_view epsilon = ", 4e-06",
                       std::string_view extra = "") {
  return fmt::format(
      "    def forward(self, x1: \"f16[1, 2, 16]\", x2: \"f16[1, 2, 16]\", g: \"f16[16]\", sc: \"f32[16]\", "
      "zp: \"{0}[16]\"):\n"
      "        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, g{1})\n"
      "        getitem: \"f16[1, 2, 16]\" = npu_add_rms_norm[0]\n"
      "        getitem_2: \"f16[1, 2, 16]\" = npu_add_rms_norm[2]\n"
      "        npu_quantize: \"i8[1, 2, 16]\" = torch.ops.npu.npu_quantize.default(getitem, sc, zp, 1, -1)\n"
      "{2}"
      "        return (npu_quantize, getitem_2)\n",
      zero_points_dtype, epsilon, extra);
}

TEST(AddRmsNormPatternsTest, QuantFusesAndChecksItsInputs) {
  std::unique_ptr<Graph> g = ParseModuleText(QuantGraph("i32"));
  EXPECT_TRUE(RunOn(ApplyPatternPassesPass(), *g).changed);
  EXPECT_TRUE(Has(*g, "npu.npu_add_rms_norm_quant.default"));
  EXPECT_FALSE(Has(*g, "npu.npu_quantize.default"));
  // int8 zero points: "Zero_points dtype mismatch" (add_rms_norm_quant.py:26-29).
  std::unique_ptr<Graph> i8 = ParseModuleText(QuantGraph("i8"));
  PassRun run = RunOn(ApplyPatternPassesPass(), *i8);
  EXPECT_FALSE(run.changed);
  EXPECT_TRUE(Remarked(run, "Zero_points dtype mismatch"));
  // y also used elsewhere: the traced pattern's getitem has _users=1.
  std::unique_ptr<Graph> used = ParseModuleText(
      QuantGraph("i32", ", 4e-06", "        add: \"f16[1, 2, 16]\" = torch.ops.aten.add.Tensor(getitem, 1)\n"));
  EXPECT_FALSE(RunOn(ApplyPatternPassesPass(), *used).changed);
  // epsilon written out at its default: check_fn's re-trace has no epsilon and does not match.
  std::unique_ptr<Graph> eps = ParseModuleText(QuantGraph("i32", ", 1e-06"));
  PassRun eps_run = RunOn(ApplyPatternPassesPass(), *eps);
  EXPECT_FALSE(eps_run.changed);
  EXPECT_TRUE(Remarked(eps_run, "re-traced"));
}

}  // namespace
}  // namespace airscope

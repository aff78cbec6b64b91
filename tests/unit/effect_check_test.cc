// Effect check: value-preserving rewrites compare equal, writes into graph
// inputs and changed values are found and named, kPreserveAliasing only
// looks at what is written and aliased, and the PassManager rolls back a
// pass that breaks its policy unless `check_effects` is off.
#include <gtest/gtest.h>

#include "core/fx/readable.h"
#include "core/pass/effect_check.h"
#include "core/pass/pass_manager.h"
#include "core/pass/pipeline_run.h"
#include "core/pass/reinplace_util.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

std::unique_ptr<Graph> ParseEffectsForward(const std::string& body, const std::string& params) {
  return testing_util::ParseForward(params, body, "effects.py");
}

Status Compare(const Graph& before, const Graph& after, EffectPolicy policy = EffectPolicy::kPreserveValues) {
  auto b = SummarizeEffects(before, OpRegistry::Builtin());
  auto a = SummarizeEffects(after, OpRegistry::Builtin(), b->table);
  return CheckEffects(*b, *a, policy);
}

TEST(ValueTableTest, SameWordsSameIdAcrossGrowth) {
  ValueTable table;
  std::vector<ValueId> ids;
  for (uint32_t i = 0; i < 5000; ++i) {
    uint32_t words[3] = {7, i, i * 3};
    ids.push_back(table.Intern(words));
  }
  EXPECT_EQ(table.size(), 5000u);
  for (uint32_t i = 0; i < 5000; ++i) {
    uint32_t words[3] = {7, i, i * 3};
    EXPECT_EQ(table.Intern(words), ids[i]);
  }
  uint32_t shorter[2] = {7, 0};
  EXPECT_NE(table.Intern(shorter), ids[0]);
  EXPECT_EQ(table.Symbol("aten.mul"), table.Symbol(std::string("aten.") + "mul"));
  EXPECT_EQ(table.SymbolText(table.Symbol("x")), "x");
}

const char* kX = "arg0_1: \"f32[4]\"";

// A custom op whose schema writes its argument (torch.library's
// `boo(Tensor(a!) x) -> None`, as TorchAir's reinplace tests define it): with
// the schema, boo writes arg0_1 through the view; without, it is a pure
// function and only copy_ writes.
const char* kBooThroughAView =
    "        as_strided: \"f32[4]\" = torch.ops.aten.as_strided.default(arg0_1, [4], [1], 0)\n"
    "        boo = torch.ops.custom.boo.default(as_strided)\n"
    "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg0_1, arg0_1)\n"
    "        return ()\n";

// TorchAir's inplaceable_npu_ops pairs a multi-output in-place op with its
// functional form, which returns (*outs, *new values of the mutated args):
// the in-place op's k-th write is the functional form's output len(outs)+k.
struct PairedOps {
  explicit PairedOps(const std::string& inplace_returns, const std::string& functional_returns) {
    if (!inplace_returns.empty()) {
      EXPECT_TRUE(
          schemas
              .Define("custom::sin_cos_inplace(Tensor x, Tensor(a!) out_sin, Tensor(b!) out_cos) -> " + inplace_returns)
              .ok());
    }
    if (!functional_returns.empty()) {
      EXPECT_TRUE(
          schemas
              .Define("custom::sin_cos_functional(Tensor x, Tensor out_sin, Tensor out_cos) -> " + functional_returns)
              .ok());
    }
    EXPECT_TRUE(
        inplaceable.Register({"custom.sin_cos_functional.default", "custom.sin_cos_inplace.default", {1, 2}}).ok());
  }
  EffectTables tables() const { return {.schemas = &schemas, .inplaceable = &inplaceable}; }
  OpSchemaTable schemas;
  InplaceableNpuOps inplaceable;
};

const char* kThree = "arg0_1: \"f32[3]\", arg1_1: \"f32[3]\", arg2_1: \"f32[3]\"";

// test_multi_mutated_input's graph before and after reinplace_input_mutated_ops.
const char* kFunctionalWithEpilogues =
    "        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(arg0_1, arg1_1, arg2_1)\n"
    "        getitem: \"f32[3]\" = sin_cos_functional[0]\n"
    "        getitem_1: \"f32[3]\" = sin_cos_functional[1]\n"
    "        getitem_2: \"f32[3]\" = sin_cos_functional[2]\n"
    "        copy_: \"f32[3]\" = torch.ops.aten.copy_.default(arg1_1, getitem_1)\n"
    "        copy__1: \"f32[3]\" = torch.ops.aten.copy_.default(arg2_1, getitem_2)\n"
    "        return (getitem,)\n";
const char* kInplaceWithoutEpilogues =
    "        sin_cos_functional = torch.ops.custom.sin_cos_inplace.default(arg0_1, arg1_1, arg2_1)\n"
    "        getitem: \"f32[3]\" = sin_cos_functional[0]\n"
    "        return (getitem,)\n";

TEST(EffectCheckTest, APairedInplaceOpWritesWhatItsFunctionalFormReturns) {
  PairedOps ops("Tensor", "(Tensor, Tensor, Tensor)");
  auto before = ParseEffectsForward(kFunctionalWithEpilogues, kThree);
  auto after = ParseEffectsForward(kInplaceWithoutEpilogues, kThree);
  auto b = SummarizeEffects(*before, OpRegistry::Builtin(), nullptr, ops.tables());
  auto a = SummarizeEffects(*after, OpRegistry::Builtin(), b->table, ops.tables());
  ASSERT_EQ(a->written.size(), 2u);
  ASSERT_EQ(b->written.size(), 2u);
  EXPECT_EQ(a->written[0].value, b->written[0].value);  // arg1_1
  EXPECT_EQ(a->written[1].value, b->written[1].value);  // arg2_1
  EXPECT_NE(a->written[0].value, a->written[1].value);
  EXPECT_TRUE(a->unmodelled.empty());
  // The graph TorchAir leaves returns getitem(node, 0) of the in-place op's
  // one tensor: that, and only that, differs.
  Status check = CheckEffects(*b, *a, EffectPolicy::kPreserveValues);
  ASSERT_FALSE(check.ok());
  EXPECT_EQ(check.message(),
            "output 0 now holds a different value: 'getitem' (element 0 of 'sin_cos_functional' "
            "(custom.sin_cos_inplace.default)); before, 'getitem' (element 0 of 'sin_cos_functional' "
            "(custom.sin_cos_functional.default))");
  // Returning the in-place op's own result is the functional form's output 0.
  auto direct = ParseEffectsForward(
      "        sin_cos_inplace = torch.ops.custom.sin_cos_inplace.default(arg0_1, arg1_1, arg2_1)\n"
      "        return (sin_cos_inplace,)\n",
      kThree);
  EXPECT_TRUE(CheckEffects(*b, *SummarizeEffects(*direct, OpRegistry::Builtin(), b->table, ops.tables()),
                           EffectPolicy::kPreserveValues)
                  .ok());
}

TEST(EffectCheckTest, WithoutThePairTheInplaceOpsWritesAreItsOwn) {
  PairedOps ops("Tensor", "(Tensor, Tensor, Tensor)");
  auto before = ParseEffectsForward(kFunctionalWithEpilogues, kThree);
  auto after = ParseEffectsForward(kInplaceWithoutEpilogues, kThree);
  EffectTables schemas_only{.schemas = &ops.schemas};
  auto b = SummarizeEffects(*before, OpRegistry::Builtin(), nullptr, schemas_only);
  auto a = SummarizeEffects(*after, OpRegistry::Builtin(), b->table, schemas_only);
  Status check = CheckEffects(*b, *a, EffectPolicy::kPreserveValues);
  ASSERT_FALSE(check.ok());
  EXPECT_NE(check.message().find("graph input 'arg1_1' now ends with a different value"), std::string::npos)
      << check.message();
}

// Outputs counted from the in-place op's schema when the functional form has
// none; with several outputs, the op's result is the functional form's tuple.
TEST(EffectCheckTest, APairedOpsOutputsCountFromEitherSchema) {
  PairedOps ops("(Tensor, Tensor)", "");
  auto before = ParseEffectsForward(
      "        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(arg0_1, arg1_1, arg2_1)\n"
      "        getitem: \"f32[3]\" = sin_cos_functional[1]\n"
      "        getitem_1: \"f32[3]\" = sin_cos_functional[2]\n"
      "        getitem_2: \"f32[3]\" = sin_cos_functional[3]\n"
      "        copy_: \"f32[3]\" = torch.ops.aten.copy_.default(arg1_1, getitem_1)\n"
      "        copy__1: \"f32[3]\" = torch.ops.aten.copy_.default(arg2_1, getitem_2)\n"
      "        return (getitem,)\n",
      kThree);
  auto after = ParseEffectsForward(
      "        sin_cos_inplace = torch.ops.custom.sin_cos_inplace.default(arg0_1, arg1_1, arg2_1)\n"
      "        getitem: \"f32[3]\" = sin_cos_inplace[1]\n"
      "        return (getitem,)\n",
      kThree);
  auto b = SummarizeEffects(*before, OpRegistry::Builtin(), nullptr, ops.tables());
  auto a = SummarizeEffects(*after, OpRegistry::Builtin(), b->table, ops.tables());
  EXPECT_TRUE(CheckEffects(*b, *a, EffectPolicy::kPreserveValues).ok())
      << CheckEffects(*b, *a, EffectPolicy::kPreserveValues).message();
}

TEST(EffectCheckTest, APairWhoseOutputsCannotBeCountedIsNamedAsRough) {
  PairedOps ops("", "");
  auto after = ParseEffectsForward(kInplaceWithoutEpilogues, kThree);
  auto a = SummarizeEffects(*after, OpRegistry::Builtin(), nullptr, ops.tables());
  ASSERT_EQ(a->unmodelled.size(), 1u);
  EXPECT_EQ(a->unmodelled[0],
            "'custom.sin_cos_inplace.default' is valued as itself, not as its functional form "
            "'custom.sin_cos_functional.default' (no schema of either says how many tensors "
            "'custom.sin_cos_functional.default' returns)");
}

TEST(EffectCheckTest, AnOpWhoseSchemaWritesAnArgumentWritesIt) {
  OpSchemaTable schemas;
  ASSERT_TRUE(schemas.Define("custom::boo(Tensor(a!) x) -> None").ok());
  auto with_copy = ParseEffectsForward(kBooThroughAView, kX);
  auto without_copy = ParseEffectsForward(
      "        as_strided: \"f32[4]\" = torch.ops.aten.as_strided.default(arg0_1, [4], [1], 0)\n"
      "        boo = torch.ops.custom.boo.default(as_strided)\n"
      "        return ()\n",
      kX);
  // eliminate_self_copy's rewrite: copy_(x, x) adds nothing to what boo wrote.
  auto b = SummarizeEffects(*with_copy, OpRegistry::Builtin(), nullptr, {.schemas = &schemas});
  auto a = SummarizeEffects(*without_copy, OpRegistry::Builtin(), b->table, {.schemas = &schemas});
  ASSERT_EQ(a->written.size(), 1u);
  EXPECT_EQ(a->written[0].input, "arg0_1");
  EXPECT_EQ(a->written[0].first_writer, "'boo' (custom.boo.default)");
  EXPECT_TRUE(CheckEffects(*b, *a, EffectPolicy::kPreserveValues).ok());
  // Without the schema boo writes nothing, and the copy_ writes arg0_1's own
  // value: no value changes (kPreserveValues), but for the policies about the
  // act of writing, dropping the copy_ drops the only write.
  EXPECT_TRUE(Compare(*with_copy, *without_copy).ok());
  Status unknown = Compare(*with_copy, *without_copy, EffectPolicy::kPreserveWrites);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.message().find("graph input 'arg0_1' is no longer written"), std::string::npos)
      << unknown.message();
}

// The reinplace bug: `add` is copied into arg0_1 at the end, so turning mul
// into mul_(add, 2) changes what arg0_1 ends with.
const char* kEpilogue =
    "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(arg0_1, 1)\n"
    "        mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(add, 2)\n"
    "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg0_1, add)\n"
    "        return (mul,)\n";

TEST(EffectCheckTest, InPlaceWriteIntoACopiedValueChangesTheInputsFinalValue) {
  auto before = ParseEffectsForward(kEpilogue, kX);
  auto after = ParseEffectsForward(
      "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(arg0_1, 1)\n"
      "        mul: \"f32[4]\" = torch.ops.aten.mul_.Tensor(add, 2)\n"
      "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg0_1, add)\n"
      "        return (mul,)\n",
      kX);
  Status status = Compare(*before, *after);
  EXPECT_EQ(status.message(),
            "graph input 'arg0_1' now ends with a different value, last written by 'copy_' (aten.copy_.default) "
            "(copying 'add' (aten.add.Tensor), written in place by 'mul' (aten.mul_.Tensor)); before, by 'copy_' "
            "(aten.copy_.default)");
  // Only values changed: the same input is written, the output aliases nothing.
  EXPECT_TRUE(Compare(*before, *after, EffectPolicy::kPreserveAliasing).ok());
}

TEST(EffectCheckTest, NewWriteIntoAGraphInputIsNamed) {
  auto before = ParseEffectsForward(
      "        mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(arg0_1, 2)\n"
      "        return (mul,)\n",
      kX);
  auto after = ParseEffectsForward(
      "        mul: \"f32[4]\" = torch.ops.aten.mul_.Tensor(arg0_1, 2)\n"
      "        return (mul,)\n",
      kX);
  EXPECT_EQ(Compare(*before, *after).message(),
            "graph input 'arg0_1' is now written by 'mul' (aten.mul_.Tensor); before, the graph did not write it");
  EXPECT_FALSE(Compare(*before, *after, EffectPolicy::kPreserveAliasing).ok());
  EXPECT_TRUE(Compare(*before, *after, EffectPolicy::kUnchecked).ok());
  // And the other way round: a write that disappears.
  EXPECT_EQ(Compare(*after, *before).message(),
            "graph input 'arg0_1' is no longer written; before, 'mul' (aten.mul_.Tensor) wrote it");
}

// copy_(x, x) writes x's own value: the input ends as it began, so removing
// the copy (npugraph_ex's eliminate_self_copy) changes no value a caller sees
// (kPreserveValues). The policies about the act of writing still see it go.
// A copy of another value into x counts under every policy.
TEST(EffectCheckTest, ASelfCopyIsNotAnObservableWrite) {
  auto self_copy = ParseEffectsForward(
      "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg0_1, arg0_1)\n"
      "        return ()\n",
      kX);
  auto nothing = ParseEffectsForward("        return ()\n", kX);
  EXPECT_TRUE(Compare(*self_copy, *nothing).ok()) << Compare(*self_copy, *nothing).message();
  EXPECT_TRUE(Compare(*nothing, *self_copy).ok());
  EXPECT_EQ(Compare(*self_copy, *nothing, EffectPolicy::kPreserveWrites)
                .message()
                .rfind("graph input 'arg0_1' is no longer written; before, 'copy_' (aten.copy_.default)", 0),
            0u);
  auto real_copy = ParseEffectsForward(
      "        mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(arg0_1, 2)\n"
      "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg0_1, mul)\n"
      "        return ()\n",
      kX);
  auto mul_only = ParseEffectsForward(
      "        mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(arg0_1, 2)\n"
      "        return ()\n",
      kX);
  EXPECT_EQ(Compare(*real_copy, *mul_only).message(),
            "graph input 'arg0_1' is no longer written; before, 'copy_' (aten.copy_.default) wrote it");
}

TEST(EffectCheckTest, ReinplacingTheEpilogueKeepsEffects) {
  // _reinplace_input_mutated_ops: add becomes add_ on the input, the copy_ goes.
  auto before = ParseEffectsForward(
      "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(arg0_1, 1)\n"
      "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg0_1, add)\n"
      "        return (add,)\n",
      kX);
  auto after = ParseEffectsForward(
      "        add: \"f32[4]\" = torch.ops.aten.add_.Tensor(arg0_1, 1)\n"
      "        return (add,)\n",
      kX);
  EXPECT_TRUE(Compare(*before, *after).ok()) << Compare(*before, *after).message();
}

TEST(EffectCheckTest, InPlaceOnIntermediateAndCloneRemovalKeepValues) {
  auto before = ParseEffectsForward(
      "        relu: \"f32[4]\" = torch.ops.aten.relu.default(arg0_1)\n"
      "        clone: \"f32[4]\" = torch.ops.aten.clone.default(relu)\n"
      "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(clone, 1)\n"
      "        return (add,)\n",
      kX);
  auto after = ParseEffectsForward(
      "        relu: \"f32[4]\" = torch.ops.aten.relu.default(arg0_1)\n"
      "        add: \"f32[4]\" = torch.ops.aten.add_.Tensor(relu, 1)\n"
      "        return (add,)\n",
      kX);
  EXPECT_TRUE(Compare(*before, *after).ok()) << Compare(*before, *after).message();
  // A different constant is a different value, and the output is named.
  auto other = ParseEffectsForward(
      "        relu: \"f32[4]\" = torch.ops.aten.relu.default(arg0_1)\n"
      "        add: \"f32[4]\" = torch.ops.aten.add_.Tensor(relu, 2)\n"
      "        return (add,)\n",
      kX);
  EXPECT_EQ(Compare(*before, *other).message(),
            "output 0 now holds a different value: 'add' (aten.add_.Tensor), last written in place by 'add' "
            "(aten.add_.Tensor); before, 'add' (aten.add.Tensor)");
  // kPreserveAliasing lets the math change.
  EXPECT_TRUE(Compare(*before, *other, EffectPolicy::kPreserveAliasing).ok());
}

TEST(EffectCheckTest, ViewsAndReshapesOfTheSameShapeAreOneValue) {
  const char* params = "x: \"f32[2, 6]\"";
  auto before = ParseEffectsForward(
      "        view: \"f32[3, 4]\" = torch.ops.aten.view.default(x, [3, 4])\n"
      "        noop: \"f32[3, 4]\" = torch.ops.aten.view.default(view, [3, 4])\n"
      "        mul: \"f32[3, 4]\" = torch.ops.aten.mul.Tensor(noop, 2)\n"
      "        return (mul,)\n",
      params);
  auto after = ParseEffectsForward(
      "        view: \"f32[3, 4]\" = torch.ops.aten.reshape.default(x, [-1, 4])\n"
      "        mul: \"f32[3, 4]\" = torch.ops.aten.mul.Tensor(view, 2)\n"
      "        return (mul,)\n",
      params);
  EXPECT_TRUE(Compare(*before, *after).ok()) << Compare(*before, *after).message();
  auto transposed = ParseEffectsForward(
      "        view: \"f32[4, 3]\" = torch.ops.aten.reshape.default(x, [4, 3])\n"
      "        mul: \"f32[4, 3]\" = torch.ops.aten.mul.Tensor(view, 2)\n"
      "        return (mul,)\n",
      params);
  EXPECT_FALSE(Compare(*before, *transposed).ok());
}

TEST(EffectCheckTest, ScatterEqualsViewPlusCopy) {
  // TorchAir's reinplace Step 3a (graph_pass.py): slice_scatter -> slice + copy_.
  const char* params = "x: \"f32[4, 4]\", y: \"f32[2, 4]\"";
  auto before = ParseEffectsForward(
      "        relu: \"f32[4, 4]\" = torch.ops.aten.relu.default(x)\n"
      "        neg: \"f32[2, 4]\" = torch.ops.aten.neg.default(y)\n"
      "        slice_scatter: \"f32[4, 4]\" = torch.ops.aten.slice_scatter.default(relu, neg, 0, 0, 2)\n"
      "        mul: \"f32[4, 4]\" = torch.ops.aten.mul.Tensor(slice_scatter, 2)\n"
      "        return (mul,)\n",
      params);
  auto after = ParseEffectsForward(
      "        relu: \"f32[4, 4]\" = torch.ops.aten.relu.default(x)\n"
      "        neg: \"f32[2, 4]\" = torch.ops.aten.neg.default(y)\n"
      "        slice_1: \"f32[2, 4]\" = torch.ops.aten.slice.Tensor(relu, 0, 0, 2)\n"
      "        copy_: \"f32[2, 4]\" = torch.ops.aten.copy_.default(slice_1, neg)\n"
      "        mul: \"f32[4, 4]\" = torch.ops.aten.mul.Tensor(relu, 2)\n"
      "        return (mul,)\n",
      params);
  EXPECT_TRUE(Compare(*before, *after).ok()) << Compare(*before, *after).message();
  // Writing another slice is another value.
  auto wrong = ParseEffectsForward(
      "        relu: \"f32[4, 4]\" = torch.ops.aten.relu.default(x)\n"
      "        neg: \"f32[2, 4]\" = torch.ops.aten.neg.default(y)\n"
      "        slice_1: \"f32[2, 4]\" = torch.ops.aten.slice.Tensor(relu, 0, 2, 4)\n"
      "        copy_: \"f32[2, 4]\" = torch.ops.aten.copy_.default(slice_1, neg)\n"
      "        mul: \"f32[4, 4]\" = torch.ops.aten.mul.Tensor(relu, 2)\n"
      "        return (mul,)\n",
      params);
  EXPECT_FALSE(Compare(*before, *wrong).ok());
}

TEST(EffectCheckTest, CatEqualsOutBufferRewrite) {
  // optimize_cat_with_out_tensor (TORCHAIR.md §5): empty + slice + <op>.out(out=slice).
  const char* params = "x: \"f32[2, 4]\", y: \"f32[3, 4]\"";
  auto before = ParseEffectsForward(
      "        relu: \"f32[2, 4]\" = torch.ops.aten.relu.default(x)\n"
      "        mul: \"f32[3, 4]\" = torch.ops.aten.mul.Tensor(y, 2)\n"
      "        cat: \"f32[5, 4]\" = torch.ops.aten.cat.default([relu, mul])\n"
      "        neg: \"f32[2, 4]\" = torch.ops.aten.neg.default(relu)\n"
      "        return (cat, neg)\n",
      params);
  auto after = ParseEffectsForward(
      "        empty: \"f32[5, 4]\" = torch.ops.aten.empty.memory_format([5, 4], dtype = torch.float32, "
      "device = device(type='cpu'), pin_memory = False)\n"
      "        slice_1: \"f32[2, 4]\" = torch.ops.aten.slice.Tensor(empty, 0, 0, 2)\n"
      "        relu: \"f32[2, 4]\" = torch.ops.aten.relu.out(x, out = slice_1)\n"
      "        slice_2: \"f32[3, 4]\" = torch.ops.aten.slice.Tensor(empty, 0, 2, 5)\n"
      "        mul: \"f32[3, 4]\" = torch.ops.aten.mul.out(y, 2, out = slice_2)\n"
      "        neg: \"f32[2, 4]\" = torch.ops.aten.neg.default(relu)\n"
      "        return (empty, neg)\n",
      params);
  EXPECT_TRUE(Compare(*before, *after).ok()) << Compare(*before, *after).message();
  // A buffer only partly written is not the cat.
  auto partial = ParseEffectsForward(
      "        empty: \"f32[5, 4]\" = torch.ops.aten.empty.memory_format([5, 4], dtype = torch.float32, "
      "device = device(type='cpu'), pin_memory = False)\n"
      "        slice_1: \"f32[2, 4]\" = torch.ops.aten.slice.Tensor(empty, 0, 0, 2)\n"
      "        relu: \"f32[2, 4]\" = torch.ops.aten.relu.out(x, out = slice_1)\n"
      "        neg: \"f32[2, 4]\" = torch.ops.aten.neg.default(relu)\n"
      "        return (empty, neg)\n",
      params);
  EXPECT_EQ(Compare(*before, *partial).message(),
            "output 0 now holds a different value: 'empty' (aten.empty.memory_format), last written in place by "
            "'relu' (aten.relu.out); before, 'cat' (aten.cat.default)");
}

// A k-way cat and TorchAir's rewrite of it (an empty buffer, k slices, k
// out= writes) are one value, whatever order the pieces are written in and
// with a piece read back before the others are written; and the summaries
// take space linear in k (issue 29 item 2: every write spelled the buffer's
// pieces so far, k^2/2 of them, 2.5 GB at k = 16,000).
TEST(EffectCheckTest, AWideOutBufferRewriteIsTheCatInLinearSpace) {
  constexpr size_t k = 2000;
  std::string before_body, items, after_body;
  for (size_t i = 0; i < k; ++i) {
    // add(x, i + 1): never the no-op add of 0, which is x itself.
    before_body += fmt::format("        add_{0}: \"f32[2, 4]\" = torch.ops.aten.add.Tensor(x, {1})\n", i, i + 1);
    items += fmt::format("{}add_{}", i ? ", " : "", i);
  }
  before_body += fmt::format("        cat: \"f32[{}, 4]\" = torch.ops.aten.cat.default([{}])\n", 2 * k, items);
  before_body += "        neg: \"f32[2, 4]\" = torch.ops.aten.neg.default(add_0)\n        return (cat, neg)\n";
  after_body = fmt::format(
      "        empty: \"f32[{}, 4]\" = torch.ops.aten.empty.memory_format([{}, 4], dtype = torch.float32, "
      "device = device(type='cpu'), pin_memory = False)\n",
      2 * k, 2 * k);
  for (size_t n = 0; n < k; ++n) {
    size_t i = n == 0 ? 0 : k - n;  // piece 0 first (read back below), then from the last piece down
    after_body += fmt::format(
        "        slice_{0}: \"f32[2, 4]\" = torch.ops.aten.slice.Tensor(empty, 0, {1}, {2})\n"
        "        add_{0}: \"f32[2, 4]\" = torch.ops.aten.add.out(x, {3}, out = slice_{0})\n",
        i, 2 * i, 2 * i + 2, i + 1);
    if (n == 0) after_body += "        neg: \"f32[2, 4]\" = torch.ops.aten.neg.default(add_0)\n";
  }
  after_body += "        return (empty, neg)\n";
  const char* params = "x: \"f32[2, 4]\"";
  auto before = ParseEffectsForward(before_body, params);
  auto after = ParseEffectsForward(after_body, params);
  auto b = SummarizeEffects(*before, OpRegistry::Builtin());
  auto a = SummarizeEffects(*after, OpRegistry::Builtin(), b->table);
  EXPECT_TRUE(CheckEffects(*b, *a, EffectPolicy::kPreserveValues).ok())
      << CheckEffects(*b, *a, EffectPolicy::kPreserveValues).message();
  EXPECT_LT(b->table->words(), 64 * k);
}

TEST(EffectCheckTest, StreamOpsHaveNoValueEffect) {
  auto before = ParseEffectsForward(
      "        relu: \"f32[4]\" = torch.ops.aten.relu.default(arg0_1)\n"
      "        return (relu,)\n",
      kX);
  auto after = ParseEffectsForward(
      "        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['s1'])\n"
      "        relu: \"f32[4]\" = torch.ops.aten.relu.default(arg0_1)\n"
      "        record = torch.ops.air.record.default()\n"
      "        scope_exit = torch.ops.air.scope_exit.default()\n"
      "        wait = torch.ops.air.wait.default([record])\n"
      "        return (relu,)\n",
      kX);
  EXPECT_TRUE(Compare(*before, *after).ok()) << Compare(*before, *after).message();
}

TEST(EffectCheckTest, AliasingPolicyWatchesOutputAliases) {
  auto before = ParseEffectsForward(
      "        clone: \"f32[4]\" = torch.ops.aten.clone.default(arg0_1)\n"
      "        return (clone,)\n",
      kX);
  auto after = ParseEffectsForward("        return (arg0_1,)\n", kX);
  EXPECT_TRUE(Compare(*before, *after).ok());  // the same value
  EXPECT_EQ(Compare(*before, *after, EffectPolicy::kPreserveAliasing).message(),
            "output 0 ('arg0_1') now aliases graph input 'arg0_1'; before, no graph input");
}

// ---- through the PassManager

PassInfo MulToInplace(EffectPolicy policy) {
  PassInfo info;
  info.name = "reinplace_inplaceable_ops_pass";
  info.effects = policy;
  info.run = [](Graph& graph, PassContext&) -> Result<bool> {
    graph.SetTarget(graph.Find("mul"), "torch.ops.aten.mul_.Tensor");
    return true;
  };
  return info;
}

TEST(EffectCheckTest, ManagerRollsBackAndNamesThePass) {
  auto graph = ParseEffectsForward(kEpilogue, kX);
  auto original = graph->Clone();
  PassManager manager;
  PassContext context;
  Result<PassOutcome> outcome = manager.Run(MulToInplace(EffectPolicy::kPreserveValues), *graph, context);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().message().rfind(
                "pass 'reinplace_inplaceable_ops_pass' changed the graph's effects: graph input 'arg0_1' now ends "
                "with a different value",
                0),
            0u)
      << outcome.status().message();
  EXPECT_TRUE(SameGraph(*graph, *original));
  // With a pristine copy and its summary given (how PipelineRun calls it).
  auto summary = SummarizeEffects(*original, OpRegistry::Builtin());
  outcome =
      manager.Run(MulToInplace(EffectPolicy::kPreserveValues), *graph, context, original.get(), ReadyEffects(summary));
  ASSERT_FALSE(outcome.ok());
  EXPECT_TRUE(SameGraph(*graph, *original));
}

// `alongside` sees the graph after a pass that touched it and passed lint,
// whether the check then accepts it or not, with or without a check; never
// after a pass that left the graph alone or broke it.
TEST(EffectCheckTest, AlongsideRunsOnceForATouchedLintedGraph) {
  PassManager manager;
  PassContext context;
  std::vector<std::string> seen;
  auto alongside = [&](const Graph& graph) { seen.push_back(graph.Find("mul")->target()); };
  auto graph = ParseEffectsForward(kEpilogue, kX);
  EXPECT_FALSE(manager.Run(MulToInplace(EffectPolicy::kPreserveValues), *graph, context, nullptr, {}, alongside).ok());
  EXPECT_EQ(seen, std::vector<std::string>{"torch.ops.aten.mul_.Tensor"});  // seen before the rollback
  EXPECT_EQ(graph->Find("mul")->target(), "torch.ops.aten.mul.Tensor");
  seen.clear();
  context.check_effects = false;
  EXPECT_TRUE(manager.Run(MulToInplace(EffectPolicy::kPreserveValues), *graph, context, nullptr, {}, alongside).ok());
  EXPECT_EQ(seen, std::vector<std::string>{"torch.ops.aten.mul_.Tensor"});
  seen.clear();
  PassInfo untouched;
  untouched.name = "untouched";
  untouched.run = [](Graph&, PassContext&) -> Result<bool> { return false; };
  PassInfo breaks = untouched;
  breaks.name = "breaks";
  breaks.run = [](Graph& graph, PassContext&) -> Result<bool> {
    graph.MoveBefore(graph.output(), graph.front());  // the output first: lint refuses it
    return true;
  };
  context.check_effects = true;
  EXPECT_TRUE(manager.Run(untouched, *graph, context, nullptr, {}, alongside).ok());
  EXPECT_FALSE(manager.Run(breaks, *graph, context, nullptr, {}, alongside).ok());
  EXPECT_TRUE(seen.empty());
}

TEST(EffectCheckTest, SettingOffAndLaxPoliciesLetThePassThrough) {
  for (EffectPolicy policy : {EffectPolicy::kPreserveAliasing, EffectPolicy::kUnchecked}) {
    auto graph = ParseEffectsForward(kEpilogue, kX);
    PassManager manager;
    PassContext context;
    Result<PassOutcome> outcome = manager.Run(MulToInplace(policy), *graph, context);
    ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  }
  auto graph = ParseEffectsForward(kEpilogue, kX);
  PassManager manager;
  PassContext context;
  context.check_effects = false;
  Result<PassOutcome> outcome = manager.Run(MulToInplace(EffectPolicy::kPreserveValues), *graph, context);
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  EXPECT_EQ(graph->Find("mul")->target(), "torch.ops.aten.mul_.Tensor");
  EXPECT_EQ(outcome->effects, nullptr);  // no summary made
}

TEST(EffectCheckTest, PipelineRollsBackTheBadPassAfterAGoodOne) {
  std::shared_ptr<const Graph> input = ParseEffectsForward(
      "        add: \"f32[4]\" = torch.ops.aten.add.Tensor(arg0_1, 1)\n"
      "        clone: \"f32[4]\" = torch.ops.aten.clone.default(add)\n"
      "        mul: \"f32[4]\" = torch.ops.aten.mul.Tensor(clone, 2)\n"
      "        copy_: \"f32[4]\" = torch.ops.aten.copy_.default(arg0_1, add)\n"
      "        return (mul,)\n",
      kX);
  PassRegistry passes;
  PassInfo remove_clone;
  remove_clone.name = "remove_clone";
  remove_clone.kind = PassKind::kUser;
  remove_clone.run = [](Graph& graph, PassContext&) -> Result<bool> {
    Node* clone = graph.Find("clone");
    graph.ReplaceAllUsesWith(clone, clone->args()[0].as_node());
    AIRSCOPE_RETURN_IF_ERROR(graph.Erase(clone));
    return true;
  };
  PassInfo bad = MulToInplace(EffectPolicy::kPreserveValues);
  bad.kind = PassKind::kUser;
  ASSERT_TRUE(passes.Register(remove_clone).ok());
  ASSERT_TRUE(passes.Register(bad).ok());
  PassContext context;
  PipelineEnv env;
  env.passes = &passes;
  env.context = &context;
  PipelineRun run(input, {"remove_clone", "reinplace_inplaceable_ops_pass"});
  RunReport report = run.Step(2, env);
  EXPECT_EQ(report.stop, RunReport::Stop::kFailed);
  EXPECT_EQ(run.cursor(), 1u);  // remove_clone kept its stage (value-preserving), the bad pass left none
  EXPECT_TRUE(run.stages()[1].changed);
  EXPECT_NE(report.error.message().find("changed the graph's effects: graph input 'arg0_1' now ends with a "
                                        "different value"),
            std::string::npos)
      << report.error.message();
  EXPECT_EQ(run.Current().Find("mul")->target(), "torch.ops.aten.mul.Tensor");
  // The bad pass after one that leaves the graph alone: the check compares
  // with the summary PipelineRun made in the background meanwhile.
  PipelineRun from_input(ParseEffectsForward(kEpilogue, kX), {"untouched", "reinplace_inplaceable_ops_pass"});
  PassInfo untouched;
  untouched.name = "untouched";
  untouched.kind = PassKind::kUser;
  untouched.run = [](Graph&, PassContext&) -> Result<bool> { return false; };
  ASSERT_TRUE(passes.Register(untouched).ok());
  report = from_input.Step(2, env);
  EXPECT_EQ(report.stop, RunReport::Stop::kFailed);
  EXPECT_EQ(from_input.cursor(), 1u);
  EXPECT_NE(report.error.message().find("changed the graph's effects: graph input 'arg0_1' now ends with a "
                                        "different value"),
            std::string::npos)
      << report.error.message();
  context.check_effects = false;
  report = run.Step(1, env);
  EXPECT_EQ(report.stop, RunReport::Stop::kEnd) << report.error.message();
  EXPECT_EQ(run.Current().Find("mul")->target(), "torch.ops.aten.mul_.Tensor");
}

TEST(EffectCheckTest, ASliceWithComputedBoundsIsNamedAsValuedRoughly) {
  // remove_cat_ops on a dynamic cat (test_cat_optimization_basic, dynamic=True): the slices'
  // bounds are operator.add nodes, which the piece-by-piece model of a filling buffer cannot read.
  auto graph = ParseEffectsForward(
      "        mul = operator.mul(2, arg0_1)\n"
      "        empty: \"f32[2*s0]\" = torch.ops.aten.empty.memory_format([mul], dtype = torch.float32)\n"
      "        add = operator.add(0, arg0_1)\n"
      "        slice_1 = torch.ops.aten.slice.Tensor(empty, 0, 0, add)\n"
      "        exp: \"f32[s0]\" = torch.ops.aten.exp.out(arg1_1, out = slice_1)\n"
      "        return (empty,)\n",
      "arg0_1: \"Sym(s0)\", arg1_1: \"f32[s0]\"");
  auto summary = SummarizeEffects(*graph, OpRegistry::Builtin());
  ASSERT_EQ(summary->unmodelled.size(), 1u);
  EXPECT_EQ(summary->unmodelled[0],
            "slice 'slice_1' has bounds computed in the graph ('add'), and a slice of a filling buffer is valued "
            "only with int bounds");
  // Int bounds are modelled, and so is a computed bound of any other slice (a view of those values).
  auto plain = ParseEffectsForward(
      "        empty: \"f32[8]\" = torch.ops.aten.empty.memory_format([8], dtype = torch.float32)\n"
      "        slice_1 = torch.ops.aten.slice.Tensor(empty, 0, 0, 4)\n"
      "        slice_2 = torch.ops.aten.slice.Tensor(x, 0, 0, arg0_1)\n"
      "        return (slice_1, slice_2)\n",
      "arg0_1: \"Sym(s0)\", x: \"f32[s0]\"");
  EXPECT_TRUE(SummarizeEffects(*plain, OpRegistry::Builtin())->unmodelled.empty());
}

}  // namespace
}  // namespace airscope

// TorchAir's two reinplace passes and decompose_auto_functionalized
// (graph_pass.py:187-576, 790-1355; Inductor post_grad.py), one rule per
// test. Tests marked "old airscope" failed on the reinplace airscope had
// before it followed TorchAir.
#include <gtest/gtest.h>

#include <set>

#include "core/ops/inplace_variants.h"
#include "core/ops/op_schema.h"
#include "core/ops/shape_inference.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/pass_manager.h"
#include "core/pass/reinplace_util.h"
#include "tests/unit/op_test_util.h"

namespace airscope {
namespace {

using testing::B;
using testing::CountCalls;
using testing::F;
using testing::GraphBuilder;
using testing::I;
using testing::Infer;
using testing::Ints;
using testing::N;
using testing::Nodes;
using testing::Strs;

struct Outcome {
  bool changed = false;
  std::vector<std::string> remarks;
  std::string effects_changed;
};

Outcome RunPass(PassInfo pass, Graph& graph, TorchAirConfig config = {}, std::string torch_version = "2.6.0") {
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  context.config = config;
  context.env.torch_version = torch_version;
  PassManager manager;
  auto outcome = manager.Run(pass, graph, context);
  EXPECT_TRUE(outcome.ok()) << pass.name << ": " << outcome.status().message();
  EXPECT_TRUE(graph.Lint().ok()) << graph.Lint().message();
  Outcome out;
  out.changed = outcome.ok() && outcome->changed;
  if (outcome.ok()) out.remarks = outcome->remarks;
  return out;
}

// With the session tables `op define` / `op inplaceable` fill.
Outcome RunPassWith(PassInfo pass, Graph& graph, const OpSchemaTable& schemas, const InplaceableNpuOps& inplaceable,
                    bool check_effects = true) {
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  context.schemas = &schemas;
  context.inplaceable = &inplaceable;
  context.env.torch_version = "2.6.0";
  context.check_effects = check_effects;
  PassManager manager;
  auto outcome = manager.Run(pass, graph, context);
  EXPECT_TRUE(outcome.ok()) << pass.name << ": " << outcome.status().message();
  Outcome out;
  out.changed = outcome.ok() && outcome->changed;
  if (outcome.ok()) out.remarks = outcome->remarks;
  if (outcome.ok()) out.effects_changed = outcome->effects_changed;
  return out;
}

bool HasRemark(const Outcome& out, std::string_view text) {
  for (const std::string& r : out.remarks) {
    if (r.find(text) != std::string::npos) return true;
  }
  return false;
}

std::string TargetOf(const Graph& graph, std::string_view name) {
  const Node* node = graph.Find(name);
  return node ? std::string(StripTorchOps(node->target())) : "(gone)";
}

// The functionalized graph of `x.add_(1); return x * 2` (the bug report):
// add = add(arg0_1, 1); mul = mul(add, 2); copy_(arg0_1, add); return (mul,)
struct InputMutation {
  InputMutation() {
    Node* arg = b.Input("arg0_1", "f32[4]");
    Node* add = b.Call("aten.add.Tensor", {N(arg), I(1)}, {}, "add");
    Node* mul = b.Call("aten.mul.Tensor", {N(add), I(2)}, {}, "mul");
    b.Call("aten.copy_.default", {N(arg), N(add)}, {}, "copy_");
    b.Output({N(mul)});
    Infer(b.graph);
  }
  GraphBuilder b;
};

// ---- pass 1: reinplace_inplaceable_ops_pass

// Step 1b: never into a placeholder's storage (old airscope wrote add into arg0_1).
TEST(ReinplacePass1Test, NeverWritesIntoAGraphInput) {
  InputMutation g;
  auto before = g.b.graph.Clone();
  Outcome out = RunPass(ReinplaceInplaceableOpsPass(), g.b.graph);
  EXPECT_FALSE(out.changed);
  EXPECT_TRUE(SameGraph(*before, g.b.graph));
  EXPECT_EQ(TargetOf(g.b.graph, "add"), "aten.add.Tensor");
}

// A non-functional graph: add_'s result IS arg0_1's storage, so mul must not
// write into it (old airscope turned mul into mul_ on arg0_1's buffer).
TEST(ReinplacePass1Test, ResultOfAnInplaceOpOnAnInputAliasesTheInput) {
  GraphBuilder b;
  Node* arg = b.Input("arg0_1", "f32[4]");
  Node* add_ = b.Call("aten.add_.Tensor", {N(arg), I(1)}, {}, "add_");
  Node* mul = b.Call("aten.mul.Tensor", {N(add_), I(2)}, {}, "mul");
  b.Output({N(mul)});
  Infer(b.graph);
  EXPECT_FALSE(RunPass(ReinplaceInplaceableOpsPass(), b.graph).changed);
  EXPECT_EQ(TargetOf(b.graph, "mul"), "aten.mul.Tensor");
}

// A view of an input is the input's storage too.
TEST(ReinplacePass1Test, NeverWritesIntoAViewOfAGraphInput) {
  GraphBuilder b;
  Node* arg = b.Input("x", "f32[4]");
  Node* view = b.Call("aten.view.default", {N(arg), Ints({2, 2})}, {}, "view");
  Node* relu = b.Call("aten.relu.default", {N(view)}, {}, "relu");
  b.Output({N(relu)});
  Infer(b.graph);
  EXPECT_FALSE(RunPass(ReinplaceInplaceableOpsPass(), b.graph).changed);
}

TEST(ReinplacePass1Test, DeadIntermediateGoesInPlace) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* y = b.Call("aten.mul.Tensor", {N(x), I(2)}, {}, "y");
  Node* r = b.Call("aten.relu.default", {N(y)}, {}, "r");
  Node* z = b.Call("aten.add.Tensor", {N(r), I(1)}, {}, "z");
  b.Output({N(z)});
  Infer(b.graph);
  Outcome out = RunPass(ReinplaceInplaceableOpsPass(), b.graph);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(TargetOf(b.graph, "r"), "aten.relu_.default");
  EXPECT_EQ(TargetOf(b.graph, "z"), "aten.add_.Tensor");
  EXPECT_EQ(TargetOf(b.graph, "y"), "aten.mul.Tensor");  // x is an input
  // Step 4: later users read self (y), not r.
  EXPECT_EQ(b.graph.Find("z")->args()[0].as_node(), b.graph.Find("y"));
}

// Step 2: the output node and a copy_ count as later uses.
TEST(ReinplacePass1Test, OutputAndCopyCountAsLaterUses) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* y = b.Call("aten.mul.Tensor", {N(x), I(2)}, {}, "y");
  Node* r = b.Call("aten.relu.default", {N(y)}, {}, "r");
  b.Output({N(r), N(y)});
  Infer(b.graph);
  EXPECT_FALSE(RunPass(ReinplaceInplaceableOpsPass(), b.graph).changed);

  GraphBuilder c;
  Node* x2 = c.Input("x", "f32[4]");
  Node* y2 = c.Call("aten.mul.Tensor", {N(x2), I(2)}, {}, "y");
  Node* r2 = c.Call("aten.relu.default", {N(y2)}, {}, "r");
  c.Call("aten.copy_.default", {N(x2), N(y2)}, {}, "copy_");
  c.Output({N(r2)});
  Infer(c.graph);
  EXPECT_FALSE(RunPass(ReinplaceInplaceableOpsPass(), c.graph).changed);
}

// Step 2: a later use of a view of self blocks.
TEST(ReinplacePass1Test, LaterUseOfAViewBlocks) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* y = b.Call("aten.mul.Tensor", {N(x), I(2)}, {}, "y");
  Node* v = b.Call("aten.view.default", {N(y), Ints({2, 2})}, {}, "v");
  Node* r = b.Call("aten.relu.default", {N(y)}, {}, "r");
  Node* s = b.Call("aten.sum.default", {N(v)}, {}, "s");
  b.Output({N(r), N(s)});
  Infer(b.graph);
  EXPECT_FALSE(RunPass(ReinplaceInplaceableOpsPass(), b.graph).changed);
}

// Step 1a: no broadcasting into self, no dtype change.
TEST(ReinplacePass1Test, ResultMustFitSelf) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* w = b.Input("w", "f32[3, 4]");
  Node* y = b.Call("aten.mul.Tensor", {N(x), I(2)}, {}, "y");
  Node* a = b.Call("aten.add.Tensor", {N(y), N(w)}, {}, "a");  // f32[3, 4] from f32[4]
  b.Output({N(a)});
  Infer(b.graph);
  EXPECT_FALSE(RunPass(ReinplaceInplaceableOpsPass(), b.graph).changed);
}

// Step 1a's overlap test is torch's _debug_has_internal_overlap: a
// contiguous tensor is non-overlapping and dense, an empty one too (a size
// of 0 would make the stride airscope derives 0, as an expand's is).
TEST(ReinplacePass1Test, AnEmptyContiguousSelfDoesNotOverlap) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4, 0]");
  Node* y = b.Call("aten.mul.Tensor", {N(x), I(2)}, {}, "y");
  Node* r = b.Call("aten.relu.default", {N(y)}, {}, "r");
  b.Output({N(r)});
  Infer(b.graph);
  EXPECT_TRUE(RunPass(ReinplaceInplaceableOpsPass(), b.graph).changed);
  EXPECT_EQ(TargetOf(b.graph, "r"), "aten.relu_.default");
}

// Step 1c: mul(a, a) is not made mul_(a, a).
TEST(ReinplacePass1Test, RepeatedSelfBlocks) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* y = b.Call("aten.relu.default", {N(x)}, {}, "y");
  Node* m = b.Call("aten.mul.Tensor", {N(y), N(y)}, {}, "m");
  b.Output({N(m)});
  Infer(b.graph);
  EXPECT_FALSE(RunPass(ReinplaceInplaceableOpsPass(), b.graph).changed);
}

// ---- Step 3b: which in-place form (PT-ri _maybe_get_inplace_op)

std::string InplaceOf(const std::string& target, std::vector<Argument> args) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4, 4]");
  std::vector<Argument> all = {N(x)};
  all.insert(all.end(), args.begin(), args.end());
  Node* node = b.Call(target, std::move(all), {}, "op");
  return MaybeInplaceOp(*node, OpRegistry::Builtin()).target;
}

// The `foo_` overload with foo's argument types, not the same overload name:
// pow.Tensor_Scalar(Tensor self, Scalar exponent) is pow_.Scalar; gelu,
// masked_fill and tril (the ops gpt_block2 reinplaces) have theirs.
TEST(InplaceLookupTest, TheOverloadWithTheSameArgumentTypes) {
  EXPECT_EQ(InplaceOf("aten.gelu.default", {}), "aten.gelu_.default");
  EXPECT_EQ(InplaceOf("aten.pow.Tensor_Scalar", {I(2)}), "aten.pow_.Scalar");
  EXPECT_EQ(InplaceOf("aten.tril.default", {}), "aten.tril_.default");
  EXPECT_EQ(InplaceOf("aten.div.Scalar", {I(2)}), "aten.div_.Scalar");
  EXPECT_EQ(InplaceOf("aten.eq.Scalar", {I(0)}), "aten.eq_.Scalar");
  EXPECT_EQ(InplaceOf("aten.addmm.default", {}), "aten.addmm_.default");
  EXPECT_EQ(InplaceVariant("aten.masked_fill.Scalar"), "aten.masked_fill_.Scalar");
  EXPECT_EQ(InplaceVariant("torch.ops.aten.masked_fill.Tensor"), "aten.masked_fill_.Tensor");
  EXPECT_EQ(InplaceVariant("npu.scatter_update.default"), "npu.scatter_update_.default");
}

// No `foo_` packet in aten (rsub, maximum, where, mm, clone), or none with
// matching types (pow.Scalar(Scalar self, Tensor exponent)).
TEST(InplaceLookupTest, NoneWhereAtenHasNone) {
  EXPECT_EQ(InplaceOf("aten.rsub.Scalar", {I(1)}), "");
  EXPECT_EQ(InplaceOf("aten.maximum.default", {}), "");
  EXPECT_EQ(InplaceOf("aten.mm.default", {}), "");
  EXPECT_EQ(InplaceOf("aten.clone.default", {}), "");
  EXPECT_EQ(InplaceOf("aten.native_dropout.default", {F(0.1), B(true)}), "");
  EXPECT_EQ(InplaceVariant("aten.where.self"), "");
  EXPECT_EQ(InplaceVariant("aten.pow.Scalar"), "");
  EXPECT_TRUE(InplaceVariantKnown("aten.where.self"));
  EXPECT_FALSE(InplaceVariantKnown("custom.foo.default"));
}

// t_, transpose_ and unsqueeze_ exist, but a view op is never reinplaced.
TEST(InplaceLookupTest, NoneForAViewOp) {
  EXPECT_EQ(InplaceOf("aten.t.default", {}), "");
  EXPECT_EQ(InplaceOf("aten.transpose.int", {I(0), I(1)}), "");
  EXPECT_EQ(InplaceVariant("aten.unsqueeze.default"), "");
  EXPECT_EQ(InplaceVariant("aten.as_strided.default"), "");
}

// Every in-place form the table names for an op the registry knows is
// registered, in-place; and every aten in-place op the registry has is one
// the table names (none invented).
TEST(InplaceLookupTest, RegistryAndTableAgree) {
  const OpRegistry& registry = OpRegistry::Builtin();
  std::set<std::string_view> named;
  for (const auto& [functional, inplace] : InplaceVariants()) {
    named.insert(inplace);
    if (registry.Find(functional) == nullptr) continue;
    const OpInfo* info = registry.Find(inplace);
    ASSERT_NE(info, nullptr) << inplace;
    EXPECT_TRUE(info->inplace) << inplace;
  }
  for (const std::string& name : registry.Names()) {
    const OpInfo* info = registry.Find(name);
    if (info->inplace && name.starts_with("aten.")) {
      EXPECT_TRUE(named.count(name)) << name;
    }
  }
}

// The in-place op writes self: self's shape and dtype, and what does not fit
// fails as torch's TensorIterator does.
TEST(InplaceLookupTest, InPlaceInferenceIsSelf) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4, 4]");
  Node* i = b.Input("i", "i64[4]");
  Node* row = b.Input("row", "f32[1, 4]");
  Node* v = b.Input("v", "f32[4]");
  EXPECT_EQ(testing::Shape(b.Call("aten.gelu_.default", {N(x)})), "f32[4, 4]");
  EXPECT_EQ(testing::Shape(b.Call("aten.eq_.Scalar", {N(x), I(0)})), "f32[4, 4]");  // no bool: self's dtype
  EXPECT_EQ(testing::Shape(b.Call("aten.div_.Scalar", {N(i), I(2)})),
            "error: div_: result type torch.float32 can't be cast to the desired output type torch.int64");
  EXPECT_EQ(testing::Shape(b.Call("aten.sub_.Scalar", {N(v), I(1)})), "f32[4]");
  EXPECT_EQ(testing::Shape(b.Call("aten.masked_fill_.Scalar", {N(x), N(row), I(0)})), "f32[4, 4]");
  EXPECT_EQ(testing::Shape(b.Call("aten.sub_.Tensor", {N(v), N(row)})),
            "error: sub_: in-place output [4] cannot hold broadcast shape [1, 4]");
  EXPECT_EQ(testing::Shape(b.Call("aten.eq_.Tensor", {N(v), N(row)})),
            "error: eq_: output with shape [4] doesn't match the broadcast shape [1, 4]");
}

// gelu(addmm(b, x, w)): gelu_ on addmm's result; addmm stays (its self is
// the input b, Step 1b; and b's numel is not the result's, Step 1a).
TEST(ReinplacePass1Test, GeluOfAddmmGoesInPlace) {
  GraphBuilder b;
  Node* bias = b.Input("b", "f32[8]");
  Node* x = b.Input("x", "f32[2, 4]");
  Node* w = b.Input("w", "f32[4, 8]");
  Node* mm = b.Call("aten.addmm.default", {N(bias), N(x), N(w)}, {}, "addmm");
  Node* gelu = b.Call("aten.gelu.default", {N(mm)}, {}, "gelu");
  Node* p = b.Call("aten.pow.Tensor_Scalar", {N(gelu), I(2)}, {}, "pow");
  b.Output({N(p)});
  Infer(b.graph);
  Outcome out = RunPass(ReinplaceInplaceableOpsPass(), b.graph);
  EXPECT_TRUE(out.changed);
  EXPECT_TRUE(HasRemark(out, "reinplaced 2 op(s)"));
  EXPECT_EQ(TargetOf(b.graph, "addmm"), "aten.addmm.default");
  EXPECT_EQ(TargetOf(b.graph, "gelu"), "aten.gelu_.default");
  EXPECT_EQ(TargetOf(b.graph, "pow"), "aten.pow_.Scalar");
  EXPECT_EQ(b.graph.Find("pow")->args()[0].as_node(), b.graph.Find("addmm"));
  EXPECT_EQ(b.graph.Find("pow")->tensor()->ShapeString(), "f32[2, 8]");
}

// Step 1a compares dtypes: eq on a float self gives bool and stays; on a
// bool self it gives bool and goes in place (eq_ exists for every dtype).
TEST(ReinplacePass1Test, ADtypeChangingResultStaysOutOfPlace) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* m = b.Input("m", "b8[4]");
  Node* y = b.Call("aten.mul.Tensor", {N(x), I(2)}, {}, "y");
  Node* e = b.Call("aten.eq.Scalar", {N(y), I(0)}, {}, "e");      // f32 -> b8
  Node* n = b.Call("aten.bitwise_not.default", {N(m)}, {}, "n");  // b8, new storage
  Node* f = b.Call("aten.eq.Tensor", {N(n), N(e)}, {}, "f");      // b8 -> b8
  b.Output({N(f)});
  Infer(b.graph);
  Outcome out = RunPass(ReinplaceInplaceableOpsPass(), b.graph);
  EXPECT_EQ(TargetOf(b.graph, "e"), "aten.eq.Scalar");
  EXPECT_EQ(TargetOf(b.graph, "f"), "aten.eq_.Tensor");
  EXPECT_TRUE(HasRemark(out, "reinplaced 1 op(s)"));
}

// An op the registry does not know (meta from the file) whose in-place form
// aten has: TorchAir reinplaces it; airscope says it cannot.
TEST(ReinplacePass1Test, AnUnknownOpWithAnInPlaceFormIsNamed) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* y = b.Call("aten.mul.Tensor", {N(x), I(2)}, {}, "y");
  Node* fl = b.Call("aten.floor.default", {N(y)}, {}, "fl");
  b.Output({N(fl)});
  Infer(b.graph);
  fl->set_meta(testing::Annotated("f32[4]"));
  Outcome out = RunPass(ReinplaceInplaceableOpsPass(), b.graph);
  EXPECT_FALSE(out.changed);
  EXPECT_EQ(TargetOf(b.graph, "fl"), "aten.floor.default");
  EXPECT_TRUE(HasRemark(out,
                        "that TorchAir would reinplace: airscope's op registry does not know their in-place "
                        "form: fl (aten.floor_.default)"));
}

// Step 3a: slice_scatter(base, src, ...) -> slice(base, ...) + copy_(slice, src).
TEST(ReinplacePass1Test, ScatterBecomesViewAndCopy) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4, 4]");
  Node* src = b.Input("src", "f32[2, 4]");
  Node* base = b.Call("aten.mul.Tensor", {N(x), I(2)}, {}, "base");
  Node* scatter = b.Call("aten.slice_scatter.default", {N(base), N(src), I(0), I(0), I(2)}, {}, "slice_scatter");
  b.Output({N(scatter)});
  Infer(b.graph);
  ASSERT_TRUE(b.graph.Find("slice_scatter")->tensor());
  EXPECT_TRUE(RunPass(ReinplaceInplaceableOpsPass(), b.graph).changed);
  EXPECT_EQ(CountCalls(b.graph, "aten.slice_scatter.default"), 0u);
  ASSERT_EQ(CountCalls(b.graph, "aten.slice.Tensor"), 1u);
  ASSERT_EQ(CountCalls(b.graph, "aten.copy_.default"), 1u);
  EXPECT_EQ(b.graph.output()->args()[0].items()[0].as_node(), b.graph.Find("base"));
}

// Step 3a's view and copy_ are created without a stream label (TorchAir's
// create_node), so the base's next candidate, whose users now include the
// unlabelled view, fails verify_nodes_on_same_stream and stays out-of-place.
TEST(ReinplacePass1Test, NodesAddedByAScatterRewriteHaveNoStreamLabel) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4, 4]");
  Node* src = b.Input("src", "f32[2, 4]");
  Node* base = b.Call("aten.mul.Tensor", {N(x), I(2)}, {}, "base");
  Node* scatter = b.Call("aten.slice_scatter.default", {N(base), N(src), I(0), I(0), I(2)}, {}, "slice_scatter");
  Node* add = b.Call("aten.add.Tensor", {N(scatter), I(1)}, {}, "add");
  b.Output({N(add)});
  Infer(b.graph);
  Outcome out = RunPass(ReinplaceInplaceableOpsPass(), b.graph);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(CountCalls(b.graph, "aten.slice_scatter.default"), 0u);
  EXPECT_EQ(TargetOf(b.graph, "add"), "aten.add.Tensor");
  EXPECT_EQ(b.graph.Find("add")->args()[0].as_node(), b.graph.Find("base"));
  EXPECT_NE(std::find(out.remarks.begin(), out.remarks.end(),
                      "kept 1 op(s) out-of-place: the mutated tensor's users are on different streams "
                      "(ReinplaceStreamChecker)"),
            out.remarks.end());
}

// Step 4 then Step 2: once `a = add(y, 1)` is add_, later readers of a read
// y, so `c = add(a, 3)` is a later use of y's storage and blocks reinplacing
// `b = mul(a, 2)` (the later-use index must see edges Step 4 moved).
TEST(ReinplacePass1Test, ALaterUseThroughAMergedStorageBlocks) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* y = b.Call("aten.relu.default", {N(x)}, {}, "y");
  Node* a = b.Call("aten.add.Tensor", {N(y), I(1)}, {}, "a");
  Node* m = b.Call("aten.mul.Tensor", {N(a), I(2)}, {}, "b");
  Node* c = b.Call("aten.add.Tensor", {N(a), I(3)}, {}, "c");
  b.Output({N(m), N(c)});
  Infer(b.graph);
  EXPECT_TRUE(RunPass(ReinplaceInplaceableOpsPass(), b.graph).changed);
  EXPECT_EQ(TargetOf(b.graph, "a"), "aten.add_.Tensor");
  EXPECT_EQ(TargetOf(b.graph, "b"), "aten.mul.Tensor");
  EXPECT_EQ(TargetOf(b.graph, "c"), "aten.add_.Tensor");
}

// ReinplaceStreamChecker: the mutated tensor's users on two streams.
TEST(ReinplacePass1Test, UsersOnTwoStreamsBlock) {
  auto build = [](GraphBuilder& b, bool scoped) {
    Node* x = b.Input("x", "f32[3, 3]");
    Node* a = b.Call("aten.abs.default", {N(x)}, {}, "abs_1");
    if (scoped) b.Call("air.scope_enter.default", {Strs({"_user_stream_label"}), Strs({"stream_1"})}, {}, "enter");
    Node* n = b.Call("aten.sum.default", {N(a)}, {}, "s");
    if (scoped) b.Call("air.scope_exit.default", {}, {}, "exit");
    Node* add = b.Call("aten.add.Tensor", {N(a), I(1)}, {}, "add");
    b.Output({N(add), N(n)});
    Infer(b.graph);
  };
  GraphBuilder b;
  build(b, true);
  Outcome out = RunPass(ReinplaceInplaceableOpsPass(), b.graph);
  EXPECT_FALSE(out.changed);
  EXPECT_EQ(TargetOf(b.graph, "add"), "aten.add.Tensor");
  GraphBuilder c;
  build(c, false);
  EXPECT_TRUE(RunPass(ReinplaceInplaceableOpsPass(), c.graph).changed);
  EXPECT_EQ(TargetOf(c.graph, "add"), "aten.add_.Tensor");
}

// TorchAir compares the users with each other, not with the producer: a tensor
// made on stream_1 whose only user is on the default stream is reinplaced
// (old airscope refused it).
TEST(ReinplacePass1Test, ProducerStreamIsNotChecked) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[3, 3]");
  b.Call("air.scope_enter.default", {Strs({"_user_stream_label"}), Strs({"stream_1"})}, {}, "enter");
  Node* a = b.Call("aten.abs.default", {N(x)}, {}, "abs_1");
  b.Call("air.scope_exit.default", {}, {}, "exit");
  Node* add = b.Call("aten.add.Tensor", {N(a), I(1)}, {}, "add");
  b.Output({N(add)});
  Infer(b.graph);
  EXPECT_TRUE(RunPass(ReinplaceInplaceableOpsPass(), b.graph).changed);
  EXPECT_EQ(TargetOf(b.graph, "add"), "aten.add_.Tensor");
}

TEST(ReinplacePass1Test, SwitchTurnsItOff) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* y = b.Call("aten.mul.Tensor", {N(x), I(2)}, {}, "y");
  Node* r = b.Call("aten.relu.default", {N(y)}, {}, "r");
  b.Output({N(r)});
  Infer(b.graph);
  TorchAirConfig config;
  config.disable_reinplace_inplaceable_ops_pass = true;
  Outcome out = RunPass(ReinplaceInplaceableOpsPass(), b.graph, config);
  EXPECT_FALSE(out.changed);
  ASSERT_EQ(out.remarks.size(), 1u);
  EXPECT_NE(out.remarks[0].find("disable_reinplace_inplaceable_ops_pass"), std::string::npos);
}

// ---- pass 2: reinplace_input_mutated_ops

// The bug's graph: add writes into arg0_1 and its copy_ goes.
TEST(ReinplacePass2Test, CopyEpilogueLetsTheProducerWriteTheInput) {
  InputMutation g;
  EXPECT_TRUE(RunPass(ReinplaceInputMutatedOpsPass(), g.b.graph).changed);
  EXPECT_EQ(TargetOf(g.b.graph, "add"), "aten.add_.Tensor");
  EXPECT_EQ(CountCalls(g.b.graph, "aten.copy_.default"), 0u);
  EXPECT_EQ(TargetOf(g.b.graph, "mul"), "aten.mul.Tensor");
}

// A read of arg0_1 between add and the copy_ sees the old value: no reinplace.
TEST(ReinplacePass2Test, ReadOfTheInputBeforeTheCopyBlocks) {
  GraphBuilder b;
  Node* arg = b.Input("arg0_1", "f32[4]");
  Node* add = b.Call("aten.add.Tensor", {N(arg), I(1)}, {}, "add");
  Node* mul = b.Call("aten.mul.Tensor", {N(arg), I(2)}, {}, "mul");
  b.Call("aten.copy_.default", {N(arg), N(add)}, {}, "copy_");
  b.Output({N(mul)});
  Infer(b.graph);
  EXPECT_FALSE(RunPass(ReinplaceInputMutatedOpsPass(), b.graph).changed);
  // A read of a view counts too; a sym_size does not.
  GraphBuilder c;
  Node* x = c.Input("arg0_1", "f32[4]");
  Node* a2 = c.Call("aten.add.Tensor", {N(x), I(1)}, {}, "add");
  Node* v = c.Call("aten.view.default", {N(x), Ints({2, 2})}, {}, "v");
  Node* s = c.Call("aten.sum.default", {N(v)}, {}, "s");
  c.Call("aten.copy_.default", {N(x), N(a2)}, {}, "copy_");
  c.Output({N(s)});
  Infer(c.graph);
  EXPECT_FALSE(RunPass(ReinplaceInputMutatedOpsPass(), c.graph).changed);
}

// Without a copy_ epilogue the caller never sees a mutation: no reinplace.
TEST(ReinplacePass2Test, NoEpilogueNoReinplace) {
  GraphBuilder b;
  Node* arg = b.Input("arg0_1", "f32[4]");
  Node* add = b.Call("aten.add.Tensor", {N(arg), I(1)}, {}, "add");
  b.Output({N(add)});
  Infer(b.graph);
  EXPECT_FALSE(RunPass(ReinplaceInputMutatedOpsPass(), b.graph).changed);
}

// copy_'s dst is not args[0]: the op is reinplaced into args[0] only if
// args[0] itself has an epilogue; here it has none.
TEST(ReinplacePass2Test, CopyIntoAnotherInputKeepsTheOp) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* y = b.Input("y", "f32[4]");
  Node* add = b.Call("aten.add.Tensor", {N(x), I(1)}, {}, "add");
  b.Call("aten.copy_.default", {N(y), N(add)}, {}, "copy_");
  b.Output({});
  Infer(b.graph);
  EXPECT_FALSE(RunPass(ReinplaceInputMutatedOpsPass(), b.graph).changed);
  EXPECT_EQ(CountCalls(b.graph, "aten.copy_.default"), 1u);
}

// tests/st/torchair_aclgraph_reinplace_st.py test_self_copy_no_crash.
TEST(ReinplacePass2Test, SelfCopyStays) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[3]");
  Node* copy = b.Call("aten.copy_.default", {N(x), N(x)}, {}, "copy_");
  b.Output({N(copy)});
  Infer(b.graph);
  EXPECT_FALSE(RunPass(ReinplaceInputMutatedOpsPass(), b.graph).changed);
  EXPECT_EQ(CountCalls(b.graph, "aten.copy_.default"), 1u);
}

TEST(ReinplacePass2Test, SwitchTurnsItAndTheDecompositionOff) {
  InputMutation g;
  TorchAirConfig config;
  config.disable_reinplace_input_mutated_ops_pass = true;
  EXPECT_FALSE(RunPass(ReinplaceInputMutatedOpsPass(), g.b.graph, config).changed);
  EXPECT_FALSE(RunPass(DecomposeAutoFunctionalizedPass(), g.b.graph, config).changed);
}

// ---- auto_functionalized_v2 through pass 2 and the decomposition

// make_fx of `auto_functionalized_v2(custom.boo, _x_base_index=0, ..., _all_bases=[base])`.
struct AutoFunctionalized {
  explicit AutoFunctionalized(bool input_base, bool read_after) {
    Node* arg = b.Input("arg0_1", "f32[3]");
    Node* base = input_base ? arg : b.Call("aten.mul.Tensor", {N(arg), I(2)}, {}, "base");
    Node* other = b.Call("aten.select.int", {N(base), I(0), I(2)}, {}, "select_1");
    Node* af = b.Call("higher_order.auto_functionalized_v2", {Argument::Raw("torch.ops.custom.boo.default")},
                      {{"_x_base_index", I(0)},
                       {"_x_size", Argument::Tuple({I(3)})},
                       {"_x_stride", Argument::Tuple({I(1)})},
                       {"_x_storage_offset", I(0)},
                       {"_all_bases", Nodes({base})}},
                      "auto_functionalized_v2");
    b.Call("operator.getitem", {N(af), I(0)}, {}, "getitem");
    Node* item = b.Call("operator.getitem", {N(af), I(1)}, {}, "getitem_1");
    Node* use = read_after ? b.Call("aten.mul.Tensor", {N(other), I(10)}, {}, "mul") : other;
    if (input_base) b.Call("aten.copy_.default", {N(arg), N(item)}, {}, "copy_");
    b.Output({N(use), N(item)});
    Infer(b.graph);
  }
  std::vector<int64_t> OnlyClone() const {
    const Node* af = b.graph.Find("auto_functionalized_v2");
    return af && af->meta() && af->meta()->only_clone_these_tensors ? *af->meta()->only_clone_these_tensors
                                                                    : std::vector<int64_t>{-1};
  }
  GraphBuilder b;
};

TEST(AutoFunctionalizedTest, InputBaseWithEpilogueIsReinplacedThenCalledOnTheBase) {
  AutoFunctionalized g(/*input_base=*/true, /*read_after=*/false);
  EXPECT_TRUE(RunPass(ReinplaceInputMutatedOpsPass(), g.b.graph).changed);
  EXPECT_EQ(g.OnlyClone(), std::vector<int64_t>{});
  EXPECT_TRUE(RunPass(DecomposeAutoFunctionalizedPass(), g.b.graph).changed);
  EXPECT_EQ(CountCalls(g.b.graph, "higher_order.auto_functionalized_v2"), 0u);
  EXPECT_EQ(CountCalls(g.b.graph, "aten.clone.default"), 0u);
  const Node* copy = g.b.graph.Find("copy_");
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->args()[1].as_node(), g.b.graph.Find("arg0_1"));  // copy_(arg0_1, arg0_1)
  EXPECT_EQ(CountCalls(g.b.graph, "custom.boo.default"), 1u);
}

TEST(AutoFunctionalizedTest, ReadOfAnAliasBeforeTheCopyForcesAClone) {
  AutoFunctionalized g(/*input_base=*/true, /*read_after=*/true);
  RunPass(ReinplaceInputMutatedOpsPass(), g.b.graph);
  EXPECT_EQ(g.OnlyClone(), std::vector<int64_t>{0});
  EXPECT_TRUE(RunPass(DecomposeAutoFunctionalizedPass(), g.b.graph).changed);
  EXPECT_EQ(CountCalls(g.b.graph, "aten.clone.default"), 1u);
  EXPECT_EQ(CountCalls(g.b.graph, "aten.as_strided.default"), 3u);
}

TEST(AutoFunctionalizedTest, DecompositionNeedsTorch26) {
  AutoFunctionalized g(true, false);
  Outcome out = RunPass(DecomposeAutoFunctionalizedPass(), g.b.graph, {}, "2.5.1");
  EXPECT_FALSE(out.changed);
  ASSERT_EQ(out.remarks.size(), 1u);
  EXPECT_NE(out.remarks[0].find("2.5.1"), std::string::npos);
}

// The INFO line of log_inplace_results and torch's ReinplaceCounters
// (test_counters_functionalize_v2: 1 missed tensor, 12 bytes).
TEST(AutoFunctionalizedTest, MissedBaseIsCountedAsTorchCountsIt) {
  AutoFunctionalized g(/*input_base=*/false, /*read_after=*/false);  // the base is read by the output
  Outcome out = RunPass(ReinplaceInputMutatedOpsPass(), g.b.graph);
  EXPECT_EQ(g.OnlyClone(), std::vector<int64_t>{0});
  EXPECT_TRUE(HasRemark(out,
                        "For node auto_functionalized_v2, attempted to reinplace range(0, 1). We were unable to "
                        "reinplace [0]; [0] (if non-empty)"));
  EXPECT_TRUE(HasRemark(out, "Total size of missed opportunities with static shapes is : 12 bytes."));
  EXPECT_TRUE(HasRemark(out, "get_total_missed() = 1, get_total_missed_bytes() = 12"));
}

// make_fx of `auto_functionalized(custom.sin, x=x, result=out)` with out =
// empty_like(x) read again afterwards (test_counters_functionalize_old).
struct AutoFunctionalizedV1 {
  AutoFunctionalizedV1() {
    Node* x = b.Input("x_1", "f32[3]");
    Node* out = b.Call("aten.empty_like.default", {N(x)}, {{"pin_memory", B(false)}}, "empty_like");
    Node* af = b.Call("higher_order.auto_functionalized", {Argument::Raw("torch.ops.custom.sin.default")},
                      {{"x", N(x)}, {"result", N(out)}}, "auto_functionalized");
    b.Call("operator.getitem", {N(af), I(0)}, {}, "getitem");
    Node* item = b.Call("operator.getitem", {N(af), I(1)}, {}, "getitem_1");
    Node* mul = b.Call("aten.mul.Tensor", {N(out), N(item)}, {}, "mul");
    b.Output({N(item), N(mul)});
    Infer(b.graph);
    EXPECT_TRUE(schemas.Define("custom::sin(Tensor x, Tensor(a!) result) -> None").ok());
  }
  GraphBuilder b;
  OpSchemaTable schemas = OpSchemaTable::Builtin();
};

TEST(AutoFunctionalizedTest, V1NeedsTheOpsSchema) {
  AutoFunctionalizedV1 g;
  Outcome out = RunPass(ReinplaceInputMutatedOpsPass(), g.b.graph);
  EXPECT_TRUE(HasRemark(out, "needs the mutable op's schema"));
  EXPECT_FALSE(RunPass(DecomposeAutoFunctionalizedPass(), g.b.graph).changed);
}

TEST(AutoFunctionalizedTest, V1MutableArgumentsComeFromTheSchema) {
  AutoFunctionalizedV1 g;
  Outcome out = RunPassWith(ReinplaceInputMutatedOpsPass(), g.b.graph, g.schemas, InplaceableNpuOps::Builtin());
  EXPECT_TRUE(HasRemark(out,
                        "For node custom::sin, attempted to reinplace ['result']. We were unable to reinplace "
                        "['result']; ['result']"));
  EXPECT_TRUE(HasRemark(out, "AUTO_FUNC_V1: 1 tensor(s), 12 bytes"));
  const Node* af = g.b.graph.Find("auto_functionalized");
  ASSERT_TRUE(af->meta() && af->meta()->only_clone_these_tensors);
  EXPECT_EQ(*af->meta()->only_clone_these_tensors, std::vector<int64_t>{0});  // index into get_mutable_args
  // auto_functionalized_dense: clone `result`, call sin(x, clone), getitem 1 reads the clone.
  EXPECT_TRUE(
      RunPassWith(DecomposeAutoFunctionalizedPass(), g.b.graph, g.schemas, InplaceableNpuOps::Builtin()).changed);
  EXPECT_EQ(CountCalls(g.b.graph, "higher_order.auto_functionalized"), 0u);
  EXPECT_EQ(CountCalls(g.b.graph, "aten.clone.default"), 1u);
  const Node* call = g.b.graph.Find("sin_default");
  ASSERT_NE(call, nullptr);
  ASSERT_EQ(call->args().size(), 2u);
  EXPECT_EQ(call->args()[0].as_node(), g.b.graph.Find("x_1"));
  EXPECT_EQ(call->args()[1].as_node(), g.b.graph.Find("as_strided_default_1"));
}

// A reinplaced v1 argument is not cloned: the op writes the intermediate.
TEST(AutoFunctionalizedTest, V1ReinplacedArgumentIsNotCloned) {
  GraphBuilder b;
  Node* x = b.Input("x_1", "f32[3]");
  Node* out = b.Call("aten.empty_like.default", {N(x)}, {{"pin_memory", B(false)}}, "empty_like");
  Node* af = b.Call("higher_order.auto_functionalized", {Argument::Raw("torch.ops.custom.sin.default")},
                    {{"x", N(x)}, {"result", N(out)}}, "auto_functionalized");
  Node* item = b.Call("operator.getitem", {N(af), I(1)}, {}, "getitem_1");
  b.Output({N(item)});
  Infer(b.graph);
  OpSchemaTable schemas = OpSchemaTable::Builtin();
  ASSERT_TRUE(schemas.Define("custom::sin(Tensor x, Tensor(a!) result) -> None").ok());
  Outcome outcome = RunPassWith(ReinplaceInputMutatedOpsPass(), b.graph, schemas, InplaceableNpuOps::Builtin());
  EXPECT_TRUE(HasRemark(outcome, "get_total_missed() = 0, get_total_missed_bytes() = 0"));
  RunPassWith(DecomposeAutoFunctionalizedPass(), b.graph, schemas, InplaceableNpuOps::Builtin());
  EXPECT_EQ(CountCalls(b.graph, "aten.clone.default"), 0u);
  EXPECT_EQ(b.graph.Find("sin_default")->args()[1].as_node(), b.graph.Find("empty_like"));
}

// A v1 Tensor[] argument that passes can_inplace reaches TorchAir's stream
// check as a list, which raises TypeError (utils.py:324): the pass fails too.
TEST(AutoFunctionalizedTest, V1TensorListArgumentFailsAsTorchAirDoes) {
  GraphBuilder b;
  Node* x = b.Input("x_1", "f32[3]");
  Node* a = b.Call("aten.empty_like.default", {N(x)}, {{"pin_memory", B(false)}}, "empty_like");
  Node* c = b.Call("aten.empty_like.default", {N(x)}, {{"pin_memory", B(false)}}, "empty_like_1");
  Node* af = b.Call("higher_order.auto_functionalized", {Argument::Raw("torch.ops.custom.mutate_op.default")},
                    {{"y", Nodes({a, c})}}, "auto_functionalized");
  b.Call("operator.getitem", {N(af), I(1)}, {}, "getitem_1");
  b.Output({N(x)});
  Infer(b.graph);
  OpSchemaTable schemas = OpSchemaTable::Builtin();
  ASSERT_TRUE(schemas.Define("custom::mutate_op(Tensor(a!)[] y) -> ()").ok());
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  context.schemas = &schemas;
  PassManager manager;
  auto outcome = manager.Run(ReinplaceInputMutatedOpsPass(), b.graph, context);
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.status().message().find("TypeError: '>=' not supported between instances of 'Node' and 'int'"),
            std::string::npos);
  // Two views of one storage fail can_inplace first: cloned, counted, no error.
  GraphBuilder v;
  Node* base = v.Input("b_1", "f32[2]");
  Node* s0 = v.Call("aten.select.int", {N(base), I(0), I(0)}, {}, "select");
  Node* s1 = v.Call("aten.select.int", {N(base), I(0), I(1)}, {}, "select_1");
  v.Call("higher_order.auto_functionalized", {Argument::Raw("torch.ops.custom.mutate_op.default")},
         {{"y", Nodes({s0, s1})}}, "auto_functionalized");
  v.Output({});
  Infer(v.graph);
  Outcome out = RunPassWith(ReinplaceInputMutatedOpsPass(), v.graph, schemas, InplaceableNpuOps::Builtin());
  EXPECT_TRUE(HasRemark(out, "We were unable to reinplace ['y']; ['y']"));
  EXPECT_TRUE(HasRemark(out, "get_total_missed() = 1, get_total_missed_bytes() = 8"));
}

// ---- a custom multi-inplace op registered as TorchAir's tests register it

struct SinCos {
  explicit SinCos(bool cross_stream) {
    Node* x = b.Input("arg0_1", "f32[3]");
    Node* a = b.Call("aten.empty_like.default", {N(x)}, {{"pin_memory", B(false)}}, "empty_like");
    Node* c = b.Call("aten.empty_like.default", {N(x)}, {{"pin_memory", B(false)}}, "empty_like_1");
    Node* f = b.Call("torch.ops.custom.sin_cos_functional.default", {N(x), N(a), N(c)}, {}, "sin_cos_functional");
    Node* ret = b.Call("operator.getitem", {N(f), I(0)}, {}, "getitem");
    Node* a_new = b.Call("operator.getitem", {N(f), I(1)}, {}, "getitem_1");
    if (cross_stream) {
      b.Call("air.scope_enter.default", {Strs({"_user_stream_label"}), Strs({"1"})}, {}, "scope_enter");
    }
    Node* use = b.Call("aten.add.Tensor", {N(a_new), F(1.0)}, {}, "add");
    if (cross_stream) b.Call("air.scope_exit.default", {}, {}, "scope_exit");
    b.Output({N(ret), N(use)});
    Infer(b.graph);
    EXPECT_TRUE(schemas
                    .Define("custom::sin_cos_functional(Tensor x, Tensor out_sin, Tensor out_cos) -> "
                            "(Tensor, Tensor, Tensor)")
                    .ok());
    EXPECT_TRUE(
        inplaceable.Register({"custom.sin_cos_functional.default", "custom.sin_cos_inplace.default", {1, 2}}).ok());
  }
  GraphBuilder b;
  OpSchemaTable schemas = OpSchemaTable::Builtin();
  InplaceableNpuOps inplaceable = InplaceableNpuOps::Builtin();
};

TEST(MultiInplaceTest, UnregisteredCustomOpStaysFunctional) {
  SinCos g(false);
  RunPass(ReinplaceInplaceableOpsPass(), g.b.graph);
  EXPECT_EQ(TargetOf(g.b.graph, "sin_cos_functional"), "custom.sin_cos_functional.default");
}

// test_multi_reinplace_intermediate_has_later_usage: reinplaced though a's
// value is read later; TorchAir's Step 4 then makes the getitems index a.
TEST(MultiInplaceTest, RegisteredOpIsReinplacedAndItsGetitemsIndexTheFirstMutatedArg) {
  SinCos g(false);
  Outcome out = RunPassWith(ReinplaceInplaceableOpsPass(), g.b.graph, g.schemas, g.inplaceable,
                            /*check_effects=*/false);
  EXPECT_EQ(TargetOf(g.b.graph, "sin_cos_functional"), "custom.sin_cos_inplace.default");
  EXPECT_EQ(g.b.graph.Find("getitem")->args()[0].as_node(), g.b.graph.Find("empty_like"));
  EXPECT_TRUE(HasRemark(out, "getitem now indexes empty_like, getitem_1 now indexes empty_like"));
}

// ... which changes output 0. The pass is TorchAir's, so the stage keeps
// TorchAir's graph and says what changed; the same rewrite by a pass of
// airscope's own would be rolled back.
TEST(MultiInplaceTest, EffectCheckSaysTheGetitemRewriteAndKeepsTorchAirsGraph) {
  SinCos g(false);
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  context.schemas = &g.schemas;
  context.inplaceable = &g.inplaceable;
  PassManager manager;
  auto outcome = manager.Run(ReinplaceInplaceableOpsPass(), g.b.graph, context);
  ASSERT_TRUE(outcome.ok()) << outcome.status().message();
  EXPECT_EQ(outcome->effects_changed,
            "output 0 now holds a different value: 'getitem' (element 0 of 'empty_like' (aten.empty_like.default)); "
            "before, 'getitem' (element 0 of 'sin_cos_functional' (custom.sin_cos_functional.default))");
  EXPECT_EQ(TargetOf(g.b.graph, "sin_cos_functional"), "custom.sin_cos_inplace.default");

  SinCos mine(false);
  PassInfo own = ReinplaceInplaceableOpsPass();
  own.origin = PassOrigin::kAirscope;
  context.schemas = &mine.schemas;
  context.inplaceable = &mine.inplaceable;
  auto refused = manager.Run(own, mine.b.graph, context);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("changed the graph's effects: output 0 now holds a different value"),
            std::string::npos);
  EXPECT_EQ(TargetOf(mine.b.graph, "sin_cos_functional"), "custom.sin_cos_functional.default");
}

// test_multi_mutated_input (tests/st/torchair_aclgraph_st.py): the op writes
// two graph inputs, each with its copy_ epilogue. The inputs end with the
// values the functional form's getitems held (the check pairs the two forms
// through inplaceable_npu_ops); only the op's own result differs, because
// TorchAir leaves `getitem(node, 0)` indexing the in-place op's one tensor.
TEST(MultiInplaceTest, MutatedInputsEndWithTheFunctionalFormsValues) {
  GraphBuilder b;
  Node* x = b.Input("arg0_1", "f32[3]");
  Node* sin = b.Input("arg1_1", "f32[3]");
  Node* cos = b.Input("arg2_1", "f32[3]");
  Node* f = b.Call("torch.ops.custom.sin_cos_functional.default", {N(x), N(sin), N(cos)}, {}, "sin_cos_functional");
  Node* ret = b.Call("operator.getitem", {N(f), I(0)}, {}, "getitem");
  Node* new_sin = b.Call("operator.getitem", {N(f), I(1)}, {}, "getitem_1");
  Node* new_cos = b.Call("operator.getitem", {N(f), I(2)}, {}, "getitem_2");
  b.Call("aten.copy_.default", {N(sin), N(new_sin)}, {}, "copy_");
  b.Call("aten.copy_.default", {N(cos), N(new_cos)}, {}, "copy__1");
  b.Output({N(ret)});
  Infer(b.graph);
  SinCos tables(false);
  Outcome out = RunPassWith(ReinplaceInputMutatedOpsPass(), b.graph, tables.schemas, tables.inplaceable);
  EXPECT_EQ(TargetOf(b.graph, "sin_cos_functional"), "custom.sin_cos_inplace.default");
  EXPECT_EQ(b.graph.Find("copy_"), nullptr);
  EXPECT_EQ(b.graph.Find("getitem_1"), nullptr);
  EXPECT_EQ(out.effects_changed,
            "output 0 now holds a different value: 'getitem' (element 0 of 'sin_cos_functional' "
            "(custom.sin_cos_inplace.default)); before, 'getitem' (element 0 of 'sin_cos_functional' "
            "(custom.sin_cos_functional.default))");
  EXPECT_TRUE(HasRemark(out, "removed 2 copy_ epilogue(s) and 2 getitem(s)"));
}

// test_multi_reinplace_intermediate_cross_stream_fail: the stream check needs
// the op's output count (from its schema) to find getitem(node, 1)'s users.
TEST(MultiInplaceTest, CrossStreamUserOfAMutatedOutputKeepsItFunctional) {
  SinCos g(true);
  Outcome out = RunPassWith(ReinplaceInplaceableOpsPass(), g.b.graph, g.schemas, g.inplaceable);
  EXPECT_EQ(TargetOf(g.b.graph, "sin_cos_functional"), "custom.sin_cos_functional.default");
  EXPECT_TRUE(HasRemark(out, "users are on different streams"));
}

}  // namespace
}  // namespace airscope

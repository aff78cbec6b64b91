// The builtin graph passes on small hand-built graphs: what each changes,
// that it reports `changed` truthfully and leaves a graph that lints.
#include <gtest/gtest.h>

#include "core/ops/shape_inference.h"
#include "core/pass/decomposition.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/pass_manager.h"
#include "core/scanner.h"
#include "tests/unit/op_test_util.h"

namespace airscope {
namespace {

using testing::Annotated;
using testing::CountCalls;
using testing::F;
using testing::GraphBuilder;
using testing::I;
using testing::Infer;
using testing::Ints;
using testing::N;

// Runs a pass through the PassManager (so lint runs after it) and returns `changed`.
bool RunPassChanged(PassInfo pass, Graph& graph, const DecompositionTable* table = nullptr) {
  DecompositionTable builtin = DecompositionTable::Builtin();
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  context.decompositions = table ? table : &builtin;
  PassManager manager;
  auto outcome = manager.Run(pass, graph, context);
  EXPECT_TRUE(outcome.ok()) << pass.name << ": " << outcome.status().message();
  EXPECT_TRUE(graph.Lint().ok()) << graph.Lint().message();
  return outcome.ok() && outcome->changed;
}

Node* Arg0(const Node* node) { return node->args()[0].as_node(); }

// ---- decompose

TEST(DecomposeTest, AddmmWithBetaAlphaBecomesMulMmAdd) {
  GraphBuilder b;
  Node* bias = b.Input("bias", "f32[4]");
  Node* x = b.Input("x", "f32[2, 3]");
  Node* w = b.Input("w", "f32[3, 4]");
  Node* addmm = b.Call("aten.addmm.default", {N(bias), N(x), N(w)}, {{"beta", F(2.0)}, {"alpha", I(3)}});
  b.Output({N(addmm)});
  Infer(b.graph);
  EXPECT_TRUE(RunPassChanged(DecomposePass(), b.graph));
  EXPECT_EQ(CountCalls(b.graph, "aten.addmm.default"), 0u);
  EXPECT_EQ(CountCalls(b.graph, "aten.mm.default"), 1u);
  EXPECT_EQ(CountCalls(b.graph, "aten.mul.Tensor"), 2u);
  const Node* result = b.graph.output()->args()[0].items()[0].as_node();
  EXPECT_EQ(StripTorchOps(result->target()), "aten.add.Tensor");
  ASSERT_TRUE(result->meta());
  EXPECT_EQ(result->meta()->ShapeString(), "f32[2, 4]");
  EXPECT_EQ(result->meta()->source, MetaSource::kInferred);
  EXPECT_FALSE(RunPassChanged(DecomposePass(), b.graph));  // nothing left to do
}

TEST(DecomposeTest, GeluTanhAndSoftmax) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 8]");
  Node* gelu = b.Call("aten.gelu.default", {N(x)}, {{"approximate", Argument::String("tanh")}});
  Node* sm = b.Call("aten._softmax.default", {N(gelu), I(-1), testing::B(false)});
  b.Output({N(sm)});
  Infer(b.graph);
  EXPECT_TRUE(RunPassChanged(DecomposePass(), b.graph));
  EXPECT_EQ(CountCalls(b.graph, "aten.tanh.default"), 1u);
  EXPECT_EQ(CountCalls(b.graph, "aten.pow.Tensor_Scalar"), 1u);
  EXPECT_EQ(CountCalls(b.graph, "aten.amax.default"), 1u);
  EXPECT_EQ(CountCalls(b.graph, "aten.sum.dim_IntList"), 1u);
  EXPECT_EQ(CountCalls(b.graph, "aten._softmax.default"), 0u);
  const Node* result = b.graph.output()->args()[0].items()[0].as_node();
  EXPECT_EQ(StripTorchOps(result->target()), "aten.div.Tensor");
  EXPECT_EQ(result->meta()->ShapeString(), "f32[2, 8]");
}

TEST(DecomposeTest, DeclinedInstanceLeavesGraphAndReportsNoChange) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[8]");
  Node* t = b.Call("aten.t.default", {N(x)});  // t of a 1-D tensor: left to remove_noop
  b.Output({N(t)});
  Infer(b.graph);
  auto before = b.graph.Clone();
  EXPECT_FALSE(RunPassChanged(DecomposePass(), b.graph));
  EXPECT_TRUE(SameGraph(*before, b.graph));
}

TEST(DecomposeTest, UserTemplateReplacesNodeAndNamesNewNodesAfterOps) {
  DecompositionTable table;
  ASSERT_TRUE(table.AddTemplate("torch.ops.aten.silu.default", "aten.mul.Tensor($0, aten.sigmoid.default($0))").ok());
  const Decomposition* entry = table.Find("aten.silu.default");
  ASSERT_NE(entry, nullptr);
  EXPECT_FALSE(entry->builtin);
  GraphBuilder b;
  Node* x = b.Input("x", "f32[2, 2]");
  Node* silu = b.Call("aten.silu.default", {N(x)});
  b.Output({N(silu)});
  Infer(b.graph);
  EXPECT_TRUE(RunPassChanged(DecomposePass(), b.graph, &table));
  ASSERT_NE(b.graph.Find("sigmoid"), nullptr);
  ASSERT_NE(b.graph.Find("mul"), nullptr);
  EXPECT_EQ(b.graph.Find("mul")->meta()->ShapeString(), "f32[2, 2]");
  EXPECT_EQ(Arg0(b.graph.Find("sigmoid")), x);
  EXPECT_EQ(b.graph.Find("silu"), nullptr);
}

// A rule that emits its own target doubles the graph each round (torch would
// recurse until RecursionError); past 10x + 1000 nodes the pass fails, names
// the rule, and the manager restores the graph.
TEST(DecomposeTest, SelfReproducingRuleFailsInsteadOfGrowingWithoutBound) {
  DecompositionTable table;
  ASSERT_TRUE(table.AddTemplate("aten.neg.default", "aten.neg.default(aten.neg.default($0))").ok());
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  b.Output({N(b.Call("aten.neg.default", {N(x)}))});
  Infer(b.graph);
  auto before = b.graph.Clone();
  PassContext context;
  context.registry = &OpRegistry::Builtin();
  context.decompositions = &table;
  PassManager manager;
  Result<PassOutcome> outcome = manager.Run(DecomposePass(), b.graph, context);
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.status().message().find("decompositions grew the graph from 3 to "), std::string::npos)
      << outcome.status().message();
  EXPECT_NE(outcome.status().message().find("for aten.neg.default, keeps producing ops that have entries"),
            std::string::npos)
      << outcome.status().message();
  EXPECT_TRUE(SameGraph(*before, b.graph));
}

TEST(DecomposeTest, TemplateLiteralsKwargsAndOutOfRangeArgument) {
  DecompositionTable table;
  ASSERT_TRUE(table.AddTemplate("aten.relu.default", "aten.clamp.default($0, min=0.0, max=None)").ok());
  ASSERT_TRUE(table.AddTemplate("aten.neg.default", "aten.mul.Tensor($3, -1)").ok());
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* relu = b.Call("aten.relu.default", {N(x)});
  Node* neg = b.Call("aten.neg.default", {N(relu)});
  b.Output({N(neg)});
  Infer(b.graph);
  EXPECT_TRUE(RunPassChanged(DecomposePass(), b.graph, &table));
  Node* clamp = b.graph.Find("clamp");
  ASSERT_NE(clamp, nullptr);
  ASSERT_EQ(clamp->kwargs().size(), 2u);
  EXPECT_EQ(clamp->kwargs()[0].name, "min");
  EXPECT_EQ(clamp->kwargs()[0].value.as_float(), 0.0);
  EXPECT_TRUE(clamp->kwargs()[1].value.is_none());
  EXPECT_EQ(CountCalls(b.graph, "aten.neg.default"), 1u);  // $3 does not exist: declined
}

TEST(DecomposeTest, TemplateErrorsNameTheColumn) {
  DecompositionTable table;
  auto error = [&](std::string_view text) {
    return std::string(ErrorHeadline(table.AddTemplate("aten.silu.default", text).message()));
  };
  EXPECT_EQ(error("aten.mul.Tensor($0, aten.sigmoid.default($0)"), "column 16: '(' is never closed");
  EXPECT_EQ(error("aten.mul.Tensor($0 $1)"), "column 20: expected ',' or ')'");
  EXPECT_EQ(error("aten.mul.Tensor($x)"), "column 17: expected a digit after '$'");
  EXPECT_EQ(error("aten.mul.Tensor(y, 1)"), "column 17: unknown name 'y' (arguments are $0, $1, ...)");
  EXPECT_EQ(error("aten.mul.Tensor($0, 2) extra"), "column 24: unexpected text after the expression");
  EXPECT_EQ(error("mul($0)"), "column 1: expected an op target such as aten.mul.Tensor, got 'mul'");
  EXPECT_EQ(error("1.5"), "column 1: a template must be a call (aten.op.overload(...)) or an argument ($N)");
  EXPECT_EQ(error(""), "column 1: expected a value");
  EXPECT_FALSE(table.AddTemplate("silu", "aten.sigmoid.default($0)").ok());
  EXPECT_TRUE(table.All().empty());  // failed adds leave the table as it was
  std::string deep(200, '[');
  EXPECT_EQ(error(deep), "column 66: template nested too deeply");
  // Under the headline: the template, and a caret under the column.
  EXPECT_EQ(table.AddTemplate("aten.silu.default", "aten.mul.Tensor($0 $1)").message(),
            "column 20: expected ',' or ')'\n"
            "    aten.mul.Tensor($0 $1)\n"
            "                       ^");
}

// ---- functionalize and reinplace

TEST(FunctionalizeTest, InputMutationBecomesOutOfPlaceWithCopyBack) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* h = b.Call("aten.hardtanh_.default", {N(x), F(0.0), F(6.0)});
  Node* add = b.Call("aten.add.Tensor", {N(x), I(1)});  // reads the mutated x
  b.Output({N(add)});
  (void)h;
  Infer(b.graph);
  EXPECT_TRUE(RunPassChanged(FunctionalizePass(), b.graph));
  Node* value = b.graph.Find("hardtanh_");
  ASSERT_NE(value, nullptr);
  EXPECT_EQ(StripTorchOps(value->target()), "aten.hardtanh.default");
  EXPECT_EQ(Arg0(b.graph.Find("add")), value);
  ASSERT_EQ(CountCalls(b.graph, "aten.copy_.default"), 1u);
  Node* copy = b.graph.output()->prev();
  EXPECT_EQ(StripTorchOps(copy->target()), "aten.copy_.default");
  EXPECT_EQ(Arg0(copy), x);
  EXPECT_EQ(copy->args()[1].as_node(), value);
  EXPECT_FALSE(RunPassChanged(FunctionalizePass(), b.graph));

  // reinplace_inplaceable_ops_pass never writes into an input (TorchAir's
  // Step 1b); reinplace_input_mutated_ops undoes it: x's only use after
  // hardtanh is the copy_ of this very result, which then goes.
  EXPECT_FALSE(RunPassChanged(ReinplaceInplaceableOpsPass(), b.graph));
  EXPECT_TRUE(RunPassChanged(ReinplaceInputMutatedOpsPass(), b.graph));
  EXPECT_EQ(CountCalls(b.graph, "aten.hardtanh_.default"), 1u);
  EXPECT_EQ(CountCalls(b.graph, "aten.copy_.default"), 0u);
  EXPECT_FALSE(RunPassChanged(ReinplaceInputMutatedOpsPass(), b.graph));
}

TEST(FunctionalizeTest, IntermediateMutationRewiresLaterUsers) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* y = b.Call("aten.mul.Tensor", {N(x), I(2)}, {}, "y");
  b.Call("aten.relu_.default", {N(y)}, {}, "r");
  Node* z = b.Call("aten.add.Tensor", {N(y), N(x)}, {}, "z");
  b.Output({N(z), N(y)});
  Infer(b.graph);
  EXPECT_TRUE(RunPassChanged(FunctionalizePass(), b.graph));
  Node* r = b.graph.Find("r");
  EXPECT_EQ(StripTorchOps(r->target()), "aten.relu.default");
  EXPECT_EQ(Arg0(b.graph.Find("z")), r);
  EXPECT_EQ(b.graph.output()->args()[0].items()[1].as_node(), r);
  EXPECT_EQ(CountCalls(b.graph, "aten.copy_.default"), 0u);
}

// The reinplace passes: tests/unit/reinplace_test.cc.

// optimize_noop_ops and view_to_reshape: tests/unit/torchair_passes_test.cc

// ---- dce, cse

TEST(DceTest, ErasesDeadChainsInOneWalkAndKeepsSideEffects) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* a = b.Call("aten.exp.default", {N(x)}, {}, "a");
  Node* c = b.Call("aten.mul.Tensor", {N(a), N(a)}, {}, "c");
  b.Call("aten.neg.default", {N(c)}, {}, "dead_end");
  b.Call("aten.copy_.default", {N(x), N(x)}, {}, "copy");
  b.Call("air.record.default", {}, {}, "record");
  b.Call("some.unknown.op", {N(x)}, {}, "unknown");
  b.Output({N(x)});
  Infer(b.graph);
  EXPECT_TRUE(RunPassChanged(DcePass(), b.graph));
  for (const char* gone : {"a", "c", "dead_end"}) EXPECT_EQ(b.graph.Find(gone), nullptr) << gone;
  for (const char* kept : {"copy", "record", "unknown"}) EXPECT_NE(b.graph.Find(kept), nullptr) << kept;
  EXPECT_FALSE(RunPassChanged(DcePass(), b.graph));
}

TEST(CseTest, MergesDuplicatesAndChainsButNotSideEffectsOrStreams) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[4]");
  Node* e1 = b.Call("aten.exp.default", {N(x)}, {}, "e1");
  Node* e2 = b.Call("aten.exp.default", {N(x)}, {}, "e2");
  Node* m1 = b.Call("aten.mul.Tensor", {N(e1), F(2.0)}, {}, "m1");
  Node* m2 = b.Call("aten.mul.Tensor", {N(e2), F(2.0)}, {}, "m2");  // a duplicate once e2 is e1
  Node* m3 = b.Call("aten.mul.Tensor", {N(e2), I(2)}, {}, "m3");    // int 2 is not float 2.0
  Node* r1 = b.Call("aten.rand_like.default", {N(x)}, {}, "r1");
  Node* r2 = b.Call("aten.rand_like.default", {N(x)}, {}, "r2");
  Node* s = b.Call("aten.exp.default", {N(x)}, {}, "on_stream");
  b.graph.SetStream(s, "stream_1");
  b.Output({N(m1), N(m2), N(m3), N(r1), N(r2), N(s)});
  Infer(b.graph);
  EXPECT_TRUE(RunPassChanged(CsePass(), b.graph));
  EXPECT_EQ(b.graph.Find("e2"), nullptr);
  EXPECT_EQ(b.graph.Find("m2"), nullptr);
  for (const char* kept : {"m3", "r1", "r2", "on_stream"}) EXPECT_NE(b.graph.Find(kept), nullptr) << kept;
  EXPECT_EQ(b.graph.output()->args()[0].items()[1].as_node(), b.graph.Find("m1"));
  EXPECT_FALSE(RunPassChanged(CsePass(), b.graph));
}

// ---- fuse_pointwise, constant_fold

TEST(FusePointwiseTest, FusesSingleUserChainsWithSummedCost) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[8, 8]");
  Node* y = b.Input("y", "f32[8]");
  Node* e = b.Call("aten.exp.default", {N(x)}, {}, "e");
  Node* m = b.Call("aten.mul.Tensor", {N(e), N(y)}, {}, "m");
  Node* r = b.Call("aten.relu.default", {N(m)}, {}, "r");
  Node* s = b.Call("aten.sum.default", {N(r)}, {}, "s");
  Node* branch = b.Call("aten.neg.default", {N(r)}, {}, "branch");
  b.Output({N(s), N(branch)});
  Infer(b.graph);
  EXPECT_TRUE(RunPassChanged(FusePointwisePass(), b.graph));
  Node* fused = b.graph.Find("fused_pointwise");
  ASSERT_NE(fused, nullptr);
  ASSERT_EQ(fused->args().size(), 2u);
  EXPECT_EQ(fused->args()[0].as_node(), x);
  EXPECT_EQ(fused->args()[1].as_node(), y);
  const Argument* ops = fused->kwarg("ops");
  ASSERT_TRUE(ops && ops->is_sequence());
  ASSERT_EQ(ops->items().size(), 3u);
  EXPECT_EQ(ops->items()[0].as_string(), "aten.exp.default");
  EXPECT_EQ(ops->items()[2].as_string(), "aten.relu.default");
  EXPECT_EQ(fused->meta()->ShapeString(), "f32[8, 8]");
  EXPECT_EQ(b.graph.Find("branch")->args()[0].as_node(), fused);  // r had two users: the chain ends there
  // The registry knows the op: inference agrees with the meta, the cost is the chain's flops.
  const OpInfo* info = OpRegistry::Builtin().Find(fused->target());
  ASSERT_TRUE(info && info->infer && info->cost);
  auto inferred = info->infer(*fused);
  ASSERT_TRUE(inferred.ok()) << inferred.status().message();
  EXPECT_EQ(inferred->ShapeString(), "f32[8, 8]");
  auto cost = info->cost(*fused);
  ASSERT_TRUE(cost);
  EXPECT_DOUBLE_EQ(cost->flops, 3 * 64);  // exp 1 + mul 1 + relu 1 per element
  EXPECT_DOUBLE_EQ(cost->bytes_written, 64 * 4);
  EXPECT_FALSE(RunPassChanged(FusePointwisePass(), b.graph));
}

TEST(ConstantFoldTest, FoldsInputIndependentMaskIntoOneConstant) {
  GraphBuilder b;
  Node* x = b.Input("x", "f32[16, 16]");
  Node* ones = b.Call("aten.ones.default", {Ints({16, 16})}, {}, "ones");
  Node* tril = b.Call("aten.tril.default", {N(ones)}, {}, "tril");
  Node* eq = b.Call("aten.eq.Scalar", {N(tril), I(0)}, {}, "eq");
  Node* fill = b.Call("aten.masked_fill.Scalar", {N(x), N(eq), F(-1.0)}, {}, "fill");
  Node* big = b.Call("aten.ones.default", {Ints({1024, 1024})}, {}, "big");
  Node* big_neg = b.Call("aten.neg.default", {N(big)}, {}, "big_neg");
  b.Output({N(fill), N(big_neg)});
  Infer(b.graph);
  EXPECT_TRUE(RunPassChanged(ConstantFoldPass(), b.graph));
  Node* folded = b.graph.Find("_folded_constant_0");
  ASSERT_NE(folded, nullptr);
  EXPECT_EQ(folded->op(), OpKind::kGetAttr);
  EXPECT_EQ(folded->target(), "_folded_constant_0");
  EXPECT_EQ(folded->meta()->ShapeString(), "b8[16, 16]");
  EXPECT_EQ(b.graph.Find("fill")->args()[1].as_node(), folded);
  for (const char* gone : {"ones", "tril", "eq"}) EXPECT_EQ(b.graph.Find(gone), nullptr) << gone;
  EXPECT_NE(b.graph.Find("big_neg"), nullptr);  // too big to fold
  EXPECT_FALSE(RunPassChanged(ConstantFoldPass(), b.graph));
}

TEST(GraphPassesTest, EveryPassIsRegisteredWithHelp) {
  PassRegistry registry = PassRegistry::WithBuiltins();
  for (const std::string& name : DefaultPipeline()) {
    const PassInfo* info = registry.Find(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(info->name, name);
    EXPECT_EQ(info->kind, PassKind::kPipeline);
    EXPECT_FALSE(info->help.empty());
  }
  // airscope's earlier short names still find TorchAir's passes.
  EXPECT_EQ(registry.Find("remove_noop")->name, "optimize_noop_ops");
  EXPECT_EQ(registry.Find("dce")->name, "eliminate_dead_code");
  EXPECT_EQ(registry.Find("reinplace")->name, "reinplace_inplaceable_ops_pass");
  for (const char* name : {"decompose", "functionalize", "cse", "constant_fold", "fuse_pointwise"}) {
    const PassInfo* info = registry.Find(name);
    ASSERT_NE(info, nullptr) << name;
    EXPECT_EQ(info->kind, PassKind::kOptional);
  }
}

}  // namespace
}  // namespace airscope

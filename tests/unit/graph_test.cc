#include "core/ir/graph.h"
#include "tests/unit/status_test_util.h"

#include <gtest/gtest.h>

namespace airscope {
namespace {

NodeSpec Call(std::string target, std::vector<Argument> args, std::string name = "") {
  NodeSpec spec;
  spec.op = OpKind::kCallFunction;
  spec.target = std::move(target);
  spec.args = std::move(args);
  spec.name = std::move(name);
  return spec;
}

NodeSpec Placeholder(std::string name) {
  NodeSpec spec;
  spec.op = OpKind::kPlaceholder;
  spec.target = name;
  spec.name = std::move(name);
  return spec;
}

NodeSpec Output(std::vector<Argument> values) {
  NodeSpec spec;
  spec.op = OpKind::kOutput;
  spec.target = "output";
  spec.args = {Argument::Tuple(std::move(values))};
  spec.name = "output";
  return spec;
}

TEST(GraphTest, UsersFollowArgs) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  Node* mm = g.Append(Call("torch.ops.aten.mm.default", {Argument::NodeRef(x), Argument::NodeRef(x)}));
  EXPECT_EQ(mm->name(), "mm");
  ASSERT_EQ(x->users().size(), 1u);  // used twice by mm, listed once
  Node* add = g.Append(Call("torch.ops.aten.add.Tensor", {Argument::NodeRef(mm), Argument::Int(1)}));
  g.Append(Output({Argument::NodeRef(add)}));
  EXPECT_TRUE(g.Lint().ok()) << g.Lint().message();
  g.SetArgs(mm, {Argument::NodeRef(x), Argument::Float(2.0)});
  EXPECT_EQ(x->users().size(), 1u);
  g.SetArgs(mm, {Argument::Float(2.0)});
  EXPECT_TRUE(x->users().empty());
}

// A placeholder whose target is its name stores no copy of it; the target
// is still the name, stays the old name through a rename (FX renames the
// node, not the argument it binds), and can be set apart from it.
TEST(GraphTest, APlaceholdersTargetIsItsNameUntilRenamedOrSet) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("L_x_")));
  ASSERT_OK_AND_ASSIGN(Node * y, g.AppendNamed(Placeholder("y")));
  g.Append(Output({Argument::NodeRef(x), Argument::NodeRef(y)}));
  EXPECT_EQ(x->target(), "L_x_");
  std::unique_ptr<Graph> before = g.Clone();
  ASSERT_TRUE(g.Rename(x, "l_x_").ok());
  EXPECT_EQ(x->name(), "l_x_");
  EXPECT_EQ(x->target(), "L_x_");
  EXPECT_EQ(before->Find("L_x_")->target(), "L_x_");  // a clone made before keeps its own
  std::unique_ptr<Graph> after = g.Clone();
  EXPECT_EQ(after->Find("l_x_")->target(), "L_x_");
  g.SetTarget(y, "y_input");
  EXPECT_EQ(y->target(), "y_input");
  EXPECT_EQ(y->name(), "y");
  g.SetTarget(y, "y");
  EXPECT_EQ(y->target(), "y");
  ASSERT_TRUE(g.Rename(y, "y2").ok());
  EXPECT_EQ(y->target(), "y");
  EXPECT_TRUE(g.Lint().ok()) << g.Lint().message();
}

TEST(GraphTest, ShareMetaSharesWithinAGraphOnly) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  ASSERT_OK_AND_ASSIGN(Node * y, g.AppendNamed(Placeholder("y")));
  NodeMeta meta;
  meta.kind = ValueKind::kTensor;
  meta.tensors.push_back(*TensorMeta::ParseAnnotation("f32[2]"));
  x->set_meta(meta);
  uint64_t version = g.version();
  y->share_meta(*x);
  EXPECT_EQ(y->meta(), x->meta());
  EXPECT_NE(g.version(), version);
  Graph other;
  ASSERT_OK_AND_ASSIGN(Node * z, other.AppendNamed(Placeholder("z")));
  z->share_meta(*x);  // another graph's meta may not outlive it: ignored
  EXPECT_EQ(z->meta(), nullptr);
}

TEST(GraphTest, NamesAreUniqueLikeFx) {
  Graph g;
  Node* a = g.Append(Call("torch.ops.aten.add.Tensor", {}));
  Node* b = g.Append(Call("torch.ops.aten.add.Tensor", {}));
  Node* c = g.Append(Call("torch.ops.aten.add.Tensor", {}, "add_1"));
  Node* d = g.Append(Call("operator.getitem", {}));
  Node* e = g.Append(Call("x", {}, "3d-thing"));
  EXPECT_EQ(a->name(), "add");
  EXPECT_EQ(b->name(), "add_1");
  EXPECT_EQ(c->name(), "add_2");
  EXPECT_EQ(d->name(), "getitem");
  EXPECT_EQ(e->name(), "_3d_thing");
  EXPECT_FALSE(g.AppendNamed(Call("x", {}, "add")).ok());
  EXPECT_FALSE(g.AppendNamed(Call("x", {}, "class")).ok());
}

TEST(GraphTest, EraseFailsWithUsersAndKeepsGraph) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  Node* neg = g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(x)}));
  Status st = g.Erase(x);
  EXPECT_FALSE(st.ok());
  EXPECT_NE(st.message().find("neg"), std::string::npos);
  EXPECT_EQ(g.size(), 2u);
  EXPECT_TRUE(g.Erase(neg).ok());
  EXPECT_TRUE(g.Erase(x).ok());
  EXPECT_TRUE(g.empty());
}

// Lint's halves: LintList checks only the list, so a use before the
// definition passes it and fails LintUses; the whole Lint says the same, and
// a fixed graph passes both.
TEST(GraphTest, LintListLeavesUsesToLintUses) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  Node* neg = g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(x)}));
  Node* abs = g.Append(Call("torch.ops.aten.abs.default", {Argument::NodeRef(neg)}));
  g.Append(Output({Argument::NodeRef(abs)}));
  g.MoveBefore(abs, neg);
  EXPECT_TRUE(g.LintList().ok());
  Status uses = g.LintUses();
  EXPECT_EQ(uses.message(), "node 'abs' uses 'neg' before it is defined (not in topological order)");
  EXPECT_EQ(g.Lint().message(), uses.message());
  g.MoveBefore(neg, abs);
  EXPECT_TRUE(g.LintList().ok());
  EXPECT_TRUE(g.LintUses().ok());
  EXPECT_TRUE(g.Lint().ok());
}

TEST(GraphTest, ReplaceAllUsesInsideLists) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  ASSERT_OK_AND_ASSIGN(Node * y, g.AppendNamed(Placeholder("y")));
  Node* cat = g.Append(Call("torch.ops.aten.cat.default",
                            {Argument::List({Argument::NodeRef(x), Argument::NodeRef(x)}), Argument::Int(0)}));
  EXPECT_EQ(g.ReplaceAllUsesWith(x, y), 1u);
  EXPECT_TRUE(x->users().empty());
  ASSERT_EQ(y->users().size(), 1u);
  EXPECT_EQ(cat->args()[0].items()[1].as_node(), y);
  EXPECT_TRUE(g.Lint().ok());
}

TEST(GraphTest, LintFindsTopologicalError) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  Node* a = g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(x)}));
  Node* b = g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(a)}));
  g.MoveBefore(b, a);
  Status st = g.Lint();
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("before it is defined"), std::string::npos) << st.message();
}

TEST(GraphTest, InsertBeforeAfter) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  Node* out = g.Append(Output({Argument::NodeRef(x)}));
  Node* enter = g.InsertBefore(out, Call("torch.ops.air.scope_enter.default", {}));
  Node* exit = g.InsertAfter(enter, Call("torch.ops.air.scope_exit.default", {}));
  EXPECT_EQ(x->next(), enter);
  EXPECT_EQ(enter->next(), exit);
  EXPECT_EQ(exit->next(), out);
  EXPECT_TRUE(g.Lint().ok());
}

TEST(GraphTest, CloneIsDeepAndEqual) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  NodeMeta meta;
  meta.tensors.push_back(*TensorMeta::ParseAnnotation("f32[2, 3]"));
  x->set_meta(meta);
  Node* n = g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(x)}));
  g.SetStream(n, "stream_1");
  g.Append(Output({Argument::NodeRef(n)}));
  auto copy = g.Clone();
  std::string why;
  EXPECT_TRUE(SameGraph(g, *copy, &why)) << why;
  EXPECT_NE(copy->Find("neg"), n);
  EXPECT_EQ(copy->Find("neg")->args()[0].as_node(), copy->Find("x"));
  EXPECT_EQ(copy->Find("neg")->stream(), "stream_1");
  EXPECT_TRUE(copy->Lint().ok());
}

TEST(GraphTest, VersionMovesWithEveryMutationAndOnlyThen) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  Node* n = g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(x)}));
  Node* out = g.Append(Output({Argument::NodeRef(n)}));
  uint64_t v = g.version();
  auto moved = [&] {
    bool changed = g.version() != v;
    v = g.version();
    return changed;
  };
  // Reads, and writes of what is already there, leave it.
  (void)g.Find("neg"), (void)g.Nodes(), (void)g.Clone();
  EXPECT_TRUE(g.Lint().ok());
  g.SetStream(n, "");
  g.SetTarget(n, "torch.ops.aten.neg.default");
  g.MoveBefore(n, out);
  EXPECT_FALSE(moved());
  g.SetStream(n, "stream_1");
  EXPECT_TRUE(moved());
  g.SetTarget(n, "torch.ops.aten.abs.default");
  EXPECT_TRUE(moved());
  EXPECT_EQ(n->target(), "torch.ops.aten.abs.default");
  EXPECT_EQ(x->users().ToVector(), std::vector<Node*>{n});
  g.SetArgs(n, n->args());
  EXPECT_TRUE(moved());
  NodeMeta meta;
  meta.tensors.push_back(*TensorMeta::ParseAnnotation("f32[2]"));
  n->set_meta(meta);
  EXPECT_TRUE(moved());
  n->clear_meta();
  EXPECT_TRUE(moved());
  ASSERT_TRUE(g.Rename(n, "m").ok());
  EXPECT_TRUE(moved());
  Node* extra = g.InsertBefore(out, Call("torch.ops.aten.relu.default", {Argument::NodeRef(x)}));
  EXPECT_TRUE(moved());
  ASSERT_TRUE(g.Erase(extra).ok());
  EXPECT_TRUE(moved());
  g.mutable_style().legacy_users = true;
  EXPECT_TRUE(moved());
  // A move assignment never goes back to a version the graph had before.
  Graph other;
  g = std::move(other);
  EXPECT_GT(g.version(), v);
}

TEST(GraphTest, LintResultIsForgottenOnMutation) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  Node* a = g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(x)}));
  Node* b = g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(a)}));
  ASSERT_TRUE(g.Lint().ok());
  ASSERT_TRUE(g.Lint().ok());  // remembered
  g.MoveBefore(b, a);
  EXPECT_FALSE(g.Lint().ok());
  g.MoveBefore(a, b);
  EXPECT_TRUE(g.Lint().ok());
  // A clone of a clean graph is clean, and a clone's own edits are linted.
  auto copy = g.Clone();
  EXPECT_TRUE(copy->Lint().ok());
  copy->MoveBefore(copy->Find("neg_1"), copy->Find("neg"));
  EXPECT_FALSE(copy->Lint().ok());
  EXPECT_TRUE(g.Lint().ok());
}

TEST(GraphTest, CloneCopiesAGraphOutOfTopologicalOrder) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  Node* a = g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(x)}));
  Node* b = g.Append(Call("torch.ops.aten.relu.default", {Argument::NodeRef(a)}));
  g.MoveBefore(b, a);  // b now uses a, which comes after it
  auto copy = g.Clone();
  std::string why;
  EXPECT_TRUE(SameGraph(g, *copy, &why)) << why;
  EXPECT_EQ(copy->Find("relu")->args()[0].as_node(), copy->Find("neg"));
  EXPECT_EQ(copy->Find("neg")->users().ToVector(), std::vector<Node*>{copy->Find("relu")});
  EXPECT_EQ(copy->Lint().message(), g.Lint().message());
}

TEST(GraphTest, ACloneNamesNodesExactlyLikeItsSource) {
  // A clone builds its name index only when a name is looked up: erasing
  // first and naming later must give what the source gives.
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  Node* a = g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(x)}));
  g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(x)}));
  auto copy = g.Clone();
  for (Graph* graph : {&g, copy.get()}) {
    Node* first = graph == &g ? a : graph->front()->next();
    ASSERT_TRUE(graph->Erase(first).ok());
    EXPECT_TRUE(graph->Lint().ok());
    EXPECT_EQ(graph->Find("neg"), nullptr);
    EXPECT_NE(graph->Find("neg_1"), nullptr);
    Node* added = graph->Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(graph->front())}));
    EXPECT_FALSE(graph->Rename(added, "neg_1").ok());
    EXPECT_TRUE(graph->Lint().ok());
  }
  std::string why;
  EXPECT_TRUE(SameGraph(g, *copy, &why)) << why;
  EXPECT_EQ(copy->back()->name(), g.back()->name());
}

TEST(GraphTest, ReplaceInputRewritesOneUserOnly) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  ASSERT_OK_AND_ASSIGN(Node * y, g.AppendNamed(Placeholder("y")));
  Node* a = g.Append(Call("torch.ops.aten.add.Tensor", {Argument::NodeRef(x), Argument::NodeRef(x)}));
  Node* b =
      g.Append(Call("torch.ops.aten.cat.default", {Argument::List({Argument::NodeRef(x), Argument::NodeRef(a)})}));
  g.Append(Output({Argument::NodeRef(b)}));
  uint64_t v = g.version();
  g.ReplaceInput(b, y, a);  // b does not use y: nothing happens
  EXPECT_EQ(g.version(), v);
  g.ReplaceInput(a, x, y);
  EXPECT_EQ(a->args()[0].as_node(), y);
  EXPECT_EQ(a->args()[1].as_node(), y);
  EXPECT_EQ(x->users().ToVector(), std::vector<Node*>{b});
  EXPECT_EQ(y->users().ToVector(), std::vector<Node*>{a});
  EXPECT_NE(g.version(), v);
  g.ReplaceInput(b, x, y);
  EXPECT_EQ(b->args()[0].items()[0].as_node(), y);
  EXPECT_TRUE(x->users().empty());
  EXPECT_EQ(y->users().ToVector(), (std::vector<Node*>{a, b}));
  EXPECT_TRUE(g.Lint().ok()) << g.Lint().message();
}

TEST(GraphTest, LongChainLintsWithoutRecursion) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * prev, g.AppendNamed(Placeholder("x")));
  for (int i = 0; i < 200000; ++i) {
    prev = g.Append(Call("torch.ops.aten.relu.default", {Argument::NodeRef(prev)}));
  }
  g.Append(Output({Argument::NodeRef(prev)}));
  EXPECT_TRUE(g.Lint().ok());
}

TEST(TensorMetaTest, ParsesBothAnnotationForms) {
  auto a = TensorMeta::ParseAnnotation("f32[2, 16, 128]");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->ToAnnotation(), "f32[2, 16, 128]");
  EXPECT_EQ(a->NumBytes(), 2 * 16 * 128 * 4);
  auto b = TensorMeta::ParseAnnotation("bf16[s0, 4][4, 1]cuda:0");
  ASSERT_TRUE(b.ok()) << b.status().message();
  EXPECT_FALSE(b->sizes[0].is_static());
  EXPECT_EQ(b->device, "cuda:0");
  EXPECT_EQ(b->ToAnnotation(), "bf16[s0, 4][4, 1]cuda:0");
  auto scalar = TensorMeta::ParseAnnotation("f32[]");
  ASSERT_TRUE(scalar.ok());
  EXPECT_EQ(scalar->NumElements(), 1);
  EXPECT_FALSE(TensorMeta::ParseAnnotation("q32[2]").ok());
  EXPECT_FALSE(TensorMeta::ParseAnnotation("f32[2,").ok());
  EXPECT_FALSE(TensorMeta::ParseAnnotation("f32[-1]").ok());
}

TEST(TensorMetaTest, SymbolicContiguousStrides) {
  auto m = TensorMeta::ParseAnnotation("f32[s0, 3, 4]");
  ASSERT_TRUE(m.ok());
  auto strides = m->EffectiveStrides();
  EXPECT_EQ(strides[0].ToString(), "12");
  EXPECT_EQ(strides[2].ToString(), "1");
}

}  // namespace
}  // namespace airscope

namespace airscope {
namespace {

TEST(GraphLintTest, HundredThousandUsersOfOneNode) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Placeholder("x")));
  std::vector<Argument> outs;
  for (int i = 0; i < 100000; ++i) {
    outs.push_back(Argument::NodeRef(g.Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(x)}))));
  }
  g.Append(Output(std::move(outs)));
  EXPECT_EQ(x->users().size(), 100000u);
  EXPECT_TRUE(g.Lint().ok()) << g.Lint().message();
}

}  // namespace
}  // namespace airscope

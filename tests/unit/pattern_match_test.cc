// Unit tests of core/pass/pattern_match and pattern_replace: one test per rule
// of Inductor's matcher (torch/_inductor/pattern_matcher.py) that TorchAir's
// patterns rely on, and Inductor's replace_with_graph.
#include <gtest/gtest.h>

#include <string>

#include "core/analysis/node_util.h"
#include "core/fx/readable.h"
#include "core/ops/op_registry.h"
#include "core/pass/pattern_match.h"
#include "core/pass/pattern_replace.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

std::unique_ptr<Graph> ParseModuleBody(const std::string& body) { return testing_util::ParseModule(body); }

using P = Pattern;

const char* kNormQuant =
    "    def forward(self, x1: \"f16[2, 8]\", x2: \"f16[2, 8]\", g: \"f16[8]\", s: \"f16[8]\"):\n"
    "        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(x1, x2, g)\n"
    "        getitem: \"f16[2, 8]\" = npu_add_rms_norm[0]\n"
    "        getitem_2: \"f16[2, 8]\" = npu_add_rms_norm[2]\n"
    "        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = s)\n"
    "        getitem_3: \"i8[2, 8]\" = npu_dynamic_quant[0]\n"
    "        getitem_4: \"f32[2]\" = npu_dynamic_quant[1]\n"
    "        return (getitem_3, getitem_2, getitem_4)\n";

PatternPtr Norm(int users) {
  return P::Call("npu.npu_add_rms_norm.default", {P::Keyword("x1"), P::Keyword("x2"), P::Keyword("gamma")}, users);
}
PatternPtr Item(PatternPtr of, int64_t i, int users = 1) { return P::Call("operator.getitem", {of, P::Int(i)}, users); }

// _TargetExpr._match_users: a call that is not an output must have exactly _users users.
TEST(PatternMatchTest, UsersCountedExceptOnOutputs) {
  auto g = ParseModuleBody(kNormQuant);
  PatternPtr y = Item(Norm(2), 0);
  EXPECT_TRUE(MatchPattern(y, g->Find("getitem")));                  // the root is an output: its users are not counted
  EXPECT_FALSE(MatchPattern(Item(Norm(3), 0), g->Find("getitem")));  // norm has 2 users, not 3
  EXPECT_TRUE(MatchPattern(Item(Norm(P::kMultiple), 0), g->Find("getitem")));
  // getitem has one user (npu_dynamic_quant); as a non-output child with _users=2 it fails.
  PatternPtr quant =
      P::Call("npu.npu_dynamic_quant.default", {Item(Norm(2), 0, 2)}, {{"smooth_scales", P::Keyword("s")}}, 2);
  EXPECT_FALSE(MatchPattern(Item(quant, 0), g->Find("getitem_3")));
}

// _TargetArgsExpr._match: node kwargs the pattern does not name are not compared.
TEST(PatternMatchTest, KwargsThePatternLacksAreNotCompared) {
  auto g = ParseModuleBody(kNormQuant);
  PatternPtr quant = P::Call("npu.npu_dynamic_quant.default", {Item(Norm(2), 0)}, 2);
  EXPECT_TRUE(MatchPattern(Item(quant, 0), g->Find("getitem_3")));
}

// normalize_function: a node with fewer kwargs than the pattern binds the schema defaults.
TEST(PatternMatchTest, MissingKwargNormalizedToSchemaDefault) {
  auto g = ParseModuleBody(
      "    def forward(self, x: \"f16[2, 8]\"):\n"
      "        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(x)\n"
      "        getitem: \"i8[2, 8]\" = npu_dynamic_quant[0]\n"
      "        getitem_1: \"f32[2]\" = npu_dynamic_quant[1]\n"
      "        return (getitem, getitem_1)\n");
  PatternPtr quant =
      P::Call("npu.npu_dynamic_quant.default", {P::Keyword("x")}, {{"smooth_scales", P::Keyword("s")}}, 2);
  auto m = MatchPattern(Item(quant, 0), g->Find("getitem"));
  ASSERT_TRUE(m);
  EXPECT_TRUE(m->bindings.at("s").is_none());
  // A keyword the schema does not have, with no value on the node: no normalization, no match.
  PatternPtr odd = P::Call("npu.npu_dynamic_quant.default", {P::Keyword("x")}, {{"nope", P::Keyword("n")}}, 2);
  EXPECT_FALSE(MatchPattern(Item(odd, 0), g->Find("getitem")));
}

// pytree flattening: a list pattern compares leaf by leaf; constants by Python ==.
TEST(PatternMatchTest, ListLeavesAndConstants) {
  auto g = ParseModuleBody(
      "    def forward(self, x: \"f16[2, 4, 8]\"):\n"
      "        view: \"f16[8, 8]\" = torch.ops.aten.view.default(x, [-1, 8])\n"
      "        view_1: \"f16[8, 8]\" = torch.ops.aten.view.default(x, [8, 8])\n"
      "        _to_copy: \"f32[8, 8]\" = torch.ops.aten._to_copy.default(view, dtype = torch.float32)\n"
      "        return (_to_copy, view_1)\n");
  PatternPtr any_rows = P::Call("aten.view.default", {P::Keyword("x"), P::List({P::Int(-1), P::Ignored()})});
  EXPECT_TRUE(MatchPattern(any_rows, g->Find("view")));
  EXPECT_FALSE(MatchPattern(any_rows, g->Find("view_1")));  // 8 != -1
  PatternPtr three = P::Call("aten.view.default", {P::Keyword("x"), P::List({P::Int(-1), P::Ignored(), P::Ignored()})});
  EXPECT_FALSE(MatchPattern(three, g->Find("view")));  // the list structure differs
  PatternPtr as_float =
      P::Call("aten.view.default", {P::Keyword("x"), P::List({P::Constant(Argument::Float(-1.0)), P::Ignored()})});
  EXPECT_TRUE(MatchPattern(as_float, g->Find("view")));  // -1 == -1.0 in Python
  auto f32 = P::Constant(Argument::OfDType(DType::kFloat32));
  auto f16 = P::Constant(Argument::OfDType(DType::kFloat16));
  EXPECT_TRUE(MatchPattern(P::Call("aten._to_copy.default", {P::Ignored()}, {{"dtype", f32}}), g->Find("_to_copy")));
  EXPECT_FALSE(MatchPattern(P::Call("aten._to_copy.default", {P::Ignored()}, {{"dtype", f16}}), g->Find("_to_copy")));
}

// Ignored matches anything and binds nothing; KeywordArg binds, and one name bound to two values fails.
TEST(PatternMatchTest, IgnoredBindsNothingKeywordMustAgree) {
  auto g = ParseModuleBody(
      "    def forward(self, a: \"f32[2]\", b: \"f32[2]\"):\n"
      "        add: \"f32[2]\" = torch.ops.aten.add.Tensor(a, b)\n"
      "        add_1: \"f32[2]\" = torch.ops.aten.add.Tensor(a, a)\n"
      "        return (add, add_1)\n");
  auto m = MatchPattern(P::Call("aten.add.Tensor", {P::Keyword("x"), P::Ignored()}), g->Find("add"));
  ASSERT_TRUE(m);
  EXPECT_EQ(m->bindings.size(), 1u);
  EXPECT_EQ(m->bindings.at("x").as_node()->name(), "a");
  PatternPtr same = P::Call("aten.add.Tensor", {P::Keyword("x"), P::Keyword("x")});
  EXPECT_FALSE(MatchPattern(same, g->Find("add")));
  EXPECT_TRUE(MatchPattern(same, g->Find("add_1")));
}

// MultiOutputPattern: the other outputs are found among the users of matched
// nodes, the first candidate that matches (getitem_2, after getitem fails on its index).
TEST(PatternMatchTest, MultiOutputFindsOtherOutputsFromAnchors) {
  auto g = ParseModuleBody(kNormQuant);
  PatternPtr norm = Norm(2);
  PatternPtr quant = P::Call("npu.npu_dynamic_quant.default", {Item(norm, 0)}, {{"smooth_scales", P::Keyword("s")}}, 2);
  std::vector<PatternPtr> outs = {Item(quant, 0), Item(norm, 2), Item(quant, 1)};
  auto m = MatchMultiOutput(outs, g->Find("getitem_3"));
  ASSERT_TRUE(m);
  ASSERT_EQ(m->outputs.size(), 3u);
  EXPECT_EQ(m->outputs[0]->name(), "getitem_3");
  EXPECT_EQ(m->outputs[1]->name(), "getitem_2");
  EXPECT_EQ(m->outputs[2]->name(), "getitem_4");
  // Match.nodes: each call after its inputs, then the other outputs'.
  std::vector<std::string> names;
  for (Node* n : m->nodes) names.push_back(n->name());
  EXPECT_EQ(names, (std::vector<std::string>{"npu_add_rms_norm", "getitem", "npu_dynamic_quant", "getitem_3",
                                             "getitem_2", "getitem_4"}));
  // Rooted at the scale, outputs[0] (index 0) does not match.
  EXPECT_FALSE(MatchMultiOutput(outs, g->Find("getitem_4")));
  // An output no anchor reaches fails the match.
  std::vector<PatternPtr> missing = {Item(quant, 0), Item(norm, 1)};
  EXPECT_FALSE(MatchMultiOutput(missing, g->Find("getitem_3")));
}

// replace_with_graph: the replacement goes before the earliest output, each
// output's uses move to its replacement, then unused matched nodes go.
TEST(PatternReplaceTest, InsertsBeforeEarliestOutputAndErasesDeadMatch) {
  auto g = ParseModuleBody(kNormQuant);
  PatternPtr norm = Norm(2);
  PatternPtr quant = P::Call("npu.npu_dynamic_quant.default", {Item(norm, 0)}, {{"smooth_scales", P::Keyword("s")}}, 2);
  std::vector<PatternPtr> outs = {Item(quant, 0), Item(norm, 2), Item(quant, 1)};
  auto m = MatchMultiOutput(outs, g->Find("getitem_3"));
  ASSERT_TRUE(m);
  std::string why;
  bool done = ReplaceWithGraph(
      *g, *m,
      [&](ReplacementBuilder& b, std::string&) -> std::optional<std::vector<Node*>> {
        Node* fused = b.Call("npu.npu_add_rms_norm_dynamic_quant.default",
                             {m->bindings.at("x1"), m->bindings.at("x2"), m->bindings.at("gamma")});
        return std::vector<Node*>{b.Getitem(fused, 0), b.Getitem(fused, 2), b.Getitem(fused, 3)};
      },
      OpRegistry::Builtin(), why);
  ASSERT_TRUE(done);
  EXPECT_TRUE(g->Lint().ok());
  std::vector<std::string> targets;
  for (Node* n : *g) {
    if (n->op() == OpKind::kCallFunction) targets.push_back(std::string(CallTarget(*n)));
  }
  // The fused call sits where getitem_2 (the earliest output) was; norm and quant are gone.
  EXPECT_EQ(targets, (std::vector<std::string>{"npu.npu_add_rms_norm_dynamic_quant.default", "operator.getitem",
                                               "operator.getitem", "operator.getitem"}));
  // A builder that gives up leaves the graph as it was.
  auto g2 = ParseModuleBody(kNormQuant);
  auto m2 = MatchMultiOutput(outs, g2->Find("getitem_3"));
  ASSERT_TRUE(m2);
  size_t before = g2->size();
  EXPECT_FALSE(ReplaceWithGraph(
      *g2, *m2,
      [&](ReplacementBuilder& b, std::string& reason) -> std::optional<std::vector<Node*>> {
        b.Call("npu.npu_add_rms_norm.default",
               {m2->bindings.at("x1"), m2->bindings.at("x2"), m2->bindings.at("gamma")});
        reason = "no";
        return std::nullopt;
      },
      OpRegistry::Builtin(), why));
  EXPECT_EQ(g2->size(), before);
  EXPECT_EQ(why, "no");
}

}  // namespace
}  // namespace airscope

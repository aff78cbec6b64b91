// DiffGraphs (added / removed / changed by name) and the unified line diff:
// `diff -u` format, minimal edit scripts on random inputs (checked against
// an LCS table), and 100k-line texts.
#include <gtest/gtest.h>

#include <random>

#include "core/fx/fx_text.h"
#include "core/pass/graph_diff.h"
#include "pipeline_test_util.h"

namespace airscope {
namespace {

using namespace testing_passes;

TEST(GraphDiffTest, AddedRemovedChanged) {
  auto a = SmallGraph();
  auto b = SmallGraph();
  PassContext context;
  ASSERT_TRUE(InsertNeg(*b, context).ok());    // adds neg, changes add's args
  ASSERT_TRUE(RemoveClone(*b, context).ok());  // removes clone, changes output's args
  b->SetStream(b->Find("relu"), "stream_1");
  GraphDiff diff = DiffGraphs(*a, *b);
  EXPECT_EQ(diff.added, std::vector<std::string>{"neg"});
  EXPECT_EQ(diff.removed, std::vector<std::string>{"clone"});
  ASSERT_EQ(diff.changed.size(), 3u);
  EXPECT_EQ(diff.changed[0].name, "relu");
  EXPECT_EQ(diff.changed[0].fields, std::vector<std::string>{"stream"});
  EXPECT_EQ(diff.changed[1].name, "add");
  EXPECT_EQ(diff.changed[1].fields, std::vector<std::string>{"args"});
  EXPECT_EQ(diff.changed[2].name, "output");
  EXPECT_TRUE(DiffGraphs(*a, *a->Clone()).empty());
}

// TorchAir's DEBUG record (graph_utils.py _compare_fx_graphs). The expected
// text was produced by running TorchAir's own _tabulate and the record's
// format string on these counts (rows in graph order: TorchAir's set order
// varies from run to run).
TEST(GraphDiffTest, PassStatsTableInTorchAirsLayout) {
  auto before = ParseFxText(
      "graph():\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    %clone : [num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%x,), kwargs = {})\n"
      "    %neg : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%clone,), kwargs = {})\n"
      "    return (neg,)\n",
      "before");
  auto after = ParseFxText(
      "graph():\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    %neg : [num_users=1] = call_function[target=torch.ops.aten.neg.default](args = (%x,), kwargs = {})\n"
      "    return (neg,)\n",
      "after");
  ASSERT_TRUE(before.ok() && after.ok());
  const std::string expected = R"(After fx graph pass(remove_clone) optimization:
    before 4 nodes, after 3 nodes,
    removed nodes: ['clone'],
    added nodes: [],
    operations statistics:
     name           cnt(before)  cnt(after)  diff
    -------------  -----------  ----------  ----
    total                    4           3    -1
    placeholder              1           1     0
    call_function            2           1    -1
    output                   1           1     0

    targets statistics:
     name                          cnt(before)  cnt(after)  diff
    ----------------------------  -----------  ----------  ----
    total                                   4           3    -1
    x                                       1           1     0
    torch.ops.aten.clone.default            1           0    -1
    torch.ops.aten.neg.default              1           1     0
    output                                  1           1     0)";
  EXPECT_EQ(PassStatsTable(**before, **after, "remove_clone", 0), expected);
  // A measured cost adds TorchAir's cost line, 10 decimals.
  std::string timed = PassStatsTable(**before, **after, "remove_clone", 0.0012345);
  EXPECT_TRUE(
      timed.starts_with("After fx graph pass(remove_clone) optimization:\n    cost 0.0012345000s,\n"
                        "    before 4 nodes"))
      << timed;
  // Added names and a target only `after` has.
  std::string back = PassStatsTable(**after, **before, "p", 0);
  EXPECT_NE(back.find("    removed nodes: [],\n    added nodes: ['clone'],\n"), std::string::npos) << back;
  EXPECT_NE(back.find("    torch.ops.aten.clone.default            0           1     1"), std::string::npos) << back;
}

TEST(GraphDiffTest, TargetKwargsAndMetaAreNamed) {
  auto a = ParseFxText(
      "graph():\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    %s : [num_users=1] = call_function[target=torch.ops.aten.sum.dim_IntList](args = (%x, [1]), kwargs = "
      "{keepdim: True})\n"
      "    return (s,)",
      "a");
  auto b = ParseFxText(
      "graph():\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    %s : [num_users=1] = call_function[target=torch.ops.aten.mean.dim](args = (%x, [1]), kwargs = {keepdim: "
      "False})\n"
      "    return (s,)",
      "b");
  ASSERT_TRUE(a.ok() && b.ok());
  NodeMeta meta;
  meta.tensors.push_back(*TensorMeta::ParseAnnotation("f32[2, 2]"));
  (*b)->Find("x")->set_meta(meta);
  GraphDiff diff = DiffGraphs(**a, **b);
  ASSERT_EQ(diff.changed.size(), 2u);
  EXPECT_EQ(diff.changed[0].fields, std::vector<std::string>{"meta"});
  EXPECT_EQ(diff.changed[1].fields, (std::vector<std::string>{"target", "kwargs"}));
}

TEST(UnifiedDiffTest, FormatLikeDiffU) {
  // Expected text is what GNU `diff -u --label a --label b` prints for these inputs.
  std::string a = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n";
  std::string b = "a\nb\nc\nX\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn\n";
  EXPECT_EQ(UnifiedDiff(a, b, "a", "b"),
            "--- a\n+++ b\n"
            "@@ -1,7 +1,7 @@\n a\n b\n c\n-d\n+X\n e\n f\n g\n"
            "@@ -11,3 +11,4 @@\n k\n l\n m\n+n\n");
  EXPECT_EQ(UnifiedDiff("", "x\n", "a", "b"), "--- a\n+++ b\n@@ -0,0 +1 @@\n+x\n");
  EXPECT_EQ(UnifiedDiff("p\nq\n", "x\n", "a", "b"), "--- a\n+++ b\n@@ -1,2 +1 @@\n-p\n-q\n+x\n");
  EXPECT_EQ(UnifiedDiff(a, a, "a", "b"), "");
  // Changes within 2 * context lines share a hunk.
  EXPECT_EQ(UnifiedDiff("1\n2\n3\n4\n5\n", "1\nA\n3\n4\nB\n", "x", "y", 1),
            "--- x\n+++ y\n@@ -1,5 +1,5 @@\n 1\n-2\n+A\n 3\n 4\n-5\n+B\n");
}

size_t LcsLength(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::vector<std::vector<size_t>> t(a.size() + 1, std::vector<size_t>(b.size() + 1, 0));
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      t[i][j] = a[i - 1] == b[j - 1] ? t[i - 1][j - 1] + 1 : std::max(t[i - 1][j], t[i][j - 1]);
    }
  }
  return t[a.size()][b.size()];
}

TEST(UnifiedDiffTest, RandomInputsGiveValidMinimalScripts) {
  std::mt19937 rng(42);
  const std::vector<std::string> alphabet = {"a", "b", "c", "d"};
  for (int round = 0; round < 300; ++round) {
    std::vector<std::string_view> a, b;
    size_t na = rng() % 30, nb = rng() % 30;
    for (size_t i = 0; i < na; ++i) a.push_back(alphabet[rng() % alphabet.size()]);
    for (size_t i = 0; i < nb; ++i) b.push_back(alphabet[rng() % alphabet.size()]);
    std::vector<LineEdit> edits = DiffLines(a, b);
    std::vector<std::string_view> rebuilt_a, rebuilt_b;
    size_t equal = 0;
    for (const LineEdit& e : edits) {
      if (e.kind != LineEdit::Kind::kInsert) rebuilt_a.push_back(a[e.a_line]);
      if (e.kind != LineEdit::Kind::kDelete) rebuilt_b.push_back(b[e.b_line]);
      if (e.kind == LineEdit::Kind::kEqual) {
        ASSERT_EQ(a[e.a_line], b[e.b_line]);
        ++equal;
      }
    }
    ASSERT_EQ(rebuilt_a, a) << "round " << round;
    ASSERT_EQ(rebuilt_b, b) << "round " << round;
    ASSERT_EQ(equal, LcsLength(a, b)) << "round " << round;
  }
}

TEST(UnifiedDiffTest, HundredThousandLines) {
  std::string a, b, c;
  for (int i = 0; i < 100000; ++i) {
    a += fmt::format("    %n{} = call(%n{})\n", i, i - 1);
    b += i % 20000 == 7 ? fmt::format("    %changed{}\n", i) : fmt::format("    %n{} = call(%n{})\n", i, i - 1);
    c += fmt::format("line {}\n", i);
  }
  std::string diff = UnifiedDiff(a, b, "a", "b");
  size_t hunks = 0;
  for (size_t p = diff.find("\n@@ "); p != std::string::npos; p = diff.find("\n@@ ", p + 1)) ++hunks;
  EXPECT_EQ(hunks, 5u);
  EXPECT_NE(diff.find("@@ -5,7 +5,7 @@\n"), std::string::npos) << diff.substr(0, 300);
  // Unrelated texts: every line deleted and inserted, in bounded time.
  std::string all = UnifiedDiff(a, c, "a", "c");
  EXPECT_NE(all.find("@@ -1,100000 +1,100000 @@\n"), std::string::npos);
}

}  // namespace
}  // namespace airscope

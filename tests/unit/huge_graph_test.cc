// Deep and huge inputs (issue 6, point 3): nothing walks a graph with
// recursion proportional to its size, and nothing is quadratic in a node's
// users. A 1,000,000-node chain goes through lint, clone and compare, FX text
// and readable code both ways, lowering to device tasks and dce; the foreign
// formats (airscope JSON, pbtxt both ways, GE text, DOT) take a 200,000-node
// chain, which already needs more stack than a thread has if any of them
// recursed (they are linear but about 20 us/node, so a million nodes would
// cost CI minutes). A node with 100,000 users goes through all of it. The
// sanitizer build runs them at a twentieth of these sizes (kShrink).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "bench/chain_graphs.h"
#include "core/fx/fx_text.h"
#include "core/fx/graph_json.h"
#include "core/fx/readable.h"
#include "core/lower/task_graph.h"
#include "core/ops/shape_inference.h"
#include "core/pass/builtin_passes.h"
#include "viz/dot_writer.h"
#include "formats/ge_writer.h"
#include "formats/pbtxt_reader.h"
#include "formats/pbtxt_writer.h"

namespace airscope {
namespace {

NodeSpec Call(std::string target, std::vector<Argument> args) {
  NodeSpec spec;
  spec.target = std::move(target);
  spec.args = std::move(args);
  return spec;
}

NodeSpec Output(std::vector<Argument> values) {
  NodeSpec spec;
  spec.op = OpKind::kOutput;
  spec.target = spec.name = "output";
  spec.args = {Argument::Tuple(std::move(values))};
  return spec;
}

// The placeholder x: f32[4].
Node* Input(Graph& g) {
  NodeSpec x;
  x.op = OpKind::kPlaceholder;
  x.target = x.name = "x";
  Node* input = *g.AppendNamed(std::move(x));
  NodeMeta meta;
  meta.tensors.push_back(*TensorMeta::ParseAnnotation("f32[4]"));
  input->set_meta(std::move(meta));
  return input;
}

// x: f32[4] read by `users` negs, all of them returned: x has `users` users.
std::unique_ptr<Graph> Fanout(size_t users) {
  auto g = std::make_unique<Graph>("fanout");
  Node* input = Input(*g);
  std::vector<Argument> outs;
  for (size_t i = 0; i < users; ++i) {
    outs.push_back(Argument::NodeRef(g->Append(Call("torch.ops.aten.neg.default", {Argument::NodeRef(input)}))));
  }
  g->Append(Output(std::move(outs)));
  InferShapes(*g, OpRegistry::Builtin());
  return g;
}

void ExpectSame(const Graph& a, const Graph& b, std::string_view what) {
  std::string why;
  EXPECT_TRUE(SameGraph(a, b, &why)) << what << ": " << why;
}

// The IR's own whole-graph algorithms on `g`, each checked for a real result.
void ThroughWalkers(const Graph& g) {
  ASSERT_TRUE(g.Lint().ok()) << g.Lint().message();
  ExpectSame(g, *g.Clone(), "clone");

  std::string fx = PrintFxText(g);
  auto from_fx = ParseFxText(fx, "huge.graph.txt");
  ASSERT_TRUE(from_fx.ok()) << from_fx.status().message();
  EXPECT_EQ(PrintFxText(**from_fx), fx);

  std::string readable = PrintReadable(g);
  auto from_readable = ParseReadable(readable, "huge.readable.py");
  ASSERT_TRUE(from_readable.ok()) << from_readable.status().message();
  EXPECT_EQ((*from_readable)->size(), g.size());

  Result<TaskGraph> tasks = BuildTaskGraph(g, OpRegistry::Builtin());
  ASSERT_TRUE(tasks.ok()) << tasks.status().message();
  EXPECT_EQ(tasks->tasks.size(), g.size() - 2);  // every call is a kernel
}

// The writers and readers of other tools' formats on `g`.
void ThroughForeignFormats(const Graph& g) {
  auto from_json = ParseGraphJson(PrintGraphJson(g), "huge.json");
  ASSERT_TRUE(from_json.ok()) << from_json.status().message();
  ExpectSame(g, **from_json, "json");

  Result<std::string> pbtxt = GraphToPbtxt(g);
  ASSERT_TRUE(pbtxt.ok()) << pbtxt.status().message();
  auto from_pbtxt = ParsePbtxt(*pbtxt, "huge.pbtxt");
  ASSERT_TRUE(from_pbtxt.ok()) << from_pbtxt.status().message();
  EXPECT_EQ((*from_pbtxt)->size(), g.size());
  Result<std::string> ge = GraphToGeText(g, "huge");
  ASSERT_TRUE(ge.ok()) << ge.status().message();

  // Above the DOT limit the writer groups nodes instead of emitting them all.
  Result<std::string> dot = GraphToDot(g);
  ASSERT_TRUE(dot.ok()) << dot.status().message();
  EXPECT_LT(dot->size(), PrintFxText(g).size());
}

// Under AddressSanitizer every access is checked: at a fifth of the sizes these
// tests still took about six CPU minutes of CI's sanitizer run. That run looks
// for memory errors on the same code paths, which a twentieth of the sizes
// (50,000 nodes, 5,000 users) walks just the same; the Release run keeps the
// full sizes, which are what show the walkers are neither recursive nor
// quadratic.
#if defined(__SANITIZE_ADDRESS__)
constexpr size_t kShrink = 20;
#else
constexpr size_t kShrink = 1;
#endif

constexpr size_t kChainLength = 1000000 / kShrink;
constexpr size_t kForeignChainLength = 200000 / kShrink;
constexpr size_t kUsers = 100000 / kShrink;

TEST(HugeGraphTest, MillionNodeChain) {
  std::unique_ptr<Graph> g = ReluChain(kChainLength, "f32[4]");
  ThroughWalkers(*g);
  // dce on a chain whose second half is dead: the output reads the middle.
  Node* middle = g->Find(fmt::format("relu_{}", kChainLength / 2 - 1));
  ASSERT_NE(middle, nullptr);
  g->SetArgs(g->output(), {Argument::Tuple({Argument::NodeRef(middle)})});
  PassContext context;
  Result<bool> changed = DcePass().run(*g, context);
  ASSERT_TRUE(changed.ok()) << changed.status().message();
  EXPECT_TRUE(*changed);
  EXPECT_EQ(g->size(), kChainLength / 2 + 2);
  EXPECT_TRUE(g->Lint().ok());
}

TEST(HugeGraphTest, ForeignFormatsOfALongChain) { ThroughForeignFormats(*ReluChain(kForeignChainLength, "f32[4]")); }

TEST(HugeGraphTest, HundredThousandUsersOfOneNode) {
  std::unique_ptr<Graph> g = Fanout(kUsers);
  EXPECT_EQ(g->Find("x")->users().size(), kUsers);
  ThroughWalkers(*g);
  ThroughForeignFormats(*g);
  // dce with every user dead: the output reads x alone.
  g->SetArgs(g->output(), {Argument::Tuple({Argument::NodeRef(g->Find("x"))})});
  PassContext context;
  Result<bool> changed = DcePass().run(*g, context);
  ASSERT_TRUE(changed.ok()) << changed.status().message();
  EXPECT_EQ(g->size(), 2u);
  EXPECT_TRUE(g->Find("x")->users().ToVector() == std::vector<Node*>{g->output()});
}

}  // namespace
}  // namespace airscope

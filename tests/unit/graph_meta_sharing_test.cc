#include <gtest/gtest.h>

#include "core/ir/graph.h"
#include "tests/unit/graph_test_util.h"

namespace airscope {
namespace {

using testing_util::F32;
using testing_util::ParseForward;

TEST(GraphMetaSharingTest, EqualMetasAreStoredOnceAndStayTheirOwnValues) {
  auto graph = ParseForward("x: \"f32[4, 8]\", y: \"f32[4, 8]\"",
                            "        a: \"f32[4, 8]\" = torch.ops.aten.relu.default(x)\n"
                            "        b: \"f32[4, 8]\" = torch.ops.aten.neg.default(y)\n"
                            "        c: \"f32[8]\" = torch.ops.aten.sum.dim_IntList(b, [0])\n"
                            "        return (a, c)\n");
  Node* a = graph->Find("a");
  Node* b = graph->Find("b");
  Node* c = graph->Find("c");
  EXPECT_EQ(a->meta(), b->meta());  // one f32[4, 8], stored once
  EXPECT_NE(a->meta(), c->meta());
  // Setting one node's meta leaves the other's as it was.
  a->set_meta(F32({2, 2}));
  EXPECT_EQ(a->meta()->ShapeString(), "f32[2, 2]");
  EXPECT_EQ(b->meta()->ShapeString(), "f32[4, 8]");
  // A meta with a stack trace is its own (they rarely repeat).
  NodeMeta traced = F32({4, 8});
  traced.stack_trace = "# File: m.py:1 in forward, code: y.neg()";
  b->set_meta(traced);
  EXPECT_NE(b->meta(), graph->Find("x")->meta());
  EXPECT_EQ(b->meta()->stack_trace, traced.stack_trace);
  // A clone reads the same values; its own new metas do not disturb the original's.
  std::unique_ptr<Graph> copy = graph->Clone();
  copy->Find("c")->set_meta(F32({4, 8}));
  EXPECT_EQ(copy->Find("c")->meta()->ShapeString(), "f32[4, 8]");
  EXPECT_EQ(c->meta()->ShapeString(), "f32[8]");
  // A moved graph keeps sharing.
  Graph moved = std::move(*copy);
  moved.Find("a")->set_meta(F32({8}));
  EXPECT_EQ(moved.Find("a")->meta()->ShapeString(), "f32[8]");
}

}  // namespace
}  // namespace airscope

// GE txt (ge.proto.ModelDef text): exact layout, stream ids, control inputs.
#include "formats/ge_writer.h"
#include "tests/unit/status_test_util.h"
#include "tests/unit/graph_test_util.h"

#include <gtest/gtest.h>

namespace airscope {
namespace {

using testing_util::Spec;

using testing_util::F32;

TEST(GeWriter, ExactLayoutForOneNeg) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Spec(OpKind::kPlaceholder, "x", {}, "x")));
  x->set_meta(F32({2}));
  ASSERT_OK_AND_ASSIGN(Node * neg, g.AppendNamed(Spec(OpKind::kCallFunction, "torch.ops.aten.neg.default",
                                                      {Argument::NodeRef(x)}, "neg")));
  neg->set_meta(F32({2}));
  (void)*g.AppendNamed(Spec(OpKind::kOutput, "output", {Argument::Tuple({Argument::NodeRef(neg)})}, "output"));
  auto text = GraphToGeText(g, "m");
  ASSERT_TRUE(text.ok());
  const char* neg_op =
      "  op {\n"
      "    name: \"Neg\"\n"
      "    type: \"Neg\"\n"
      "    input: \"x:0\"\n"
      "    attr {\n"
      "      key: \"_input_name_key\"\n"
      "      value {\n"
      "        list {\n"
      "          s: \"x\"\n"
      "        }\n"
      "      }\n"
      "    }\n";
  EXPECT_EQ(text->rfind("name: \"m\"\ngraph {\n  name: \"m\"\n  op {\n    name: \"x\"\n    type: \"Data\"\n", 0), 0u)
      << *text;
  EXPECT_NE(text->find(neg_op), std::string::npos) << *text;
  EXPECT_NE(
      text->find("    output_desc {\n      name: \"y\"\n      dtype: DT_FLOAT\n      shape {\n        dim: 2\n"
                 "      }\n      layout: \"ND\"\n      attr {\n        key: \"_meta\"\n        value {\n"
                 "          s: \"Tensor(dtype=torch.float32, shape=torch.Size([2])\"\n        }\n      }\n    }\n"),
      std::string::npos);
  EXPECT_NE(text->find("    name: \"NetOutput\"\n    type: \"NetOutput\"\n    input: \"Neg:0\"\n"), std::string::npos);
  EXPECT_EQ(text->find("stream_id"), std::string::npos);  // default stream: proto3 default, omitted
  EXPECT_TRUE(text->ends_with("  }\n}\n"));
}

TEST(GeWriter, StreamsNumberedByFirstAppearanceAndControlInputs) {
  Graph g;
  ASSERT_OK_AND_ASSIGN(Node * x, g.AppendNamed(Spec(OpKind::kPlaceholder, "x", {}, "x")));
  x->set_meta(F32({2}));
  ASSERT_OK_AND_ASSIGN(
      Node * a, g.AppendNamed(Spec(OpKind::kCallFunction, "torch.ops.aten.abs.default", {Argument::NodeRef(x)}, "a")));
  ASSERT_OK_AND_ASSIGN(Node * rec, g.AppendNamed(Spec(OpKind::kCallFunction, "torch.ops.air.record.default",
                                                      {Argument::NodeRef(a)}, "rec")));
  ASSERT_OK_AND_ASSIGN(
      Node * b, g.AppendNamed(Spec(OpKind::kCallFunction, "torch.ops.aten.exp.default", {Argument::NodeRef(x)}, "b")));
  ASSERT_OK_AND_ASSIGN(
      Node * c, g.AppendNamed(Spec(OpKind::kCallFunction, "torch.ops.aten.neg.default", {Argument::NodeRef(a)}, "c")));
  (void)*g.AppendNamed(
      Spec(OpKind::kOutput, "output", {Argument::Tuple({Argument::NodeRef(b), Argument::NodeRef(c)})}, "output"));
  g.SetStream(a, "s_late");
  g.SetStream(rec, "s_late");
  g.SetStream(b, "s_other");
  g.SetKwargs(c, {Kwarg{"_control_deps", Argument::List({Argument::NodeRef(rec)})}});
  auto text = GraphToGeText(g, "m");
  ASSERT_TRUE(text.ok());
  auto op_block = [&](std::string_view name) {
    size_t at = text->find(fmt::format("    name: \"{}\"\n", name));
    return at == std::string::npos ? std::string() : text->substr(at, text->find("\n  }\n", at) - at);
  };
  EXPECT_NE(op_block("Abs").find("stream_id: 1\n"), std::string::npos);
  EXPECT_NE(op_block("rec").find("stream_id: 1\n"), std::string::npos);
  EXPECT_NE(op_block("Exp").find("stream_id: 2\n"), std::string::npos);
  EXPECT_NE(op_block("Exp").find("value {\n        s: \"s_other\"\n"), std::string::npos);
  EXPECT_EQ(op_block("Neg").find("stream_id"), std::string::npos);
  EXPECT_NE(op_block("Neg").find("input: \"rec:-1\"\n    input: \"Abs:0\"\n"), std::string::npos) << op_block("Neg");
  // Attrs are map entries: sorted by key.
  std::string abs = op_block("Abs");
  EXPECT_LT(abs.find("_input_name_key"), abs.find("_user_stream_label"));
}

TEST(GeWriter, EscapesModelName) {
  Graph g;
  (void)*g.AppendNamed(Spec(OpKind::kOutput, "output", {Argument::Tuple({})}, "output"));
  auto text = GraphToGeText(g, "a\"b");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->rfind("name: \"a\\\"b\"\n", 0), 0u);
}

}  // namespace
}  // namespace airscope

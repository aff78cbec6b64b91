// torch FunctionSchema text as `op define` reads it (core/ops/op_schema.h).
#include "core/ops/op_schema.h"

#include <gtest/gtest.h>

namespace airscope {
namespace {

TEST(OpSchemaTest, ParsesArgumentsAliasesAndReturns) {
  auto s = ParseOpSchema("custom::sin_cos(Tensor x, Tensor(a!) out_sin, Tensor(b!) out_cos) -> None");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->Target(), "custom.sin_cos.default");
  EXPECT_EQ(s->QualifiedName(), "custom::sin_cos");
  ASSERT_EQ(s->arguments.size(), 3u);
  EXPECT_FALSE(s->arguments[0].is_write);
  EXPECT_TRUE(s->arguments[1].is_write);
  EXPECT_EQ(s->arguments[1].alias, "a");
  EXPECT_EQ(s->arguments[1].type, "Tensor");
  EXPECT_EQ(s->MutableArgNames(), (std::vector<std::string>{"out_sin", "out_cos"}));
  ASSERT_EQ(s->ReturnCount(), 1u);
  EXPECT_EQ(s->returns[0].type, "None");
}

TEST(OpSchemaTest, OverloadKwargOnlyDefaultsAndTupleReturns) {
  auto s = ParseOpSchema(
      "custom::custom_infer.out(Tensor data, Tensor other, *, Tensor(a!) out, str mode='a,b', int[] dims=[1, 2]) "
      "-> (Tensor(a!) values, Tensor indices)");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->Target(), "custom.custom_infer.out");
  EXPECT_EQ(s->QualifiedName(), "custom::custom_infer.out");
  ASSERT_EQ(s->arguments.size(), 5u);
  EXPECT_FALSE(s->arguments[1].kwarg_only);
  EXPECT_TRUE(s->arguments[2].kwarg_only);
  EXPECT_EQ(s->arguments[3].default_value, "'a,b'");
  EXPECT_EQ(s->arguments[4].default_value, "[1, 2]");
  EXPECT_EQ(s->arguments[4].type, "int[]");
  ASSERT_EQ(s->ReturnCount(), 2u);
  EXPECT_EQ(s->returns[0].name, "values");
  EXPECT_TRUE(s->returns[0].IsTensor());
}

TEST(OpSchemaTest, TensorListsAndEmptyReturns) {
  auto s = ParseOpSchema("custom::mutate_op(Tensor(a!)[] y) -> ()");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_TRUE(s->arguments[0].IsTensorList());
  EXPECT_TRUE(s->arguments[0].is_write);
  EXPECT_EQ(s->ReturnCount(), 0u);
  auto view = ParseOpSchema("aten::alias(Tensor(a) self) -> Tensor(a)");
  ASSERT_TRUE(view.ok()) << view.status().message();
  EXPECT_FALSE(view->arguments[0].is_write);
  EXPECT_EQ(view->arguments[0].alias, "a");
}

TEST(OpSchemaTest, RefusesWhatDoesNotParse) {
  for (const char* bad : {"sin(Tensor x) -> Tensor",             // no namespace
                          "custom::sin(Tensor x -> Tensor",      // no ')'
                          "custom::sin(Tensor x)",               // no returns
                          "custom::sin(Tensor) -> Tensor",       // no argument name
                          "custom::sin(Tensor(a! x) -> Tensor",  // alias without ')'
                          "custom::sin(Tensor x, Tensor x) -> Tensor", "custom::sin(Tensor x, *, *, int y) -> Tensor",
                          "custom::sin(Tensor x=) -> Tensor"}) {
    EXPECT_FALSE(ParseOpSchema(bad).ok()) << bad;
  }
}

TEST(OpSchemaTest, DefineOnceAsTorchLibraryDoes) {
  OpSchemaTable table = OpSchemaTable::Builtin();
  ASSERT_TRUE(table.Define("custom::sin(Tensor x, Tensor(a!) result) -> None").ok());
  EXPECT_TRUE(table.Define("custom::sin(Tensor x, Tensor(a!) result) -> None").ok());  // the same text again
  Status again = table.Define("custom::sin(Tensor x) -> Tensor");
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.message().find("Tried to register an operator (custom::sin) with the same name and overload name "
                                 "multiple times"),
            std::string::npos);
  EXPECT_NE(table.Find("torch.ops.custom.sin.default"), nullptr);
  EXPECT_FALSE(table.IsBuiltin("custom.sin.default"));
  EXPECT_TRUE(table.IsBuiltin("npu.npu_add_rms_norm_v2_functional.default"));
  EXPECT_EQ(table.Find("npu.npu_add_rms_norm_v2_functional.default")->ReturnCount(), 3u);
}

}  // namespace
}  // namespace airscope

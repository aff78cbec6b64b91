// torch FunctionSchema text as `op define` reads it (core/ops/op_schema.h).
#include "core/ops/op_schema.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <fmt/format.h>

#include "status_test_util.h"

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

TEST(OpSchemaTest, ReadsTorchsSyntaxForAliasesDefaultsAndReturns) {
  ASSERT_OK_AND_ASSIGN(OpSchema s,
                       ParseOpSchema("ns::name.overload(Tensor(a!) x, *, float eps=1e-06, str mode='Norm', "
                                     "int[2] k=[1,1], Tensor? w=None, str sep=\", ()\") -> (Tensor, Tensor)"));
  EXPECT_EQ(s.Target(), "ns.name.overload");
  ASSERT_EQ(s.arguments.size(), 6u);
  EXPECT_TRUE(s.arguments[0].is_write);
  EXPECT_FALSE(s.arguments[0].kwarg_only);
  EXPECT_TRUE(s.arguments[1].kwarg_only);
  EXPECT_EQ(s.arguments[1].default_value, "1e-06");
  EXPECT_EQ(s.arguments[2].default_value, "'Norm'");
  EXPECT_EQ(s.arguments[3].type, "int[2]");
  EXPECT_EQ(s.arguments[3].default_value, "[1,1]");
  EXPECT_EQ(s.arguments[4].type, "Tensor?");
  EXPECT_TRUE(s.arguments[4].IsTensor());
  EXPECT_EQ(s.arguments[5].default_value, "\", ()\"");  // a comma and brackets inside a string
  EXPECT_EQ(s.ReturnCount(), 2u);

  // `Tensor(a -> *)`: an alias into a wildcard set (a view), not a write; `-> Tensor(a!)`: one return.
  ASSERT_OK_AND_ASSIGN(OpSchema view, ParseOpSchema("aten::view(Tensor(a -> *) self, SymInt[] size) -> Tensor(a!)"));
  EXPECT_EQ(view.arguments[0].alias, "a");
  EXPECT_FALSE(view.arguments[0].is_write);
  ASSERT_EQ(view.ReturnCount(), 1u);
  EXPECT_EQ(view.returns[0].alias, "a");
  EXPECT_TRUE(view.returns[0].is_write);

  // A default is a Python literal: a string may hold its own quote, escaped.
  ASSERT_OK_AND_ASSIGN(OpSchema quoted, ParseOpSchema(R"(custom::f(Tensor x, str s='it\'s)') -> Tensor)"));
  EXPECT_EQ(quoted.arguments[1].default_value, R"('it\'s)')");

  // Spaces anywhere between tokens; the text is kept trimmed.
  ASSERT_OK_AND_ASSIGN(OpSchema spaced, ParseOpSchema("  custom::f ( Tensor (a!)? x , * , int y = 3 ) -> ( )  "));
  EXPECT_EQ(spaced.text, "custom::f ( Tensor (a!)? x , * , int y = 3 ) -> ( )");
  EXPECT_EQ(spaced.arguments[0].type, "Tensor?");
  EXPECT_EQ(spaced.arguments[1].default_value, "3");
  EXPECT_EQ(spaced.ReturnCount(), 0u);
}

// The message of ParseOpSchema(text)'s error, which must be refused.
std::string SchemaError(std::string_view text) {
  Result<OpSchema> schema = ParseOpSchema(text);
  return schema.ok() ? "(accepted)" : schema.status().message();
}

// "column C: message", the schema, and a caret under column C.
std::string Pointed(std::string_view text, size_t column, std::string_view message) {
  return fmt::format("column {}: {}\n    {}\n    {}^", column, message, text, std::string(column - 1, ' '));
}

TEST(OpSchemaTest, ErrorsPointAtTheSpot) {
  struct Case {
    const char* text;
    size_t column;
    const char* message;
  };
  for (const Case& c : std::vector<Case>{
           {"sin(Tensor x) -> Tensor", 1,
            "the op name needs its namespace, as in custom::sin (the Library's namespace)"},
           {"custom::sin(Tensor(a! x) -> Tensor", 23, "expected ')' to close the alias annotation"},
           {"custom::sin(Tensor x -> Tensor", 22, "expected ',' or ')' after argument 'x'"},
           {"custom::sin(Tensor) -> Tensor", 19, "expected the argument's name after its type 'Tensor'"},
           {"custom::sin(Tensor x, Tensor x) -> Tensor", 30, "argument name 'x' given twice"},
           {"custom::sin(Tensor x, *, *) -> Tensor", 26, "'*' given twice"},
           {"custom::sin(Tensor x=) -> Tensor", 21, "'=' without a default for 'x'"},
           {"custom::sin(int[2] k=[1,1) -> Tensor", 26, "expected ']' to close the '['"},
           {"custom::sin(str s='abc) -> Tensor", 19, "unterminated string (expected a closing ')"},
           {"custom::sin(Tensor x)", 22, "expected '-> RETURNS' after the arguments"},
           {"custom::sin(Tensor x) -> (Tensor,)", 34, "expected a return type (Tensor, None, ...)"},
           {"custom::sin(Tensor x) -> Tensor x y", 35, "unexpected text after the returns"},
       }) {
    EXPECT_EQ(SchemaError(c.text), Pointed(c.text, c.column, c.message)) << c.text;
  }
}

TEST(OpSchemaTest, AShellWordsErrorsNameItsColumnOnTheLineAndLeaveTheQuoteToTheShell) {
  // `op define "custom::sin(Tensor(a! x) -> Tensor"`: the schema starts at column 12 of the line.
  std::string text = "custom::sin(Tensor(a! x) -> Tensor";
  Result<OpSchema> plain = ParseOpSchema(text, {.filename = {}, .line = 0, .column = 12, .quote_source = false});
  ASSERT_FALSE(plain.ok());
  EXPECT_EQ(plain.status().message(), "column 34: expected ')' to close the alias annotation");
  EXPECT_EQ(plain.status().unquoted_column(), 34u);
  // Quotes and escapes move the schema's bytes on the line: the word's own columns say where each was typed.
  std::vector<size_t> columns;
  for (size_t i = 0; i <= text.size(); ++i) columns.push_back(i < 5 ? 12 + i : 14 + i);
  Result<OpSchema> moved =
      ParseOpSchema(text, {.filename = {}, .line = 0, .column = 12, .quote_source = false, .columns = columns});
  ASSERT_FALSE(moved.ok());
  EXPECT_EQ(moved.status().unquoted_column(), 36u);
  EXPECT_EQ(moved.status().message(), "column 36: expected ')' to close the alias annotation");
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

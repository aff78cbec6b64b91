// A shell error about a column of the command line (a handler's ColumnError,
// core/scanner.h) quotes that line with a caret under the column, once, by
// the interpreter that ran the line: in scripts, `-c` statements, `source`d
// files, captured commands (expect) and with `> FILE`.
#include <algorithm>
#include <fstream>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "core/scanner.h"
#include "repl/interpreter.h"
#include "repl/tokenizer.h"
#include "shell_test_util.h"
#include "status_test_util.h"

namespace airscope {
namespace {

using Shell = testing_shell::TestShell;

using testing_shell::WriteTemp;

// `line` quoted as core/scanner.h quotes it, with a caret under `column`.
std::string Quote(std::string_view line, size_t column) {
  return fmt::format("\n    {}\n    {}^", line, std::string(column - 1, ' '));
}

size_t Carets(std::string_view message) { return std::count(message.begin(), message.end(), '^'); }

TEST(ColumnErrorsTest, AWordKnowsWhereEachOfItsBytesWasTyped) {
  ASSERT_OK_AND_ASSIGN(std::vector<Word> words, Tokenize(R"(op define "a\"b" my\ x plain)"));
  ASSERT_EQ(words.size(), 5u);
  // "a\"b": a at 12, the escaped quote at its backslash (13), b at 15, the end at the closing quote (16).
  EXPECT_EQ(words[2].text, "a\"b");
  EXPECT_EQ(words[2].columns, (std::vector<size_t>{12, 13, 15, 16}));
  EXPECT_EQ(words[3].text, "my x");
  EXPECT_EQ(words[3].columns, (std::vector<size_t>{18, 19, 20, 22, 23}));
  EXPECT_TRUE(words[4].columns.empty());  // typed as it reads: its columns follow from `column`
}

TEST(ColumnErrorsTest, TheLineIsQuotedUnderTheHeadline) {
  Shell shell;
  Status status = shell.interpreter.ExecuteLine("expect nodes x");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "column 14: expected a count, got 'x'" + Quote("expect nodes x", 14));
  // Redirected output does not change what the error points into: the whole line is quoted.
  std::string file = testing::TempDir() + "/column_errors_out.txt";
  Status redirected = shell.interpreter.ExecuteLine("expect nodes x > " + file);
  ASSERT_FALSE(redirected.ok());
  EXPECT_EQ(redirected.message(), "column 14: expected a count, got 'x'" + Quote("expect nodes x > " + file, 14));
}

TEST(ColumnErrorsTest, ScriptsAndCommandTextQuoteTheirOwnStatement) {
  Shell shell;
  std::string script = WriteTemp("column.airscript", "echo one\nexpect graphs many\necho never\n");
  EXPECT_FALSE(shell.interpreter.RunScript(script).ok());
  ASSERT_EQ(shell.sink.errors.size(), 1u);
  EXPECT_EQ(shell.sink.errors[0],
            script + ":2: column 15: expected a count, got 'many'" + Quote("expect graphs many", 15));
  // `-c` text: a statement is quoted as it stands between the ';', and its columns count from its start.
  EXPECT_FALSE(shell.interpreter.RunCommandText("echo a; expect graphs many; echo never").ok());
  ASSERT_EQ(shell.sink.errors.size(), 2u);
  EXPECT_EQ(shell.sink.errors[1], "-c:2: column 16: expected a count, got 'many'" + Quote(" expect graphs many", 16));
}

TEST(ColumnErrorsTest, ASourcedScriptsErrorIsQuotedOnceWhereItHappened) {
  Shell shell;
  std::string inner = WriteTemp("column_inner.airscript", "echo in\nexpect graphs many\n");
  std::string outer = WriteTemp("column_outer.airscript", "source column_inner.airscript\necho never\n");
  Status status = shell.interpreter.RunScript(outer);
  ASSERT_FALSE(status.ok());
  ASSERT_EQ(shell.sink.errors.size(), 1u);  // reported by the inner script, not again by the outer one
  EXPECT_EQ(shell.sink.errors[0],
            inner + ":2: column 15: expected a count, got 'many'" + Quote("expect graphs many", 15));
  EXPECT_EQ(Carets(status.message()), 1u);
}

TEST(ColumnErrorsTest, ACapturedCommandQuotesItsOwnText) {
  Shell shell;
  ASSERT_TRUE(shell.interpreter.ExecuteLine("expect error \"expect graphs many\" contains \"a count\"").ok());
  EXPECT_EQ(shell.sink.text,
            "error (as expected): column 15: expected a count, got 'many'" + Quote("expect graphs many", 15) + "\n");
  // A mismatch keeps the captured error's quoted lines last, under the whole headline.
  Status mismatch = shell.interpreter.ExecuteLine("expect error \"expect graphs many\" contains \"nope\"");
  ASSERT_FALSE(mismatch.ok());
  EXPECT_EQ(
      mismatch.message(),
      "expect failed: error of \"expect graphs many\": expected to contain \"nope\", actual \"column 15: expected "
      "a count, got 'many'\"" +
          Quote("expect graphs many", 15));
}

TEST(ColumnErrorsTest, AnErrorThatQuotesItsOwnSourceIsNotQuotedAgain) {
  Shell shell;
  Status status = shell.interpreter.ExecuteLine("echo \"open");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(), "column 6: unterminated double quote" + Quote("echo \"open", 6));
}

TEST(ColumnErrorsTest, OpDefinePointsIntoTheSchemaWhereItWasTyped) {
  Shell shell;
  std::string line = R"(op define "custom::sin(Tensor(a! x) -> Tensor")";
  Status status = shell.interpreter.ExecuteLine(line);
  ASSERT_FALSE(status.ok());
  size_t column = line.find("x)") + 1;
  EXPECT_EQ(status.message(),
            fmt::format("column {}: expected ')' to close the alias annotation", column) + Quote(line, column));
  // Escaped quotes in the word move the bytes after them: the caret still lands under the spot.
  std::string escaped = R"(op define "custom::f(str s=\"a\", Tensor(a! y) -> Tensor")";
  Status moved = shell.interpreter.ExecuteLine(escaped);
  ASSERT_FALSE(moved.ok());
  size_t y = escaped.find("y)") + 1;
  EXPECT_EQ(moved.message(),
            fmt::format("column {}: expected ')' to close the alias annotation", y) + Quote(escaped, y));
  // Refused as torch refuses it: another schema for a defined name points at the schema.
  ASSERT_TRUE(shell.interpreter.ExecuteLine(R"(op define "custom::sin(Tensor x) -> Tensor")").ok());
  Status again = shell.interpreter.ExecuteLine(R"(op define "custom::sin(Tensor y) -> Tensor")");
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(
      ErrorHeadline(again.message()).rfind("column 11: RuntimeError: Tried to register an operator (custom::sin)", 0),
      0u)
      << again.message();
  EXPECT_EQ(Carets(again.message()), 1u);
}

TEST(ColumnErrorsTest, DecompAddPointsIntoTheTemplateWhereItWasTyped) {
  Shell shell;
  std::string line = R"x(decomp add aten.relu.default "aten.mul.Tensor($0 $1)")x";
  Status status = shell.interpreter.ExecuteLine(line);
  ASSERT_FALSE(status.ok());
  size_t column = line.find("$1") + 1;
  EXPECT_EQ(status.message(), fmt::format("template for aten.relu.default: column {}: expected ',' or ')'", column) +
                                  Quote(line, column));
}

}  // namespace
}  // namespace airscope

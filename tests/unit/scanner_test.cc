// core/scanner: the cursor the hand-written grammars share, and its one error
// format (ninja's: FILE:LINE:COL, the source line, a caret under the spot).
#include "core/scanner.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace airscope {
namespace {

TEST(Scanner, PrimitivesMoveTheCursorOnlyOnAMatch) {
  Scanner scan("  foo_1.bar = 42, 'x'");
  EXPECT_EQ(scan.Ident(), "");  // at a space: nothing, and no move
  EXPECT_EQ(scan.pos(), 0u);
  EXPECT_EQ(scan.SkipSpaces(), 2u);
  EXPECT_EQ(scan.Ident(), "foo_1");
  EXPECT_FALSE(scan.Consume(" = "));
  EXPECT_TRUE(scan.Consume('.'));
  EXPECT_EQ(scan.Word(), "bar");
  EXPECT_TRUE(scan.Expect(" = ", "expected '='").ok());
  int64_t value = 0;
  EXPECT_EQ(scan.Integer(&value), std::errc());
  EXPECT_EQ(value, 42);
  EXPECT_EQ(scan.Since(14), "42");
  EXPECT_EQ(scan.Peek(), ',');
  EXPECT_EQ(scan.Peek(2), '\'');
  EXPECT_EQ(scan.Next(), ',');
  scan.SkipSpaces();
  std::string text;
  ASSERT_TRUE(scan.QuotedString(&text));
  EXPECT_EQ(text, "x");
  EXPECT_TRUE(scan.AtEnd());
  EXPECT_EQ(scan.Peek(), '\0');
  EXPECT_EQ(scan.Next(), '\0');  // at the end: nothing, and no move
  EXPECT_EQ(scan.pos(), scan.text().size());
}

TEST(Scanner, IntegerRefusesWhatIsNotThereOrDoesNotFit) {
  int64_t value = 7;
  Scanner none("abc");
  EXPECT_EQ(none.Integer(&value), std::errc::invalid_argument);
  EXPECT_EQ(none.pos(), 0u);
  Scanner big("99999999999999999999");
  EXPECT_EQ(big.Integer(&value), std::errc::result_out_of_range);
  EXPECT_EQ(big.pos(), 0u);
  EXPECT_EQ(value, 7);  // untouched on failure
  Scanner negative("-12]");
  EXPECT_EQ(negative.Integer(&value), std::errc());
  EXPECT_EQ(value, -12);
  EXPECT_EQ(negative.Rest(), "]");
}

TEST(Scanner, LimitStopsTheCursorButErrorsQuoteTheWholeLine) {
  Scanner scan("erase; set stream s1", {"r.txt", 3});
  scan.Limit(5);
  EXPECT_EQ(scan.Word(), "erase");
  EXPECT_TRUE(scan.AtEnd());
  EXPECT_FALSE(scan.Consume(';'));
  EXPECT_EQ(scan.scannable(), "erase");
  EXPECT_EQ(scan.ErrorHere("expected the end").message(),
            "r.txt:3:6: expected the end\n"
            "    erase; set stream s1\n"
            "         ^");
}

TEST(Scanner, ErrorNamesFileLineAndColumnAndPutsACaretUnderIt) {
  std::string text = "graph():\n    %x [num_users=0] = placeholder[target=x]\n    return x\n";
  Scanner scan(text, {"t.graph.txt", 1});
  size_t at = text.find(" [num");
  EXPECT_EQ(scan.Error(at, "expected ' : ' after the node name").message(),
            "t.graph.txt:2:7: expected ' : ' after the node name\n"
            "        %x [num_users=0] = placeholder[target=x]\n"
            "          ^");
  // Just past the end of a line: the caret follows its last character.
  EXPECT_EQ(scan.Error(text.find("\n    return"), "here").message(),
            "t.graph.txt:2:45: here\n"
            "        %x [num_users=0] = placeholder[target=x]\n"
            "                                                ^");
  // An empty line has nothing to point into: the headline alone.
  Scanner blank("a\n\nb", {"f", 1});
  EXPECT_EQ(blank.Error(2, "blank").message(), "f:2:1: blank");
}

TEST(Scanner, LocationFormatsFollowWhatIsKnown) {
  // A numbered line without a file (a `pass define` block).
  Scanner block("  on x: erase", {.filename = {}, .line = 4});
  EXPECT_EQ(block.Error(5, "m").message(), "line 4, column 6: m\n      on x: erase\n         ^");
  // A command's argument: columns only, counted from the argument's own column.
  Scanner word("f32[2,x]", {.filename = {}, .line = 0, .column = 12, .quote_source = false});
  EXPECT_EQ(word.Error(6, "expected a size").message(), "column 18: expected a size");
  // A text that starts mid-line (column 5 of line 10): only its first line is shifted.
  Scanner mid("ab\ncd", {"f.py", 10, 5});
  EXPECT_EQ(ErrorHeadline(mid.Error(1, "m").message()), "f.py:10:6: m");
  EXPECT_EQ(ErrorHeadline(mid.Error(4, "m").message()), "f.py:11:2: m");
}

TEST(Scanner, QuotedLineKeepsTabsAndShowsOneCaretColumnPerCharacter) {
  // A tab stays a tab above and below, so the caret lines up however wide tabs are.
  EXPECT_EQ(QuoteSourceLine("\tx = y", 5), "\n    \tx = y\n    \t    ^");
  // A two-byte UTF-8 character is one space under it; columns still count bytes.
  EXPECT_EQ(QuoteSourceLine("é = ?", 5), "\n    é = ?\n        ^");
  // Control bytes and broken UTF-8 show as '?'.
  EXPECT_EQ(QuoteSourceLine(std::string("a\x01\xff"), 2), "\n    a??\n      ^");
  // A CR before the LF is not part of the quoted line.
  Scanner crlf("abc\r\ndef", {"f", 1});
  EXPECT_EQ(crlf.Error(1, "m").message(), "f:1:2: m\n    abc\n     ^");
}

TEST(Scanner, LongLinesAreCutAroundTheColumn) {
  std::string line = std::string(200, 'a') + "X" + std::string(200, 'b');
  std::string quoted = QuoteSourceLine(line, 200);
  size_t shown_start = quoted.find("...");
  ASSERT_NE(shown_start, std::string::npos);
  std::string shown = quoted.substr(1, quoted.find('\n', 1) - 1);
  std::string caret = quoted.substr(quoted.find('\n', 1) + 1);
  EXPECT_EQ(shown.substr(0, 7), "    ...");
  EXPECT_EQ(shown.substr(shown.size() - 3), "...");
  EXPECT_EQ(shown.size(), 4 + 3 + Scanner::kMaxQuoted + 3);
  // The caret sits under the X.
  EXPECT_EQ(caret.size() - 1, shown.find('X'));
  EXPECT_EQ(caret.back(), '^');
}

TEST(Scanner, PythonStringsKeepUnknownEscapesAndReadHex) {
  Scanner scan(R"('a\n\x41\q' "unterminated)");
  std::string out;
  ASSERT_TRUE(scan.QuotedString(&out, QuoteStyle::kPython));
  EXPECT_EQ(out, "a\nA\\q");
  scan.SkipSpaces();
  size_t open = scan.pos();
  EXPECT_FALSE(scan.QuotedString(&out, QuoteStyle::kPython));
  EXPECT_EQ(scan.failure_pos(), open);
  EXPECT_EQ(ErrorHeadline(scan.Failure().message()), "line 1, column 13: unterminated string (expected a closing \")");
  Scanner bad_hex(R"('\xZZ')");
  EXPECT_FALSE(bad_hex.QuotedString(&out));
  EXPECT_EQ(bad_hex.failure_message(), "bad \\x escape in string");
  EXPECT_EQ(bad_hex.failure_pos(), 1u);
}

TEST(Scanner, ProtobufStringsReadCEscapesAndStopAtTheLineEnd) {
  Scanner scan(R"("\101\x4a\t\?" 'it''s')");
  std::string out;
  ASSERT_TRUE(scan.QuotedString(&out, QuoteStyle::kProtobuf));
  EXPECT_EQ(out, "AJ\t?");
  Scanner unknown(R"("\q")");
  EXPECT_FALSE(unknown.QuotedString(&out, QuoteStyle::kProtobuf));
  EXPECT_EQ(unknown.failure_message(), "unknown escape '\\q'");
  EXPECT_EQ(unknown.failure_pos(), 1u);
  Scanner cut("\"abc\ndef\"", {"g.pbtxt", 1});
  EXPECT_FALSE(cut.QuotedString(&out, QuoteStyle::kProtobuf));
  EXPECT_EQ(cut.Failure().message(), "g.pbtxt:1:1: unterminated string\n    \"abc\n    ^");
}

TEST(Scanner, AWordsErrorsCarryTheirColumnUntilTheLineIsQuoted) {
  // A command's argument: the parser does not hold the line, so the error names the column and quotes nothing.
  std::string line = "call x=f32[2,x]";
  Scanner word("x=f32[2,x]", {.filename = {}, .line = 0, .column = 6, .quote_source = false});
  Status error = word.Error(8, "expected a size");
  EXPECT_EQ(error.message(), "column 14: expected a size");
  EXPECT_EQ(error.unquoted_column(), 14u);
  // The code that ran the line quotes it once; the quoted lines stay last, after words added to the headline.
  Status quoted = QuoteUnquotedColumn(WithHeadlineSuffix(error.WithPrefix("call"), " (sizes are numbers)"), line);
  EXPECT_EQ(quoted.message(),
            "call: column 14: expected a size (sizes are numbers)\n"
            "    call x=f32[2,x]\n"
            "                 ^");
  EXPECT_EQ(quoted.unquoted_column(), 0u);
  EXPECT_EQ(QuoteUnquotedColumn(quoted, line).message(), quoted.message());  // never twice
  // Errors without a column, and one that quotes its own source already, stay as they are.
  EXPECT_EQ(QuoteUnquotedColumn(Status::Error("plain"), line).message(), "plain");
  Status own = ColumnError(3, "bad template\n    $0 +\n       ^");
  EXPECT_EQ(own.unquoted_column(), 0u);
  EXPECT_EQ(QuoteUnquotedColumn(own, line).message(), "column 3: bad template\n    $0 +\n       ^");
  EXPECT_EQ(ColumnErrorf(5, "no input '{}'", "z").message(), "column 5: no input 'z'");
}

TEST(Scanner, AQuotedWordsColumnsSayWhereEachByteWasTyped) {
  // `echo "a\"b"`: the word's text a"b was typed at columns 7, 8 (the backslash) and 10; its end at 11.
  std::vector<size_t> columns = {7, 8, 10, 11};
  Scanner word("a\"b", {.filename = {}, .line = 0, .column = 6, .quote_source = false, .columns = columns});
  EXPECT_EQ(word.Error(2, "m").unquoted_column(), 10u);
  EXPECT_EQ(word.Error(3, "m").unquoted_column(), 11u);
}

TEST(Scanner, HeadlineSuffixGoesAboveTheQuotedLines) {
  Scanner scan("set strem s1", {.filename = {}, .line = 2});
  Status located = WithHeadlineSuffix(scan.Error(4, "expected 'stream'"), " (type it again)");
  EXPECT_EQ(located.message(), "line 2, column 5: expected 'stream' (type it again)\n    set strem s1\n        ^");
  EXPECT_EQ(WithHeadlineSuffix(Status::Error("plain"), "!").message(), "plain!");
  EXPECT_TRUE(WithHeadlineSuffix(Status::Ok(), "!").ok());
  EXPECT_EQ(ErrorHeadline(located.message()), "line 2, column 5: expected 'stream' (type it again)");
}

}  // namespace
}  // namespace airscope

// core/text.h: the shared string helpers.
#include "core/text.h"

#include <gtest/gtest.h>

namespace airscope {
namespace {

TEST(TextTest, TrimRemovesOnlyTheNamedCharacters) {
  EXPECT_EQ(Trim("  a b  ", " "), "a b");
  EXPECT_EQ(Trim("\t a \t", " "), "\t a \t");  // a tab is not a space unless named
  EXPECT_EQ(Trim("\t a \t", " \t"), "a");
  EXPECT_EQ(TrimLeft(" \tx \r", " \t"), "x \r");
  EXPECT_EQ(TrimRight(" \tx \r", " \t\r"), " \tx");
  EXPECT_EQ(Trim("   ", " "), "");
  EXPECT_EQ(Trim("", " "), "");
}

TEST(TextTest, JoinAtMostCountsWhatItLeavesOut) {
  EXPECT_EQ(JoinAtMost({}, 2), "");
  EXPECT_EQ(JoinAtMost({"a", "b"}, 2), "a, b");
  EXPECT_EQ(JoinAtMost({"a", "b", "c", "d"}, 2), "a, b ... and 2 more");
}

TEST(TextTest, IndentLinesAfterFirstKeepsTheFirstLineAsItIs) {
  EXPECT_EQ(IndentLinesAfterFirst("a", 2), "a");
  EXPECT_EQ(IndentLinesAfterFirst("failed:\nRuntimeError: x", 4), "failed:\n    RuntimeError: x");
}

TEST(TextTest, CountDigitsAtCountsTheRunAtPos) {
  EXPECT_EQ(CountDigitsAt("pid_4217x", 4), 4u);
  EXPECT_EQ(CountDigitsAt("pid_4217x", 0), 0u);
  EXPECT_EQ(CountDigitsAt("12", 2), 0u);   // at the end
  EXPECT_EQ(CountDigitsAt("12", 99), 0u);  // past it
}

TEST(TextTest, DigitsValueReadsAtMostEighteenDigits) {
  EXPECT_EQ(DigitsValue("0"), 0);
  EXPECT_EQ(DigitsValue("4217"), 4217);
  EXPECT_EQ(DigitsValue("123456789012345678"), 123456789012345678);
  EXPECT_EQ(DigitsValue("1234567890123456789999"), 123456789012345678);  // no overflow
}

TEST(TextTest, CharacterClassesAreAscii) {
  EXPECT_TRUE(IsDigit('0'));
  EXPECT_TRUE(IsDigit('9'));
  EXPECT_FALSE(IsDigit('a'));
  EXPECT_TRUE(IsWordChar('_'));
  EXPECT_TRUE(IsWordChar('Z'));
  EXPECT_FALSE(IsWordChar('-'));
  EXPECT_FALSE(IsWordChar(static_cast<char>(0xC3)));  // a UTF-8 lead byte is no word character
}

TEST(TextTest, SlugLowersAndJoinsWithOneUnderscore) {
  EXPECT_EQ(Slug("After removing noop ops"), "after_removing_noop_ops");
  EXPECT_EQ(Slug("  --Graph: (fwd)--  "), "graph_fwd");
  EXPECT_EQ(Slug("a__b"), "a__b");  // underscores are word characters, kept as written
  EXPECT_EQ(Slug("!!!"), "");
}

TEST(TextTest, PluralAndCountOrDash) {
  EXPECT_EQ(Plural(1, "graph", "graphs"), "1 graph");
  EXPECT_EQ(Plural(0, "graph", "graphs"), "0 graphs");
  EXPECT_EQ(Plural(2, "entry", "entries"), "2 entries");
  EXPECT_EQ(CountOrDash(-1), "-");
  EXPECT_EQ(CountOrDash(0), "0");
  EXPECT_EQ(CountOrDash(12), "12");
}

TEST(TextTest, AppendIndentedLine) {
  std::string out = "op {\n";
  AppendIndentedLine(out, 2, "name: \"x\"");
  AppendIndentedLine(out, 0, "}");
  EXPECT_EQ(out, "op {\n  name: \"x\"\n}\n");
}

}  // namespace
}  // namespace airscope

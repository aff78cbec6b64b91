// core/fx/json_text and formats/json_sniff: where a JSON error is (line and
// column), nesting refused before nlohmann recurses, a number beyond a double
// located like a syntax error, and the sniffer's verdict on a first line.
#include "core/fx/json_text.h"

#include <string>

#include <gtest/gtest.h>

#include "formats/json_sniff.h"

namespace airscope {
namespace {

TEST(JsonTextTest, PositionsAreOneBasedLinesAndByteColumns) {
  std::string_view text = "ab\ncd\n";
  EXPECT_EQ(PositionOfOffset(text, 0).line, 1u);
  EXPECT_EQ(PositionOfOffset(text, 4).line, 2u);
  EXPECT_EQ(PositionOfOffset(text, 4).column, 2u);
  EXPECT_EQ(PositionOfOffset(text, 100).line, 3u);  // past the end: after the last byte
}

TEST(JsonTextTest, ErrorsNameTheLineAndColumn) {
  Result<nlohmann::json> syntax = ParseJsonText("{\n  \"a\": [1, 2,]\n}", "f.json");
  ASSERT_FALSE(syntax.ok());
  // Line 2, column 14: the `]` after the trailing comma.
  EXPECT_TRUE(syntax.status().message().starts_with("f.json:2:14: ")) << syntax.status().message();
  Result<nlohmann::json> deep = ParseJsonText(std::string(300, '[') + std::string(300, ']'), "d.json", 256);
  ASSERT_FALSE(deep.ok());
  EXPECT_TRUE(deep.status().message().starts_with("d.json:1:257: ")) << deep.status().message();
  EXPECT_TRUE(ParseJsonText("{\"a\": [1, 2]}", "ok.json").ok());
}

// nlohmann's out_of_range.406 carries no position; the reader finds it and
// points at the number's first character.
TEST(JsonTextTest, ANumberBeyondADoubleIsLocated) {
  Result<nlohmann::json> big = ParseJsonText("{\"a\": [1,\n   1e400]}", "b.json");
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().message(), "b.json:2:4: number overflow parsing '1e400'");
  JsonScan scan = ScanJson("[1e400]");
  EXPECT_FALSE(scan.ok);
  EXPECT_EQ(scan.error_id, 406);
  EXPECT_TRUE(ScanJson("[1e300]").ok);
}

TEST(JsonSniffTest, AFirstLineIsJsonIfItParsesOrStopsInsideAValue) {
  EXPECT_TRUE(StartsAsJson("{\"format\": \"airscope-graph\", \"version\": 1}"));
  EXPECT_TRUE(StartsAsJson("{"));                         // pretty-printed: the next lines go on
  EXPECT_TRUE(StartsAsJson("{\"a\": 1e400, \"b\": 2}"));  // JSON, with a value the reader refuses
  EXPECT_FALSE(StartsAsJson("{a: 1}"));
  EXPECT_FALSE(StartsAsJson("[user@host dir]$ TORCH_LOGS=+dynamo python x.py"));
  EXPECT_FALSE(StartsAsJson("graph():"));
}

}  // namespace
}  // namespace airscope

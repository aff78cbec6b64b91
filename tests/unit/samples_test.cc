// Every sample in tests/data: loads, matches its meta.json, lints, and prints
// back byte for byte; the readable twin has the same structure.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/file_util.h"
#include "core/fx/fx_text.h"
#include "core/fx/readable.h"

namespace airscope {
namespace {

std::string DataDir() { return AIRSCOPE_TEST_DATA; }

std::vector<std::string> SampleStems() {
  std::vector<std::string> stems;
  for (const auto& entry : std::filesystem::directory_iterator(DataDir())) {
    std::string name = entry.path().filename().string();
    constexpr std::string_view kSuffix = ".graph.txt";
    if (name.size() > kSuffix.size() && name.ends_with(kSuffix)) {
      stems.push_back(name.substr(0, name.size() - kSuffix.size()));
    }
  }
  std::sort(stems.begin(), stems.end());
  return stems;
}

std::string TrimTrailingNewlines(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ')) s.pop_back();
  return s;
}

void ExpectMatchesMeta(const Graph& g, const std::string& stem) {
  auto meta_text = ReadFile(DataDir() + "/" + stem + ".meta.json");
  ASSERT_TRUE(meta_text.ok()) << meta_text.status().message();
  auto meta = nlohmann::json::parse(*meta_text);
  EXPECT_EQ(g.size(), meta["nodes"].get<size_t>()) << stem;
  std::map<std::string, int64_t> histogram;
  std::map<std::string, int64_t> by_op;
  for (const Node* n : g) {
    ++histogram[OpHistogramKey(*n)];
    ++by_op[std::string(OpKindName(n->op()))];
  }
  std::map<std::string, int64_t> expected;
  for (auto& [key, value] : meta["ops"].items()) expected[key] = value.get<int64_t>();
  EXPECT_EQ(histogram, expected) << stem;
  for (const char* op : {"placeholder", "call_function", "get_attr"}) {
    if (meta.contains(op)) {
      EXPECT_EQ(by_op[op], meta[op].get<int64_t>()) << stem << " " << op;
    }
  }
}

// Structure without meta: names, ops, targets, args, kwargs.
void ExpectSameStructure(const Graph& a, const Graph& b, const std::string& stem) {
  auto ca = a.Clone();
  auto cb = b.Clone();
  for (Node* n : *ca) n->clear_meta();
  for (Node* n : *cb) n->clear_meta();
  std::string why;
  EXPECT_TRUE(SameGraph(*ca, *cb, &why)) << stem << ": " << why;
}

TEST(Samples, FxTextLoadsAndRoundTrips) {
  auto stems = SampleStems();
  ASSERT_GE(stems.size(), 5u);
  for (const std::string& stem : stems) {
    std::string path = DataDir() + "/" + stem + ".graph.txt";
    auto text = ReadFile(path);
    ASSERT_TRUE(text.ok());
    auto g = ParseFxText(*text, path);
    ASSERT_TRUE(g.ok()) << g.status().message();
    ExpectMatchesMeta(**g, stem);
    EXPECT_TRUE((*g)->Lint().ok()) << (*g)->Lint().message();
    std::string printed = PrintFxText(**g);
    EXPECT_EQ(printed, TrimTrailingNewlines(*text)) << stem;
    auto again = ParseFxText(printed, "printed");
    ASSERT_TRUE(again.ok()) << again.status().message();
    std::string why;
    EXPECT_TRUE(SameGraph(**g, **again, &why)) << stem << ": " << why;
    EXPECT_EQ((*g)->style(), (*again)->style());
  }
}

TEST(Samples, ReadableLoadsAndRoundTrips) {
  for (const std::string& stem : SampleStems()) {
    std::string path = DataDir() + "/" + stem + ".readable.py";
    auto text = ReadFile(path);
    ASSERT_TRUE(text.ok());
    auto g = ParseReadable(*text, path);
    ASSERT_TRUE(g.ok()) << g.status().message();
    ExpectMatchesMeta(**g, stem);
    EXPECT_TRUE((*g)->Lint().ok()) << (*g)->Lint().message();
    std::string printed = PrintReadable(**g);
    EXPECT_EQ(TrimTrailingNewlines(printed), TrimTrailingNewlines(*text)) << stem;
    auto again = ParseReadable(printed, "printed");
    ASSERT_TRUE(again.ok()) << again.status().message();
    std::string why;
    EXPECT_TRUE(SameGraph(**g, **again, &why)) << stem << ": " << why;

    std::string fx_path = DataDir() + "/" + stem + ".graph.txt";
    auto fx_text = ReadFile(fx_path);
    ASSERT_TRUE(fx_text.ok());
    auto fx = ParseFxText(*fx_text, fx_path);
    ASSERT_TRUE(fx.ok()) << fx.status().message();
    ExpectSameStructure(**g, **fx, stem);
  }
}

}  // namespace
}  // namespace airscope

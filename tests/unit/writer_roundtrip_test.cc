// Every graph airscope writes loads back as the same graph (issue 12, item
// 7): `dump F` of a loaded graph, then `load`, gives the nodes, names, ops,
// targets, args, kwargs and streams it had, and the shapes where the format
// carries them (readable, json; FX text and pbtxt state none).
#include <filesystem>

#include <gtest/gtest.h>

#include "core/file_util.h"
#include "core/fx/fx_text.h"
#include "core/fx/graph_json.h"
#include "core/fx/readable.h"
#include "repl/graph_loader.h"
#include "repl/graph_text.h"
#include "core/ops/op_registry.h"
#include "formats/pbtxt_reader.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;

// The same graph without shapes: what a format without them must give back.
std::unique_ptr<Graph> WithoutMeta(const Graph& graph) {
  std::unique_ptr<Graph> copy = graph.Clone();
  for (Node* node : *copy) node->clear_meta();
  return copy;
}

// Where a shape came from (inferred, or stated in the file) is not part of
// the graph: a written shape reads back as stated.
std::unique_ptr<Graph> AllStated(const Graph& graph) {
  std::unique_ptr<Graph> copy = graph.Clone();
  for (Node* node : *copy) {
    if (!node->meta()) continue;
    NodeMeta meta = *node->meta();
    meta.source = MetaSource::kAnnotated;
    node->set_meta(std::move(meta));
  }
  return copy;
}

// Writes `graph` in `format`, loads it back as `load` would (shapes
// inferred), and says what differs ("" if nothing).
std::string RoundTrip(const Graph& graph, std::string_view format) {
  Result<std::string> text = GraphText(graph, format);
  if (!text.ok()) return "write: " + text.status().message();
  Result<LoadedGraph> back = LoadGraphText(*text, "roundtrip", OpRegistry::Builtin(), {}, graph.name());
  if (!back.ok()) return "read back: " + back.status().message() + "\n" + text->substr(0, 2000);
  bool keeps_meta = format != "fx";
  // FX text prints strings bare, as torch does: nodes with strings it cannot
  // keep are named by dump's note (NodesWithAmbiguousStrings) and skipped here.
  if (format == "fx" && !NodesWithAmbiguousStrings(graph).empty()) return "";
  std::unique_ptr<Graph> expected = keeps_meta ? AllStated(graph) : WithoutMeta(graph);
  std::unique_ptr<Graph> got = keeps_meta ? AllStated(*back->graph) : WithoutMeta(*back->graph);
  std::string why;
  if (!SameGraph(*expected, *got, &why)) return "differs: " + why;
  return "";
}

std::vector<fs::path> Samples() {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(AIRSCOPE_TEST_DATA)) {
    std::string name = entry.path().filename().string();
    if (name.ends_with(".graph.txt") || name.ends_with(".readable.py") || name.ends_with(".pbtxt")) {
      files.push_back(entry.path());
    }
  }
  for (const auto& entry : fs::directory_iterator(fs::path(AIRSCOPE_TEST_DATA) / "torchair_st")) {
    files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(WriterRoundTripTest, FxTextNamesTheStringsItCannotKeep) {
  Result<LoadedGraph> loaded = LoadGraphFile(std::string(AIRSCOPE_TEST_DATA) + "/torchair_st/record_wait_aot.py",
                                             uint64_t{1} << 30, OpRegistry::Builtin());
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  std::vector<std::string> lossy = NodesWithAmbiguousStrings(*loaded->graph);
  ASSERT_FALSE(lossy.empty());
  EXPECT_EQ(lossy.front(), "scope_enter");  // ['1', '3', 'True'] prints as [1, 3, True]
  Result<LoadedGraph> plain =
      LoadGraphFile(std::string(AIRSCOPE_TEST_DATA) + "/mlp.readable.py", uint64_t{1} << 30, OpRegistry::Builtin());
  ASSERT_TRUE(plain.ok());
  EXPECT_TRUE(NodesWithAmbiguousStrings(*plain->graph).empty());
}

TEST(WriterRoundTripTest, EverySampleInEveryTextFormat) {
  for (const fs::path& file : Samples()) {
    Result<LoadedGraph> loaded = LoadGraphFile(file.string(), uint64_t{1} << 30, OpRegistry::Builtin());
    if (!loaded.ok()) continue;  // not a graph file (e.g. an expected-output text)
    for (std::string_view format : {"fx", "readable", "json"}) {
      EXPECT_EQ(RoundTrip(*loaded->graph, format), "") << file.filename() << " as " << format;
    }
  }
}

}  // namespace
}  // namespace airscope

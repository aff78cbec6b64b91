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

// Code a reader would refuse is not written (issue 27 item 8): FX text
// prints strings bare, as torch does, so a line break in one ends the line;
// a target no Python name spells (a plugin's pass may set one) breaks
// print_readable code. The dump names the node; json keeps it.
TEST(WriterRoundTripTest, ATextNoReaderTakesBackIsRefusedNamingTheNode) {
  Result<LoadedGraph> loaded =
      LoadGraphFile(std::string(AIRSCOPE_TEST_DATA) + "/mlp.readable.py", uint64_t{1} << 30, OpRegistry::Builtin());
  ASSERT_TRUE(loaded.ok()) << loaded.status().message();
  std::unique_ptr<Graph> copy = loaded->graph->Clone();
  Graph& graph = *copy;
  Node* norm = graph.Find("native_layer_norm");
  ASSERT_NE(norm, nullptr);
  std::vector<Argument> args(norm->args().begin(), norm->args().end());
  args.back() = Argument::String("two\nlines");
  graph.SetArgs(norm, std::move(args));
  Result<std::string> fx = GraphText(graph, "fx", {});
  ASSERT_FALSE(fx.ok());
  EXPECT_TRUE(fx.status().message().starts_with(
      fmt::format("'{}' cannot be written as fx text that reads back: node 'native_layer_norm' (dump json keeps every "
                  "node as it is): fx text:",
                  graph.name())))
      << fx.status().message();
  // print_readable writes strings as Python literals: that one reads back.
  Result<std::string> readable = GraphText(graph, "readable", {});
  ASSERT_TRUE(readable.ok()) << readable.status().message();
  Result<std::unique_ptr<Graph>> back = ParseReadable(*readable, "r.py");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ((*back)->Find("native_layer_norm")->args().back().as_string(), "two\nlines");

  graph.SetArgs(norm, {});  // back to a line FX text keeps
  Node* t = graph.Find("t");
  ASSERT_NE(t, nullptr);
  graph.SetTarget(t, "my plugin's t");
  // FX text keeps a target as the text inside `[target=...]`: that reads back.
  Result<std::string> fx_target = GraphText(graph, "fx", {});
  ASSERT_TRUE(fx_target.ok()) << fx_target.status().message();
  Result<std::unique_ptr<Graph>> fx_back = ParseFxText(*fx_target, "g.txt");
  ASSERT_TRUE(fx_back.ok()) << fx_back.status().message();
  EXPECT_EQ((*fx_back)->Find("t")->target(), "my plugin's t");
  // print_readable code calls it: no Python parser takes that back.
  Result<std::string> code = GraphText(graph, "readable", {});
  ASSERT_FALSE(code.ok());
  EXPECT_NE(code.status().message().find("as readable text that reads back: node 't' (dump json"), std::string::npos)
      << code.status().message();
  EXPECT_TRUE(GraphText(graph, "json", {}).ok());
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

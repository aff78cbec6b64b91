// libFuzzer entry points, one per input parser airscope exposes to users.
// Built once per target with -DAIRSCOPE_FUZZ_TARGET=<name> (tests/fuzz/
// CMakeLists.txt), so each binary fuzzes exactly one parser. A parser may
// reject its input with an error; it must never crash, hang, or trip a
// sanitizer, and an accepted graph must lint clean and print.
#include <algorithm>
#include <cstddef>
#include <set>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include "core/dynamo/call_spec.h"
#include "core/fx/fx_text.h"
#include "core/fx/graph_json.h"
#include "core/fx/readable.h"
#include "core/ir/tensor_meta.h"
#include "repl/tokenizer.h"
#include "core/check/hazards.h"
#include "formats/aclgraph_json.h"
#include "formats/pbtxt_reader.h"
#include "formats/torch_logs.h"
#include "formats/torch_trace.h"

namespace {

// What every accepted graph must allow: lint, and print in its own format;
// and what it prints must parse back as the same graph (issue 12, item 7),
// except where the format cannot say it (FX text prints strings bare, as
// torch does: NodesWithAmbiguousStrings).
template <typename Print, typename Parse>
void CheckGraph(const airscope::Result<std::unique_ptr<airscope::Graph>>& graph, Print print, Parse parse) {
  if (!graph.ok()) return;
  (void)(*graph)->Lint();
  std::string text = print(**graph);
  if (!parse) return;
  airscope::Result<std::unique_ptr<airscope::Graph>> back = parse(text);
  if (!back.ok()) __builtin_trap();  // written, then refused
  if (!airscope::SameGraph(**graph, **back)) __builtin_trap();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace airscope;
  using Parser = std::function<Result<std::unique_ptr<Graph>>(std::string_view)>;
#if defined(AIRSCOPE_FUZZ_FX_TEXT)
  Result<std::unique_ptr<Graph>> graph = ParseFxText(text, "fuzz");
  bool lossless = graph.ok() && NodesWithAmbiguousStrings(**graph).empty();
  CheckGraph(
      graph, [](const Graph& g) { return PrintFxText(g); },
      lossless ? Parser([](std::string_view t) { return ParseFxText(t, "fuzz"); }) : Parser());
#elif defined(AIRSCOPE_FUZZ_READABLE)
  CheckGraph(
      ParseReadable(text, "fuzz"), [](const Graph& g) { return PrintReadable(g); },
      Parser([](std::string_view t) { return ParseReadable(t, "fuzz"); }));
#elif defined(AIRSCOPE_FUZZ_JSON)
  CheckGraph(
      ParseGraphJson(text, "fuzz"), [](const Graph& g) { return PrintGraphJson(g); },
      Parser([](std::string_view t) { return ParseGraphJson(t, "fuzz"); }));
#elif defined(AIRSCOPE_FUZZ_PBTXT)
  // pbtxt is TorchAir's GE-level form (GE op names and types): it reads as
  // another graph by design, so only printing is checked.
  CheckGraph(
      ParsePbtxt(text, "fuzz"), [](const Graph& g) { return PrintFxText(g); }, Parser());
#elif defined(AIRSCOPE_FUZZ_TORCH_TRACE)
  (void)ParseTraceLog(text, "fuzz");
#elif defined(AIRSCOPE_FUZZ_TORCH_LOGS)
  // What the shell relies on: names unique, every graph line mapped to a log line.
  TorchLogs log = ParseTorchLogs(text, "fuzz");
  std::set<std::string> names;
  for (const TorchLogsGraph& g : log.graphs) {
    if (!names.insert(g.name).second) __builtin_trap();
    size_t lines = static_cast<size_t>(std::count(g.text.begin(), g.text.end(), '\n'));
    if (lines != g.source_lines.size() || lines != g.source_columns.size()) __builtin_trap();
    for (uint32_t line : g.source_lines) {
      if (line == 0 || line > log.lines) __builtin_trap();
    }
  }
  (void)LooksLikeTorchLogs(text);
#elif defined(AIRSCOPE_FUZZ_ACLGRAPH_JSON)
  // A capture dump the reader accepts writes out, and what it writes reads
  // back and writes out the same (the first write settles merges and types).
  Result<AclGraphDump> dump = ParseAclGraphJson(text, "fuzz");
  if (dump.ok()) {
    (void)AclGraphTrace(dump->tasks, "fuzz");
    (void)FindHazards(dump->tasks, {dump->capture_stream, 48, "fuzz"});
    std::string once = AclGraphJson(dump->tasks);
    Result<AclGraphDump> again = ParseAclGraphJson(once, "fuzz");
    if (!again.ok() || AclGraphJson(again->tasks) != once) __builtin_trap();
  }
#elif defined(AIRSCOPE_FUZZ_CALL_SPEC)
  (void)ParseCallSpec(text);
  (void)TensorMeta::ParseAnnotation(text);
#elif defined(AIRSCOPE_FUZZ_AIRSCRIPT)
  (void)Tokenize(text);
  (void)SplitCommands(text);
#else
#error "define one AIRSCOPE_FUZZ_<TARGET>"
#endif
  return 0;
}

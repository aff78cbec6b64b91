// libFuzzer entry points, one per input parser airscope exposes to users.
// Built once per target with -DAIRSCOPE_FUZZ_TARGET=<name> (tests/fuzz/
// CMakeLists.txt), so each binary fuzzes exactly one parser. A parser may
// reject its input with an error; it must never crash, hang, or trip a
// sanitizer, and an accepted graph must lint clean and print.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "core/dynamo/call_spec.h"
#include "core/fx/fx_text.h"
#include "core/fx/graph_json.h"
#include "core/fx/readable.h"
#include "core/ir/tensor_meta.h"
#include "repl/tokenizer.h"
#include "viz/pbtxt_reader.h"
#include "viz/torch_trace.h"

namespace {

// What every accepted graph must allow: lint, and print in its own format.
template <typename Print>
void CheckGraph(const airscope::Result<std::unique_ptr<airscope::Graph>>& graph, Print print) {
  if (!graph.ok()) return;
  (void)(*graph)->Lint();
  (void)print(**graph);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  using namespace airscope;
#if defined(AIRSCOPE_FUZZ_FX_TEXT)
  CheckGraph(ParseFxText(text, "fuzz"), [](const Graph& g) { return PrintFxText(g); });
#elif defined(AIRSCOPE_FUZZ_READABLE)
  CheckGraph(ParseReadable(text, "fuzz"), [](const Graph& g) { return PrintReadable(g); });
#elif defined(AIRSCOPE_FUZZ_JSON)
  CheckGraph(ParseGraphJson(text, "fuzz"), [](const Graph& g) { return PrintGraphJson(g); });
#elif defined(AIRSCOPE_FUZZ_PBTXT)
  CheckGraph(ParsePbtxt(text, "fuzz"), [](const Graph& g) { return PrintFxText(g); });
#elif defined(AIRSCOPE_FUZZ_TORCH_TRACE)
  (void)ParseTraceLog(text, "fuzz");
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

// Loading a graph file whatever its format: the format is sniffed from the
// content (not only the extension), the matching parser runs, and the op
// registry's shape inference fills in what annotations did not state.
// Lives in repl because it is the one place that knows every format.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/aot/nn_module.h"
#include "core/ir/graph.h"
#include "core/ops/shape_inference.h"
#include "core/fx/fx_text.h"
#include "core/status.h"

namespace airscope {

enum class GraphFormat : uint8_t { kFxText, kReadable, kJson, kPbtxt };
std::string_view GraphFormatName(GraphFormat format);  // "fx", "readable", "json", "pbtxt"

// Decides the format from the first meaningful text; an error says what was
// seen and what formats airscope reads.
Result<GraphFormat> SniffGraphFormat(std::string_view content, std::string_view path);

struct LoadedGraph {
  // Immutable once loaded, so a pipeline's stage 0 shares it instead of a copy.
  std::shared_ptr<const Graph> graph;
  std::string path;
  GraphFormat format = GraphFormat::kFxText;
  InferenceReport inference;
  // The torch.nn modules declared for its call_module targets (`module`); null: none.
  std::shared_ptr<const ModuleTable> modules;
};

// The graph is named `name`, or DefaultGraphName(path) when `name` is empty.
Result<LoadedGraph> LoadGraphFile(const std::string& path, uint64_t max_bytes, const OpRegistry& registry,
                                  std::string_view name = {});
// `release` (FX text only) is told which leading part of `content` the
// parser is done with, for a caller that can free it (see ParseFxText).
Result<LoadedGraph> LoadGraphText(std::string_view content, const std::string& path, const OpRegistry& registry,
                                  const ReleaseTextBefore& release = {}, std::string_view name = {});

// One input's shape as the user gives it: `x` and `f32[8, 64]` (any
// annotation form torch prints: `f32[8, 64][64, 1]npu:0`, symbolic sizes).
struct InputShape {
  std::string input;
  std::string annotation;
};
// Parses `x=f32[8,64],y=f32[4]` (load --shapes): commas inside brackets do not split.
Result<std::vector<InputShape>> ParseInputShapes(std::string_view text);
// `loaded` with the given inputs (placeholders, or get_attr parameters and
// buffers) annotated and every inferred shape worked
// out again from them (plain FX text states no shapes: costs stay unknown
// until its inputs get one). Errors name the input or the annotation.
Result<LoadedGraph> WithInputShapes(const LoadedGraph& loaded, const std::vector<InputShape>& shapes,
                                    const OpRegistry& registry);

// True when the file's first line is a TORCH_TRACE record (glog prefix + JSON
// object): `load` reads such a file as a trace log, not as one graph.
bool IsTraceLogFile(const std::string& path);
// True when a regular file holds TORCH_LOGS text (torch._logging lines in any
// layout, or TorchAir's) in its first megabyte and does not start as a graph
// does: `load` reads it as a log (viz/torch_logs.h).
bool IsTorchLogsFile(const std::string& path);

// "models/mlp.graph.txt" -> "mlp": the file name without directories and
// without the extensions airscope writes (.graph.txt, .readable.py, .json, .txt, .py, .fx).
std::string DefaultGraphName(std::string_view path);

}  // namespace airscope

// Loading a graph file whatever its format: the registry of input formats
// (formats/registry.h) recognises it from the content (not the extension) and
// its row's reader parses it; the op registry's shape inference then fills in
// what annotations did not state.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/aot/nn_module.h"
#include "core/ir/graph.h"
#include "core/ops/shape_inference.h"
#include "core/fx/fx_text.h"
#include "core/status.h"
#include "formats/registry.h"

namespace airscope {

// The row's name ("fx", "readable", "json", "pbtxt"), "?" for none.
std::string_view GraphFormatName(const InputFormat* format);

struct LoadedGraph {
  // Immutable once loaded, so a pipeline's stage 0 shares it instead of a copy.
  std::shared_ptr<const Graph> graph;
  std::string path;
  const InputFormat* format = nullptr;  // the registry row it was read by
  InferenceReport inference;
  // What the reader found stated two ways that disagree, and which way it
  // took (GraphReader), located: load shows them.
  std::vector<std::string> read_warnings;
  // The torch.nn modules declared for its call_module targets (`module`); null: none.
  std::shared_ptr<const ModuleTable> modules;
};

// For the loaders that read graphs out of logs and trees (which print no
// shape summary per graph): one warning naming the annotations `name`'s
// inference disagrees with, the first few and a count, or "" when none.
std::string InferenceDisagreementNote(const std::string& name, const InferenceReport& report);

// The graph is named `name`, or DefaultGraphName(path) (formats/registry.h) when `name` is empty.
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

}  // namespace airscope

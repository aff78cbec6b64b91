#include "repl/graph_text.h"

#include <fmt/format.h>

#include "core/file_util.h"
#include "core/suggest.h"
#include "core/fx/fx_text.h"
#include "core/fx/graph_json.h"
#include "core/fx/readable.h"
#include "viz/dot_writer.h"
#include "formats/ge_writer.h"
#include "formats/pbtxt_writer.h"

namespace airscope {

const std::vector<GraphOutputFormat>& GraphOutputFormats() {
  static const std::vector<GraphOutputFormat> kFormats = {
      {"fx", "fx", [](const Graph& g, const DotOptions&) -> Result<std::string> { return PrintFxText(g) + "\n"; }},
      {"readable", "py", [](const Graph& g, const DotOptions&) -> Result<std::string> { return PrintReadable(g); }},
      {"json", "json", [](const Graph& g, const DotOptions&) -> Result<std::string> { return PrintGraphJson(g); }},
      {"dot", "dot", [](const Graph& g, const DotOptions& dot) { return GraphToDot(g, dot); }},
      {"pbtxt", "pbtxt", [](const Graph& g, const DotOptions&) { return GraphToPbtxt(g); }},
      {"ge", "ge.txt", [](const Graph& g, const DotOptions&) { return GraphToGeText(g, g.name()); }},
      {"svg", "svg", nullptr},
      {"png", "png", nullptr},
  };
  return kFormats;
}

const GraphOutputFormat* FindGraphFormat(std::string_view name) {
  for (const GraphOutputFormat& format : GraphOutputFormats()) {
    if (format.name == name) return &format;
  }
  return nullptr;
}

std::vector<std::string> GraphFormatNames(bool text_only) {
  std::vector<std::string> names;
  for (const GraphOutputFormat& format : GraphOutputFormats()) {
    if (!text_only || format.text) names.push_back(format.name);
  }
  return names;
}

Result<std::string> GraphText(const Graph& graph, std::string_view format, const DotOptions& dot) {
  const GraphOutputFormat* spec = FindGraphFormat(format);
  if (!spec || !spec->text) {
    return Status::Errorf("unknown format '{}'{} (one of: {})", format, DidYouMean(format, GraphFormatNames(true)),
                          fmt::join(GraphFormatNames(true), ", "));
  }
  return spec->text(graph, dot);
}

Result<WrittenGraph> WriteGraph(const Graph& graph, std::string_view format, const std::string& path,
                                const DotOptions& dot) {
  const GraphOutputFormat* spec = FindGraphFormat(format);
  if (!spec) {
    return Status::Errorf("unknown dump format '{}'{} (one of: {})", format,
                          DidYouMean(format, GraphFormatNames(false)), fmt::join(GraphFormatNames(false), ", "));
  }
  // A graph always has an output node; one with no nodes at all is the
  // empty holder of a log or capture dump that brought no graph. Written
  // out, no reader (airscope's included) would take it back.
  if (graph.empty()) {
    return Status::Errorf("'{}' has no nodes (it holds a log or capture dump that brought no graph): nothing to dump",
                          graph.name());
  }
  const bool to_stdout = path == "-";
  if (!spec->text) {
    AIRSCOPE_ASSIGN_OR_RETURN(Rendered rendered, RenderGraphData(graph, format, dot));
    if (to_stdout) return WrittenGraph{"", rendered.info.note, std::move(rendered.data)};
    AIRSCOPE_RETURN_IF_ERROR(WriteFile(path, rendered.data));
    std::string size = rendered.info.width > 0 ? fmt::format(", {} x {} px", rendered.info.width, rendered.info.height)
                                               : "";  // an svg's size is in points, and it scales
    return WrittenGraph{fmt::format("wrote {} ({}, layout {}{})", path, format, rendered.info.engine, size),
                        rendered.info.note, ""};
  }
  AIRSCOPE_ASSIGN_OR_RETURN(std::string text, spec->text(graph, dot));
  std::string note;
  if (format == "fx") {
    // torch's own format, printed as torch prints it, which cannot keep these.
    std::vector<std::string> lossy = NodesWithAmbiguousStrings(graph);
    if (!lossy.empty()) {
      note = fmt::format(
          "note: {} node(s) ({}{}) have string arguments FX text prints bare, as torch does ('1' as 1), "
          "so they read back as other values; dump readable or json keeps them",
          lossy.size(), fmt::join(lossy.begin(), lossy.begin() + std::min<size_t>(lossy.size(), 3), ", "),
          lossy.size() > 3 ? ", ..." : "");
    }
  }
  if (to_stdout) return WrittenGraph{"", note, std::move(text)};
  AIRSCOPE_RETURN_IF_ERROR(WriteFile(path, text));
  return WrittenGraph{fmt::format("wrote {} ({}, {} bytes)", path, format, text.size()), note, ""};
}

}  // namespace airscope

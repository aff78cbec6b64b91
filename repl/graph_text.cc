#include "repl/graph_text.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/file_util.h"
#include "core/scanner.h"
#include "core/suggest.h"
#include "core/fx/fx_text.h"
#include "core/fx/graph_json.h"
#include "core/fx/readable.h"
#include "viz/dot_writer.h"
#include "formats/ge_writer.h"
#include "formats/pbtxt_writer.h"

namespace airscope {
namespace {

bool HasLineBreak(const Argument& arg) {
  switch (arg.kind()) {
    case Argument::Kind::kString:
    case Argument::Kind::kRaw: return arg.as_string().find_first_of("\r\n") != std::string::npos;
    case Argument::Kind::kList:
    case Argument::Kind::kTuple:
      return std::any_of(arg.items().begin(), arg.items().end(), [](const Argument& a) { return HasLineBreak(a); });
    default: return false;
  }
}

// Whether a node could print as code no parser reads back: a target that is
// no Python name (a plugin's pass may make one), a string or raw argument
// with a line break, or (FX text, which prints strings bare as torch does)
// a string that does not read back as itself. Only then is the text parsed
// again, so an ordinary dump pays no second parse.
bool MayNotReadBack(const Graph& graph, bool bare_strings) {
  for (const Node* node : graph) {
    if (!CheckTarget(node->op(), node->target()).ok()) return true;
    for (const Argument& arg : node->args()) {
      if (HasLineBreak(arg)) return true;
    }
    for (const Kwarg& kwarg : node->kwargs()) {
      if (HasLineBreak(kwarg.value)) return true;
    }
  }
  return bare_strings && !NodesWithAmbiguousStrings(graph).empty();
}

using CodeParser = Result<std::unique_ptr<Graph>> (*)(std::string_view, std::string_view, const ReleaseTextBefore&);

// `text`, printed from `graph` as `format`, if airscope's own reader takes it
// back; else which node's line it stops at, and why: a file `load` refuses is
// never written.
Result<std::string> ReadsBack(std::string text, const Graph& graph, std::string_view format, CodeParser parse,
                              bool bare_strings) {
  if (!MayNotReadBack(graph, bare_strings)) return text;
  const std::string name = fmt::format("{} text", format);
  Result<std::unique_ptr<Graph>> back = parse(text, name, {});
  if (back.ok()) return text;
  // "NAME:LINE:COL: message": the node is the one printed on LINE.
  std::string_view message = back.status().message();
  size_t line = 0;
  if (message.starts_with(name + ":")) {
    std::string_view rest = message.substr(name.size() + 1);
    std::from_chars(rest.data(), rest.data() + rest.size(), line);
  }
  std::string node;
  if (line > 0) {
    size_t at = 0;
    for (size_t l = 1; l < line && at < text.size(); ++l) {
      size_t newline = text.find('\n', at);
      at = newline == std::string::npos ? text.size() : newline + 1;
    }
    while (at < text.size() && (text[at] == ' ' || text[at] == '%')) ++at;
    while (at < text.size() && IsIdentChar(text[at])) node += text[at++];
  }
  return Status::Errorf("'{}' cannot be written as {} text that reads back{} (dump json keeps every node as it is): {}",
                        graph.name(), format, node.empty() ? "" : fmt::format(": node '{}'", node), message);
}

}  // namespace

const std::vector<GraphOutputFormat>& GraphOutputFormats() {
  static const std::vector<GraphOutputFormat> kFormats = {
      {"fx", "fx",
       [](const Graph& g, const DotOptions&) { return ReadsBack(PrintFxText(g) + "\n", g, "fx", ParseFxText, true); }},
      {"readable", "py",
       [](const Graph& g, const DotOptions&) {
         return ReadsBack(PrintReadable(g), g, "readable", ParseReadable, false);
       }},
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

// Graph output formats: the one table of what `show`, `dump` and the
// automatic stage dumps can write. Adding a format is one entry in
// GraphOutputFormats() (graph_text.cc); every command, completer, setting
// check and help text that lists formats reads this table.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"
#include "core/status.h"
#include "viz/dot_writer.h"

namespace airscope {

struct GraphOutputFormat {
  std::string name;       // "fx"
  std::string extension;  // of automatic dump files: NN_pass.<extension>
  // Text formats render to a string (what `show` prints and `dump` writes);
  // null for image formats, which graphviz renders straight to a file.
  // `dot` draws with its options (hazard marks); the other formats ignore them.
  std::function<Result<std::string>(const Graph&, const DotOptions& dot)> text;
};

const std::vector<GraphOutputFormat>& GraphOutputFormats();
const GraphOutputFormat* FindGraphFormat(std::string_view name);
std::vector<std::string> GraphFormatNames(bool text_only);

// The text of `graph` in a text format; an unknown or image format is an
// error listing the text formats. `dot` is for the DOT format (and, in
// WriteGraph, svg/png): the hazards to mark.
Result<std::string> GraphText(const Graph& graph, std::string_view format, const DotOptions& dot = {});

struct WrittenGraph {
  std::string summary;  // "wrote PATH (fx, 812 bytes)"; empty for "-"
  std::string note;     // e.g. graphviz's layout note; may be empty
  std::string printed;  // PATH "-": the bytes, for the caller to print
};
// Writes `graph` to `path` in any format (core/file_util.h WriteFile). PATH
// "-" hands the bytes back instead, for the caller to print.
Result<WrittenGraph> WriteGraph(const Graph& graph, std::string_view format, const std::string& path,
                                const DotOptions& dot = {});

}  // namespace airscope

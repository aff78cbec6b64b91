#include "formats/pbtxt_writer.h"
#include "core/text.h"

#include <fmt/format.h>

#include "formats/proto_text.h"

namespace airscope {
namespace {

// IndentedBuffer.writeline with 4 spaces per level.
// A line `level` blocks deep: pbtxt indents each block by four spaces.
void LineAtLevel(std::string& out, int level, std::string_view text) {
  AppendIndentedLine(out, static_cast<size_t>(level) * 4, text);
}

// _GraphPbtxt.attr(k, bytes): `s: ` + repr(bytes)[1:].
void AttrBlock(std::string& out, std::string_view key, std::string_view value_text) {
  LineAtLevel(out, 1, "attr {");
  LineAtLevel(out, 2, fmt::format("key: \"{}\"", key));
  LineAtLevel(out, 2, "value {");
  LineAtLevel(out, 3, "s: " + PythonBytesRepr(value_text));
  LineAtLevel(out, 2, "}");
  LineAtLevel(out, 1, "}");
}

}  // namespace

Result<std::string> GraphToPbtxt(const Graph& graph, const GeOpsOptions& options) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto ops, BuildGeOps(graph, options));
  std::string out;
  for (const GeOp& op : ops) {
    LineAtLevel(out, 0, "node {");
    LineAtLevel(out, 1, fmt::format("name: \"{}\"", op.name));
    LineAtLevel(out, 1, fmt::format("op: \"{}\"", op.type));
    for (const std::string& input : op.inputs) LineAtLevel(out, 1, fmt::format("input: \"{}\"", input));
    std::string text;
    for (const GeAttr& attr : op.attrs) {
      text.clear();
      AppendAttrValueText(text, attr, 0);
      AttrBlock(out, attr.key, text);
    }
    for (const GeDesc& desc : op.input_desc) {
      text.clear();
      AppendDescText(text, desc, 0);
      AttrBlock(out, "[i]" + desc.name, text);
    }
    for (const GeDesc& desc : op.output_desc) {
      text.clear();
      AppendDescText(text, desc, 0);
      AttrBlock(out, "[o]" + desc.name, text);
    }
    LineAtLevel(out, 0, "}");
  }
  return out;
}

}  // namespace airscope

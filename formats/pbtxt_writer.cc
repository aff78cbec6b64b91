#include "formats/pbtxt_writer.h"

#include <fmt/format.h>

#include "formats/proto_text.h"

namespace airscope {
namespace {

// IndentedBuffer.writeline with 4 spaces per level.
void Line(std::string& out, int level, std::string_view text) {
  out.append(static_cast<size_t>(level) * 4, ' ');
  out += text;
  out += '\n';
}

// _GraphPbtxt.attr(k, bytes): `s: ` + repr(bytes)[1:].
void Attr(std::string& out, std::string_view key, std::string_view value_text) {
  Line(out, 1, "attr {");
  Line(out, 2, fmt::format("key: \"{}\"", key));
  Line(out, 2, "value {");
  Line(out, 3, "s: " + PythonBytesRepr(value_text));
  Line(out, 2, "}");
  Line(out, 1, "}");
}

}  // namespace

Result<std::string> GraphToPbtxt(const Graph& graph, const GeOpsOptions& options) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto ops, BuildGeOps(graph, options));
  std::string out;
  for (const GeOp& op : ops) {
    Line(out, 0, "node {");
    Line(out, 1, fmt::format("name: \"{}\"", op.name));
    Line(out, 1, fmt::format("op: \"{}\"", op.type));
    for (const std::string& input : op.inputs) Line(out, 1, fmt::format("input: \"{}\"", input));
    std::string text;
    for (const GeAttr& attr : op.attrs) {
      text.clear();
      AppendAttrValueText(text, attr, 0);
      Attr(out, attr.key, text);
    }
    for (const GeDesc& desc : op.input_desc) {
      text.clear();
      AppendDescText(text, desc, 0);
      Attr(out, "[i]" + desc.name, text);
    }
    for (const GeDesc& desc : op.output_desc) {
      text.clear();
      AppendDescText(text, desc, 0);
      Attr(out, "[o]" + desc.name, text);
    }
    Line(out, 0, "}");
  }
  return out;
}

}  // namespace airscope

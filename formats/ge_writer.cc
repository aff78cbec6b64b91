#include "formats/ge_writer.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "formats/proto_text.h"

namespace airscope {
namespace {

void Line(std::string& out, int indent, std::string_view text) {
  out.append(static_cast<size_t>(indent), ' ');
  out += text;
  out += '\n';
}

void AppendOp(std::string& out, const GeOp& op, int64_t stream_id) {
  constexpr int kIndent = 4;
  Line(out, kIndent, fmt::format("name: \"{}\"", ProtoCEscape(op.name)));
  Line(out, kIndent, fmt::format("type: \"{}\"", ProtoCEscape(op.type)));
  for (const std::string& input : op.inputs) {
    std::string ge_input = input.starts_with('^') ? input.substr(1) + ":-1" : input;
    Line(out, kIndent, fmt::format("input: \"{}\"", ProtoCEscape(ge_input)));
  }
  // Map entries in key order, as protobuf's text printer sorts them.
  std::vector<const GeAttr*> attrs;
  for (const GeAttr& attr : op.attrs) attrs.push_back(&attr);
  std::stable_sort(attrs.begin(), attrs.end(), [](const GeAttr* a, const GeAttr* b) { return a->key < b->key; });
  for (const GeAttr* attr : attrs) {
    Line(out, kIndent, "attr {");
    Line(out, kIndent + 2, fmt::format("key: \"{}\"", ProtoCEscape(attr->key)));
    Line(out, kIndent + 2, "value {");
    AppendAttrValueText(out, *attr, kIndent + 4);
    Line(out, kIndent + 2, "}");
    Line(out, kIndent, "}");
  }
  if (stream_id != 0) Line(out, kIndent, fmt::format("stream_id: {}", stream_id));
  for (const GeDesc& desc : op.input_desc) {
    Line(out, kIndent, "input_desc {");
    AppendDescText(out, desc, kIndent + 2);
    Line(out, kIndent, "}");
  }
  for (const GeDesc& desc : op.output_desc) {
    Line(out, kIndent, "output_desc {");
    AppendDescText(out, desc, kIndent + 2);
    Line(out, kIndent, "}");
  }
}

}  // namespace

Result<std::string> GraphToGeText(const Graph& graph, std::string_view model_name, const GeOpsOptions& options) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto ops, BuildGeOps(graph, options));
  std::map<std::string, int64_t> stream_ids;  // by first appearance
  std::string out;
  std::string name = ProtoCEscape(model_name);
  Line(out, 0, fmt::format("name: \"{}\"", name));
  Line(out, 0, "graph {");
  Line(out, 2, fmt::format("name: \"{}\"", name));
  for (const GeOp& op : ops) {
    int64_t id = 0;
    if (!op.stream.empty()) {
      auto [it, fresh] = stream_ids.try_emplace(op.stream, static_cast<int64_t>(stream_ids.size()) + 1);
      id = it->second;
    }
    Line(out, 2, "op {");
    AppendOp(out, op, id);
    Line(out, 2, "}");
  }
  Line(out, 0, "}");
  return out;
}

}  // namespace airscope

#include "formats/ge_writer.h"
#include "core/text.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "formats/proto_text.h"

namespace airscope {
namespace {

void AppendOp(std::string& out, const GeOp& op, int64_t stream_id) {
  constexpr int kIndent = 4;
  AppendIndentedLine(out, kIndent, fmt::format("name: \"{}\"", ProtoCEscape(op.name)));
  AppendIndentedLine(out, kIndent, fmt::format("type: \"{}\"", ProtoCEscape(op.type)));
  for (const std::string& input : op.inputs) {
    std::string ge_input = input.starts_with('^') ? input.substr(1) + ":-1" : input;
    AppendIndentedLine(out, kIndent, fmt::format("input: \"{}\"", ProtoCEscape(ge_input)));
  }
  // Map entries in key order, as protobuf's text printer sorts them.
  std::vector<const GeAttr*> attrs;
  for (const GeAttr& attr : op.attrs) attrs.push_back(&attr);
  std::stable_sort(attrs.begin(), attrs.end(), [](const GeAttr* a, const GeAttr* b) { return a->key < b->key; });
  for (const GeAttr* attr : attrs) {
    AppendIndentedLine(out, kIndent, "attr {");
    AppendIndentedLine(out, kIndent + 2, fmt::format("key: \"{}\"", ProtoCEscape(attr->key)));
    AppendIndentedLine(out, kIndent + 2, "value {");
    AppendAttrValueText(out, *attr, kIndent + 4);
    AppendIndentedLine(out, kIndent + 2, "}");
    AppendIndentedLine(out, kIndent, "}");
  }
  if (stream_id != 0) AppendIndentedLine(out, kIndent, fmt::format("stream_id: {}", stream_id));
  for (const GeDesc& desc : op.input_desc) {
    AppendIndentedLine(out, kIndent, "input_desc {");
    AppendDescText(out, desc, kIndent + 2);
    AppendIndentedLine(out, kIndent, "}");
  }
  for (const GeDesc& desc : op.output_desc) {
    AppendIndentedLine(out, kIndent, "output_desc {");
    AppendDescText(out, desc, kIndent + 2);
    AppendIndentedLine(out, kIndent, "}");
  }
}

}  // namespace

Result<std::string> GraphToGeText(const Graph& graph, std::string_view model_name, const GeOpsOptions& options) {
  AIRSCOPE_ASSIGN_OR_RETURN(auto ops, BuildGeOps(graph, options));
  std::map<std::string, int64_t> stream_ids;  // by first appearance
  std::string out;
  std::string name = ProtoCEscape(model_name);
  AppendIndentedLine(out, 0, fmt::format("name: \"{}\"", name));
  AppendIndentedLine(out, 0, "graph {");
  AppendIndentedLine(out, 2, fmt::format("name: \"{}\"", name));
  for (const GeOp& op : ops) {
    int64_t id = 0;
    if (!op.stream.empty()) {
      auto [it, fresh] = stream_ids.try_emplace(op.stream, static_cast<int64_t>(stream_ids.size()) + 1);
      id = it->second;
    }
    AppendIndentedLine(out, 2, "op {");
    AppendOp(out, op, id);
    AppendIndentedLine(out, 2, "}");
  }
  AppendIndentedLine(out, 0, "}");
  return out;
}

}  // namespace airscope

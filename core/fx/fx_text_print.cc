// PrintFxText: torch's Graph.__str__ / Node.format_node, byte for byte (see fx_text.h).
#include <charconv>

#include <fmt/format.h>

#include "core/fx/arg_parser.h"
#include "core/fx/fx_text.h"
#include "core/fx/python_repr.h"

namespace airscope {
namespace {

void PutCount(fmt::memory_buffer& out, size_t value) {
  char buf[24];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  (void)ec;
  out.append(buf, end);
}

// Python's str() of a value: like repr() except a top-level str prints bare.
void AppendPythonStr(fmt::memory_buffer& out, const Argument& arg) {
  if (arg.kind() == Argument::Kind::kString) return AppendText(out, arg.as_string());
  AppendPythonArg(out, arg);
}

void AppendNode(fmt::memory_buffer& out, const Graph& graph, const Node& node) {
  if (node.op() == OpKind::kOutput) {
    AppendText(out, "return ");
    if (!node.args().empty()) AppendPythonStr(out, node.args()[0]);
    return;
  }
  out.push_back('%');
  AppendText(out, node.name());
  AppendText(out, graph.style().legacy_users ? " : [#users=" : " : [num_users=");
  PutCount(out, node.users().size());
  AppendText(out, "] = ");
  AppendText(out, OpKindName(node.op()));
  AppendText(out, "[target=");
  AppendText(out, node.target());
  out.push_back(']');
  switch (node.op()) {
    case OpKind::kPlaceholder:
      if (!node.args().empty()) {
        AppendText(out, "(default=");
        AppendPythonStr(out, node.args()[0]);
        out.push_back(')');
      }
      return;
    case OpKind::kGetAttr: return;
    default: break;
  }
  // _format_arg of the args tuple: `(%x,)` for one element.
  AppendText(out, "(args = (");
  const auto& args = node.args();
  for (size_t i = 0; i < args.size(); ++i) {
    if (i) AppendText(out, ", ");
    AppendFxArg(out, args[i]);
  }
  if (args.size() == 1) out.push_back(',');
  AppendText(out, "), kwargs = {");
  const auto& kwargs = node.kwargs();
  for (size_t i = 0; i < kwargs.size(); ++i) {
    if (i) AppendText(out, ", ");
    AppendText(out, kwargs[i].name);
    AppendText(out, ": ");
    AppendFxArg(out, kwargs[i].value);
  }
  AppendText(out, "})");
}

}  // namespace

std::string PrintFxText(const Graph& graph) {
  fmt::memory_buffer out;
  out.reserve(16 + graph.size() * 128);
  AppendText(out, "graph():");
  for (const Node* node : graph) {
    AppendText(out, "\n    ");
    AppendNode(out, graph, *node);
  }
  return std::string(out.data(), out.size());
}

std::string PrintFxNode(const Graph& graph, const Node& node) {
  fmt::memory_buffer out;
  AppendNode(out, graph, node);
  return std::string(out.data(), out.size());
}

namespace {

// A string prints bare; it reads back as itself only if the parser takes
// that bare text for a string.
// (Under some keywords a bare word means more: `device: cpu` is a device.)
bool StringSurvives(const std::string& value, std::string_view kwarg) {
  std::string printed = FormatFxArg(Argument::String(value));
  ArgParser parser(printed, ArgDialect::kFx, nullptr);
  size_t pos = 0;
  Argument back;
  return parser.ParseValue(&pos, kwarg, &back) && pos == printed.size() && back.kind() == Argument::Kind::kString &&
         back.as_string() == value;
}

bool HasAmbiguousString(const Argument& arg, std::string_view kwarg) {
  if (arg.kind() == Argument::Kind::kString) return !StringSurvives(arg.as_string(), kwarg);
  if (arg.kind() == Argument::Kind::kList || arg.kind() == Argument::Kind::kTuple) {
    for (const Argument& item : arg.items()) {
      if (HasAmbiguousString(item, kwarg)) return true;
    }
  }
  return false;
}

}  // namespace

std::vector<std::string> NodesWithAmbiguousStrings(const Graph& graph) {
  std::vector<std::string> names;
  for (const Node* node : graph) {
    bool ambiguous = false;
    for (const Argument& arg : node->args()) ambiguous = ambiguous || HasAmbiguousString(arg, {});
    for (const Kwarg& kwarg : node->kwargs()) ambiguous = ambiguous || HasAmbiguousString(kwarg.value, kwarg.name);
    if (ambiguous) names.push_back(node->name());
  }
  return names;
}

}  // namespace airscope

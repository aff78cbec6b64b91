// PrintReadable: torch 2.x's print_readable() layout (see readable.h).
#include <fmt/format.h>

#include "core/fx/python_repr.h"
#include "core/fx/readable.h"

namespace airscope {
namespace {

void Put(fmt::memory_buffer& out, std::string_view text) { out.append(text.data(), text.data() + text.size()); }

// The annotation torch would print for the node's value, or "" for none
// (tuple-valued nodes print without one).
std::string AnnotationOf(const Node& node) {
  const NodeMeta* meta = node.meta();
  if (meta == nullptr) return {};
  switch (meta->kind) {
    case ValueKind::kTensor: return meta->tensors.empty() ? std::string() : meta->tensors[0].ToAnnotation();
    case ValueKind::kSymInt:
    case ValueKind::kOpaque: return meta->annotation;
    case ValueKind::kTuple: return {};
  }
  return {};
}

void PutAnnotated(fmt::memory_buffer& out, const Node& node, std::string_view shown_name = {}) {
  Put(out, shown_name.empty() ? std::string_view(node.name()) : shown_name);
  std::string annotation = AnnotationOf(node);
  if (!annotation.empty()) {
    Put(out, ": \"");
    Put(out, annotation);
    out.push_back('"');
  }
}

void PutCallArgs(fmt::memory_buffer& out, const Node& node, size_t first) {
  out.push_back('(');
  bool comma = false;
  for (size_t i = first; i < node.args().size(); ++i) {
    if (comma) Put(out, ", ");
    AppendPythonArg(out, node.args()[i]);
    comma = true;
  }
  for (const Kwarg& kw : node.kwargs()) {
    if (comma) Put(out, ", ");
    Put(out, kw.name);
    Put(out, " = ");
    AppendPythonArg(out, kw.value);
    comma = true;
  }
  out.push_back(')');
}

void PutStackTrace(fmt::memory_buffer& out, const Node& node) {
  if (node.meta() == nullptr || node.meta()->stack_trace.empty()) return;
  // torch separates each source-location comment from the code above by a blank line.
  out.push_back('\n');
  std::string_view trace = node.meta()->stack_trace;
  while (!trace.empty()) {
    size_t nl = trace.find('\n');
    Put(out, "        ");
    Put(out, trace.substr(0, nl));
    out.push_back('\n');
    trace = nl == std::string_view::npos ? std::string_view() : trace.substr(nl + 1);
  }
}

}  // namespace

std::string PrintReadable(const Graph& graph) {
  fmt::memory_buffer out;
  out.reserve(128 + graph.size() * 112);
  Put(out, "class ");
  Put(out, graph.style().module_class);
  Put(out, "(torch.nn.Module):\n    def forward(self");
  for (const Node* node : graph) {
    if (node->op() != OpKind::kPlaceholder) continue;
    Put(out, ", ");
    // The signature names the placeholder's target; a node renamed from it
    // gets `name = target` in the body (Dynamo's `l_x_ = L_x_`).
    PutAnnotated(out, *node, node->target());
    if (!node->args().empty()) {
      Put(out, " = ");
      AppendPythonArg(out, node->args()[0]);
    }
  }
  Put(out, "):\n");
  for (const Node* node : graph) {
    if (node->op() != OpKind::kPlaceholder || node->name() == node->target()) continue;
    Put(out, "        ");
    Put(out, node->name());
    Put(out, " = ");
    Put(out, node->target());
    out.push_back('\n');
  }
  for (const Node* node : graph) {
    if (node->op() == OpKind::kPlaceholder) continue;
    PutStackTrace(out, *node);
    Put(out, "        ");
    switch (node->op()) {
      case OpKind::kOutput:
        Put(out, "return ");
        if (!node->args().empty()) AppendPythonArg(out, node->args()[0]);
        break;
      case OpKind::kGetAttr:
        PutAnnotated(out, *node);
        Put(out, " = self.");
        Put(out, node->target());
        break;
      case OpKind::kCallModule:
        PutAnnotated(out, *node);
        Put(out, " = self.");
        Put(out, node->target());
        PutCallArgs(out, *node, 0);
        break;
      case OpKind::kCallMethod:
        PutAnnotated(out, *node);
        Put(out, " = ");
        if (!node->args().empty()) AppendPythonArg(out, node->args()[0]);
        out.push_back('.');
        Put(out, node->target());
        PutCallArgs(out, *node, 1);
        break;
      default:
        PutAnnotated(out, *node);
        Put(out, " = ");
        if (graph.style().subscript_getitem && node->target() == "operator.getitem" && node->args().size() == 2 &&
            node->kwargs().empty()) {
          AppendPythonArg(out, node->args()[0]);
          out.push_back('[');
          AppendPythonArg(out, node->args()[1]);
          out.push_back(']');
          break;
        }
        Put(out, node->target());
        PutCallArgs(out, *node, 0);
        break;
    }
    out.push_back('\n');
  }
  Put(out, graph.style().submodules);
  return std::string(out.data(), out.size());
}

}  // namespace airscope

// PrintReadable: torch 2.x's print_readable() layout (see readable.h).
#include <fmt/format.h>

#include "core/fx/python_repr.h"
#include "core/fx/readable.h"

#include "core/fx/python_operators.h"

namespace airscope {
namespace {

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
  AppendText(out, shown_name.empty() ? std::string_view(node.name()) : shown_name);
  std::string annotation = AnnotationOf(node);
  if (!annotation.empty()) {
    AppendText(out, ": \"");
    AppendText(out, annotation);
    out.push_back('"');
  }
}

void PutCallArgs(fmt::memory_buffer& out, const Node& node, size_t first) {
  out.push_back('(');
  bool comma = false;
  for (size_t i = first; i < node.args().size(); ++i) {
    if (comma) AppendText(out, ", ");
    AppendPythonArg(out, node.args()[i]);
    comma = true;
  }
  for (const Kwarg& kw : node.kwargs()) {
    if (comma) AppendText(out, ", ");
    AppendText(out, kw.name);
    AppendText(out, " = ");
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
    AppendText(out, "        ");
    AppendText(out, trace.substr(0, nl));
    out.push_back('\n');
    trace = nl == std::string_view::npos ? std::string_view() : trace.substr(nl + 1);
  }
}

// torch.fx writes a call of an `operator` function as the operator
// (core/fx/python_operators.h): `mul = 2 * s0`, `neg = -s0`. False when
// `node` is no such call with positional operands only.
bool PutPythonOperator(fmt::memory_buffer& out, const Node& node) {
  constexpr std::string_view kModule = "operator.";
  if (!node.target().starts_with(kModule) || !node.kwargs().empty()) return false;
  const PythonOperator* op = OperatorOfFunction(std::string_view(node.target()).substr(kModule.size()));
  if (op == nullptr || node.args().size() != (op->unary ? 1u : 2u)) return false;
  if (op->unary) {
    AppendText(out, op->symbol);
    AppendPythonArg(out, node.args()[0]);
    return true;
  }
  AppendPythonArg(out, node.args()[0]);
  out.push_back(' ');
  AppendText(out, op->symbol);
  out.push_back(' ');
  AppendPythonArg(out, node.args()[1]);
  return true;
}

// torch.fx prints the operator module's in-place functions (graph.py,
// inplace_methods) as the statement, then the node bound to the operand:
// `l_x_[0] = v;  setitem = l_x_`, `l_x_ += 1;  iadd = l_x_`. False when
// `node` is not one of them (or its operand is not a node).
bool PutInplaceOperator(fmt::memory_buffer& out, const Node& node) {
  static constexpr std::pair<std::string_view, std::string_view> kInplace[] = {
      {"operator.iadd", "+="},       {"operator.isub", "-="}, {"operator.imul", "*="},  {"operator.itruediv", "/="},
      {"operator.ifloordiv", "//="}, {"operator.imod", "%="}, {"operator.ipow", "**="}, {"operator.imatmul", "@="},
      {"operator.iand", "&="},       {"operator.ior", "|="},  {"operator.ixor", "^="},  {"operator.ilshift", "<<="},
      {"operator.irshift", ">>="}};
  if (node.op() != OpKind::kCallFunction || !node.kwargs().empty() || node.args().empty() ||
      !node.args()[0].is_node()) {
    return false;
  }
  const Argument& operand = node.args()[0];
  if (node.target() == "operator.setitem" && node.args().size() == 3) {
    AppendPythonArg(out, operand);
    out.push_back('[');
    AppendPythonArg(out, node.args()[1]);
    AppendText(out, "] = ");
    AppendPythonArg(out, node.args()[2]);
  } else {
    std::string_view symbol;
    for (const auto& [target, text] : kInplace) {
      if (node.target() == target) symbol = text;
    }
    if (symbol.empty() || node.args().size() != 2) return false;
    AppendPythonArg(out, operand);
    out.push_back(' ');
    AppendText(out, symbol);
    out.push_back(' ');
    AppendPythonArg(out, node.args()[1]);
  }
  AppendText(out, ";  ");
  PutAnnotated(out, node);
  AppendText(out, " = ");
  AppendPythonArg(out, operand);
  return true;
}

}  // namespace

std::string PrintReadable(const Graph& graph) {
  fmt::memory_buffer out;
  out.reserve(128 + graph.size() * 112);
  AppendText(out, "class ");
  AppendText(out, graph.style().module_class);
  AppendText(out, "(torch.nn.Module):\n    def forward(self");
  for (const Node* node : graph) {
    if (node->op() != OpKind::kPlaceholder) continue;
    AppendText(out, ", ");
    // The signature names the placeholder's target; a node renamed from it
    // gets `name = target` in the body (Dynamo's `l_x_ = L_x_`).
    PutAnnotated(out, *node, node->target());
    if (!node->args().empty()) {
      AppendText(out, " = ");
      AppendPythonArg(out, node->args()[0]);
    }
  }
  AppendText(out, "):\n");
  for (const Node* node : graph) {
    if (node->op() != OpKind::kPlaceholder || node->name() == node->target()) continue;
    AppendText(out, "        ");
    AppendText(out, node->name());
    AppendText(out, " = ");
    AppendText(out, node->target());
    out.push_back('\n');
  }
  for (const Node* node : graph) {
    if (node->op() == OpKind::kPlaceholder) continue;
    PutStackTrace(out, *node);
    AppendText(out, "        ");
    switch (node->op()) {
      case OpKind::kOutput:
        AppendText(out, "return ");
        if (!node->args().empty()) AppendPythonArg(out, node->args()[0]);
        break;
      case OpKind::kGetAttr:
        PutAnnotated(out, *node);
        AppendText(out, " = self.");
        AppendText(out, node->target());
        break;
      case OpKind::kCallModule:
        PutAnnotated(out, *node);
        AppendText(out, " = self.");
        AppendText(out, node->target());
        PutCallArgs(out, *node, 0);
        break;
      case OpKind::kCallMethod:
        PutAnnotated(out, *node);
        AppendText(out, " = ");
        if (!node->args().empty()) AppendPythonArg(out, node->args()[0]);
        out.push_back('.');
        AppendText(out, node->target());
        PutCallArgs(out, *node, 1);
        break;
      default:
        if (PutInplaceOperator(out, *node)) break;
        PutAnnotated(out, *node);
        AppendText(out, " = ");
        if (graph.style().subscript_getitem && node->target() == "operator.getitem" && node->args().size() == 2 &&
            node->kwargs().empty()) {
          AppendPythonArg(out, node->args()[0]);
          out.push_back('[');
          AppendPythonArg(out, node->args()[1]);
          out.push_back(']');
          break;
        }
        if (PutPythonOperator(out, *node)) break;
        AppendText(out, node->target());
        PutCallArgs(out, *node, 0);
        break;
    }
    out.push_back('\n');
  }
  AppendText(out, graph.style().submodules);
  return std::string(out.data(), out.size());
}

}  // namespace airscope

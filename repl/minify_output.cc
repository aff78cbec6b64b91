#include "repl/minify_output.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/fx/python_repr.h"
#include "core/ir/dtype.h"

namespace airscope {
namespace {

// The settings whose value is not airscope's default, in the table's order.
std::vector<std::pair<std::string, std::string>> ChangedSettings(const Settings& settings) {
  Settings defaults;
  std::vector<std::pair<std::string, std::string>> changed;
  for (const SettingSpec& spec : settings.specs()) {
    const std::string& value = settings.Get(spec.name);
    if (value != defaults.Get(spec.name)) changed.emplace_back(spec.name, value);
  }
  return changed;
}

// Each line of `text` as a `#` comment.
std::string Commented(std::string_view text, std::string_view indent = "") {
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = std::min(text.find('\n', start), text.size());
    out += fmt::format("{}# {}\n", indent, text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// A dotted Python name (`torch.ops.aten.mm.default`, `operator.getitem`).
bool IsDottedName(std::string_view text) {
  if (text.empty() || text.front() == '.' || text.back() == '.') return false;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = std::min(text.find('.', start), text.size());
    if (!Graph::IsLegalName(text.substr(start, end - start))) return false;
    start = end + 1;
  }
  return true;
}

// A Python tuple of the args: `(a,)`, `(a, b)`, `()`.
std::string PythonArgs(const std::vector<Argument>& args) {
  std::vector<std::string> items;
  for (const Argument& a : args) items.push_back(FormatPythonArg(a));
  return fmt::format("({}{})", fmt::join(items, ", "), items.size() == 1 ? "," : "");
}

std::string PythonKwargs(const std::vector<Kwarg>& kwargs) {
  std::string out = "{";
  for (size_t i = 0; i < kwargs.size(); ++i) {
    out += fmt::format("{}{}: {}", i ? ", " : "", PythonStringRepr(kwargs[i].name), FormatPythonArg(kwargs[i].value));
  }
  return out + "}";
}

bool IsFloating(DType dtype) {
  std::string_view name = TorchName(dtype);
  return name.find("float") != std::string_view::npos || name.find("half") != std::string_view::npos ||
         name.find("complex") != std::string_view::npos;
}

// A tensor of `meta`'s shape and dtype on the NPU; symbolic sizes become 2.
std::string TensorExpr(const TensorMeta& meta) {
  std::vector<std::string> sizes;
  bool symbolic = false;
  for (const Dim& d : meta.sizes) {
    symbolic |= !d.is_static();
    sizes.push_back(d.is_static() ? std::to_string(d.value()) : "2");
  }
  std::string shape = fmt::format("[{}]", fmt::join(sizes, ", "));
  std::string dtype = meta.dtype == DType::kUnknown ? "torch.float32" : std::string(TorchName(meta.dtype));
  std::string expr = IsFloating(meta.dtype) || meta.dtype == DType::kUnknown
                         ? fmt::format("torch.randn({}, dtype={}, device=\"npu\")", shape, dtype)
                         : fmt::format("torch.zeros({}, dtype={}, device=\"npu\")", shape, dtype);
  if (symbolic) expr += fmt::format("  # symbolic sizes ({}) given as 2", meta.ShapeString());
  return expr;
}

// A Python literal for a setting's value: booleans as True/False, numbers bare, text quoted.
std::string PythonValue(const std::string& value) {
  if (value == "true") return "True";
  if (value == "false") return "False";
  if (!value.empty() && value.find_first_not_of("0123456789") == std::string::npos) return value;
  return PythonStringRepr(value);
}

}  // namespace

std::string MinAirscriptText(const std::string& graph_name, const std::string& line, const Settings& settings,
                             const std::vector<std::string>& definitions, const std::vector<std::string>& passes,
                             const std::string& failure) {
  std::string out = "# Written by airscope minify: the smallest graph found on which the last line fails\n";
  out += "# the same way. Run it with `airscope min.airscript`: it stops at that line (exit 1) with:\n";
  out += Commented(failure);
  out += fmt::format("load min.readable.py as {}\n", graph_name);
  if (!definitions.empty()) out += "# The session's definitions, as it ran them:\n";
  for (const std::string& definition : definitions) out += definition + "\n";
  for (const auto& [name, value] : ChangedSettings(settings)) out += fmt::format("set {} {}\n", name, value);
  if (!passes.empty()) out += fmt::format("pipeline set {}\n", fmt::join(passes, ","));
  out += line + "\n";
  return out;
}

std::string ReproPyText(const Graph& graph, const std::string& graph_name, const std::string& line,
                        const Settings& settings, const std::string& failure, const std::vector<CallSpec>& calls) {
  std::string out;
  out += fmt::format("# repro.py: written by airscope minify from graph '{}', where `{}` failed with:\n", graph_name,
                     line);
  out += Commented(failure);
  out +=
      "#\n"
      "# For the real NPU (torch, torch_npu and torchair installed): it builds the minimal graph with\n"
      "# torch.fx, compiles it with TorchAir's backend under the session's settings and calls it once\n"
      "# with inputs of the graph's shapes. It builds and compiles the way TorchAir's own tests do\n"
      "# (tests/st/torchair_aclgraph_st.py @fced8842, test_aclgraph_capture_and_replay: CompilerConfig(),\n"
      "# config.mode = \"reduce-overhead\", torchair.get_npu_backend(compiler_config=config),\n"
      "# torch.compile(model, backend=..., dynamic=...); fx.Graph() built by hand as in\n"
      "# test_fx_node_shape_analysis). airscope simulated the failure; whether the real stack fails the\n"
      "# same way is what this script is for. Input values are random: only shapes and dtypes are kept.\n"
      "import operator  # noqa: F401  (targets such as operator.getitem)\n"
      "\n"
      "import torch\n"
      "\n"
      "\n"
      "def _unsupported(what):\n"
      "    raise NotImplementedError(\"airscope cannot write this part of the graph as Python: \" + what)\n"
      "\n"
      "\n"
      "def build_graph_module():\n"
      "    root = torch.nn.Module()\n"
      "    _airscope_graph = torch.fx.Graph()\n";
  for (const Node* node : graph) {
    const std::string& name = node->name();
    switch (node->op()) {
      case OpKind::kPlaceholder:
        out += fmt::format("    {} = _airscope_graph.placeholder({})\n", name, PythonStringRepr(name));
        break;
      case OpKind::kGetAttr:
        if (Graph::IsLegalName(node->target()) && node->tensor()) {
          out += fmt::format("    root.register_buffer({}, {})\n", PythonStringRepr(node->target()),
                             TensorExpr(*node->tensor()));
          out += fmt::format("    {} = _airscope_graph.get_attr({})\n", name, PythonStringRepr(node->target()));
        } else {
          out += fmt::format("    {} = _unsupported({})\n", name,
                             PythonStringRepr("get_attr " + node->target() + " (no tensor meta, or a nested name)"));
        }
        break;
      case OpKind::kCallFunction:
        if (IsDottedName(node->target())) {
          out += fmt::format("    {} = _airscope_graph.call_function({}, {}, {})\n", name, node->target(),
                             PythonArgs(node->args()), PythonKwargs(node->kwargs()));
        } else {
          out += fmt::format("    {} = _unsupported({})\n", name, PythonStringRepr("call_function " + node->target()));
        }
        break;
      case OpKind::kCallMethod:
        out += fmt::format("    {} = _airscope_graph.call_method({}, {}, {})\n", name, PythonStringRepr(node->target()),
                           PythonArgs(node->args()), PythonKwargs(node->kwargs()));
        break;
      case OpKind::kCallModule:
        out += fmt::format("    {} = _unsupported({})\n", name,
                           PythonStringRepr("call_module " + node->target() + " (airscope has no module weights)"));
        break;
      case OpKind::kOutput:
        out += fmt::format("    _airscope_graph.output({})\n",
                           node->args().empty() ? "None" : FormatPythonArg(node->args()[0]));
        break;
    }
  }
  out += "    return torch.fx.GraphModule(root, _airscope_graph)\n\n\n";
  auto graph_input = [](const Node* node, std::string_view indent) {
    if (const TensorMeta* t = node->tensor()) return fmt::format("{}{},\n", indent, TensorExpr(*t));
    if (node->meta() && node->meta()->kind == ValueKind::kSymInt) {
      return fmt::format("{}2,  # {}: {} given as 2\n", indent, node->name(), node->meta()->annotation);
    }
    return fmt::format("{}_unsupported({}),\n", indent,
                       PythonStringRepr("input " + node->name() + " has no shape airscope knows"));
  };
  out += "def example_inputs():\n    return [\n";
  for (const Node* node : graph.Placeholders()) out += graph_input(node, "        ");
  out += "    ]\n\n\n";
  if (!calls.empty()) {
    // The calls of the script LINE sources, each input at the call's own
    // shape (one the call does not name: the graph's).
    out += "def calls():\n    return [\n";
    for (const CallSpec& call : calls) {
      out += "        [\n";
      for (const Node* node : graph.Placeholders()) {
        auto given = std::find_if(call.inputs.begin(), call.inputs.end(),
                                  [&](const CallInput& in) { return in.name == node->name(); });
        if (given == call.inputs.end()) {
          out += graph_input(node, "            ");
        } else if (given->scalar) {
          out += fmt::format("            {},\n", given->scalar->repr);
        } else {
          out += fmt::format("            {},\n", TensorExpr(given->ToMeta()));
        }
      }
      out += "        ],\n";
    }
    out += "    ]\n\n\n";
  }
  out += "def main():\n";
  out += "    import torch_npu  # noqa: F401  (the NPU device)\n";
  out += "    import torchair\n";
  out += "    from torchair.configs.compiler_config import CompilerConfig\n\n";
  out += "    config = CompilerConfig()\n";
  if (settings.CapturesAclGraphs()) {
    out += "    config.mode = \"reduce-overhead\"\n";
  } else {
    out += "    # the session's mode was 'default': CompilerConfig's own mode is kept\n";
  }
  for (const auto& [name, value] : ChangedSettings(settings)) {
    if (name.starts_with("config.")) out += fmt::format("    {} = {}\n", name, PythonValue(value));
  }
  const std::string& dynamic = settings.Get("dynamic");
  std::string dynamic_arg = dynamic == "true" ? "True" : dynamic == "false" ? "False" : "None";
  out += "    backend = torchair.get_npu_backend(compiler_config=config)\n";
  out += fmt::format("    model = torch.compile(build_graph_module(), backend=backend, dynamic={})\n", dynamic_arg);
  out +=
      calls.empty() ? "    model(*example_inputs())\n\n\n" : "    for inputs in calls():\n        model(*inputs)\n\n\n";
  out += "if __name__ == \"__main__\":\n    main()\n";
  return out;
}

}  // namespace airscope

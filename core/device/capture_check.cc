#include "core/device/capture_check.h"

#include <cctype>

#include <fmt/format.h>

#include "core/ops/op_registry.h"

namespace airscope {
namespace {

// An unbacked symbol: `u` followed by digits, anywhere in the expression.
bool HasUnbackedSymbol(const std::string& expr) {
  for (size_t i = 0; i < expr.size(); ++i) {
    bool start = i == 0 || !(std::isalnum(static_cast<unsigned char>(expr[i - 1])) || expr[i - 1] == '_');
    if (start && expr[i] == 'u' && i + 1 < expr.size() && std::isdigit(static_cast<unsigned char>(expr[i + 1]))) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::vector<CaptureIssue> CaptureCheck(const Graph& graph) {
  std::vector<CaptureIssue> issues;
  for (const Node* node : graph) {
    std::string_view target = StripTorchOps(node->target());
    if (node->op() == OpKind::kCallFunction &&
        (target == "aten._local_scalar_dense.default" || target == "aten.item.default")) {
      issues.push_back({node->name(), fmt::format("skipping cudagraphs due to a host sync: {} copies a device "
                                                  "value to the host (.item()); keep it out of the captured "
                                                  "region or make the value a tensor",
                                                  target)});
      continue;
    }
    const NodeMeta* meta = node->meta();
    if (!meta || node->op() == OpKind::kOutput) continue;
    bool cpu = false;
    std::string symbol;
    for (const TensorMeta& t : meta->tensors) {
      cpu = cpu || t.device == "cpu";
      for (const Dim& d : t.sizes) {
        if (!d.is_static() && symbol.empty() && HasUnbackedSymbol(d.symbol())) symbol = d.symbol();
      }
    }
    if (meta->kind == ValueKind::kSymInt && HasUnbackedSymbol(meta->annotation)) symbol = meta->annotation;
    if (cpu) {
      issues.push_back({node->name(), "skipping cudagraphs due to cpu device: the value lives on the CPU; move "
                                      "it to the NPU (.npu()) before the compiled region"});
    }
    if (!symbol.empty()) {
      issues.push_back({node->name(), fmt::format("skipping cudagraphs due to a data-dependent shape ({}): the size "
                                                  "depends on tensor values; pad to a fixed size or split the "
                                                  "graph before this node",
                                                  symbol)});
    }
  }
  return issues;
}

}  // namespace airscope

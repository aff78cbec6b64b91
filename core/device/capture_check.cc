#include "core/device/capture_check.h"

#include <cctype>

#include <fmt/format.h>

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
      issues.push_back({node->name(),
                        "its value lives on the CPU: a capture records only work issued on the "
                        "captured streams (CANN aclmdlRICaptureBegin), so what the host computes "
                        "from it runs once, while capturing, and replays do not redo it"});
    }
    if (!symbol.empty()) {
      issues.push_back({node->name(), fmt::format("its size depends on tensor values ({}): a captured graph "
                                                  "replays the sizes and addresses of its capture, and reading the "
                                                  "size needs a host read (.item()), which capture refuses",
                                                  symbol)});
    }
  }
  return issues;
}

}  // namespace airscope

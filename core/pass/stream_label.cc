#include "core/pass/stream_label.h"

#include <vector>

#include "core/pass/stream_util.h"

namespace airscope {

std::unordered_map<const Node*, std::string> StreamLabels(const Graph& graph) {
  std::unordered_map<const Node*, std::string> labels;
  std::vector<std::string> stack;
  std::string current;
  for (const Node* node : graph) {
    if (IsTarget(*node, kScopeEnter)) {
      stack.push_back(current);
      if (std::optional<std::string> stream = UserStreamOf(*node)) current = *stream;
      labels[node] = current;
    } else if (IsTarget(*node, kScopeExit)) {
      labels[node] = current;
      if (!stack.empty()) {
        current = stack.back();
        stack.pop_back();
      }
    } else {
      labels[node] = current;
    }
  }
  return labels;
}

}  // namespace airscope

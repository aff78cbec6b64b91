#include "viz/input_bundles.h"

#include <fmt/format.h>

namespace airscope {

InputBundles BundleSingleUseInputs(const Graph& graph, const std::unordered_set<std::string>* only,
                                   const std::unordered_set<std::string>& keep) {
  InputBundles bundles;
  auto drawn = [only](const Node* node) { return only == nullptr || only->count(node->name()) > 0; };
  for (const Node* node : graph) {
    if (node->op() != OpKind::kPlaceholder && node->op() != OpKind::kGetAttr) continue;
    if (node->users().size() != 1 || keep.count(node->name()) > 0 || !drawn(node)) continue;
    if (!drawn(node->users().front())) continue;  // its only edge leads out of the drawing: stays a node
    bundles.bundled.insert(node);
    bundles.of_user.try_emplace(node->users().front());
  }
  // Listed in the order the user reads them (a call's arguments), not graph order.
  for (auto& [user, inputs] : bundles.of_user) {
    for (const Node* input : user->inputs()) {
      if (bundles.bundled.count(input) > 0) inputs.push_back(input);
    }
  }
  return bundles;
}

std::string BundleLine(const std::vector<const Node*>& inputs) {
  constexpr size_t kNamed = 3;  // a label line, not a list: the rest is a count
  std::string line = fmt::format("+{} input{}: ", inputs.size(), inputs.size() == 1 ? "" : "s");
  for (size_t i = 0; i < inputs.size() && i < kNamed; ++i) {
    if (i > 0) line += ", ";
    line += inputs[i]->name();
    if (inputs[i]->meta()) {
      std::string shape = inputs[i]->meta()->ShapeString();
      if (!shape.empty()) line += " " + shape;
    }
  }
  if (inputs.size() > kNamed) line += fmt::format(", ... {} more", inputs.size() - kNamed);
  return line;
}

}  // namespace airscope

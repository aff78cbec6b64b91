#include "core/ir/node.h"

#include <algorithm>
#include <array>

namespace airscope {
namespace {
constexpr std::array<std::string_view, 6> kOpKindNames = {
    "placeholder", "get_attr", "call_function", "call_method", "call_module", "output"};
}  // namespace

std::string_view OpKindName(OpKind op) { return kOpKindNames[static_cast<size_t>(op)]; }

bool ParseOpKind(std::string_view text, OpKind* out) {
  for (size_t i = 0; i < kOpKindNames.size(); ++i) {
    if (kOpKindNames[i] == text) {
      *out = static_cast<OpKind>(i);
      return true;
    }
  }
  return false;
}

Node::Node(Graph* graph, OpKind op, const std::string* target, std::string name)
    : name_(std::move(name)), target_(target), stream_(nullptr), graph_(graph), op_(op) {}

const Argument* Node::kwarg(std::string_view name) const {
  for (const Kwarg& kw : kwargs_) {
    if (kw.name == name) return &kw.value;
  }
  return nullptr;
}

std::vector<Node*> Node::inputs() const {
  std::vector<Node*> out;
  auto add = [&out](Node* n) {
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  };
  for (const Argument& a : args_) a.ForEachNode(add);
  for (const Kwarg& kw : kwargs_) kw.value.ForEachNode(add);
  return out;
}

}  // namespace airscope

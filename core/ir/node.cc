#include "core/ir/node.h"

#include <algorithm>
#include <array>
#include <unordered_set>

#include "core/ir/graph.h"

namespace airscope {
namespace {
constexpr std::array<std::string_view, 6> kOpKindNames = {"placeholder", "get_attr",    "call_function",
                                                          "call_method", "call_module", "output"};
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

std::string OpHistogramKey(const Node& node) {
  const std::string& target = node.target();
  switch (node.op()) {
    case OpKind::kCallFunction: {
      std::string_view t = target;
      if (t.substr(0, 10) == "torch.ops.") return std::string(t.substr(10));
      for (std::string_view module : {"operator.", "builtins.", "_operator."}) {
        if (t.substr(0, module.size()) == module) {
          return "<built-in function " + std::string(t.substr(module.size())) + ">";
        }
      }
      return target;
    }
    case OpKind::kCallMethod:
    case OpKind::kCallModule: return target;
    default: return std::string(OpKindName(node.op()));
  }
}

void Node::set_meta(NodeMeta meta) {
  if (!graph_) return;
  meta_ = graph_->StoreMeta(std::move(meta));
  graph_->Touch();
}

void Node::share_meta(const Node& like) {
  if (!graph_ || like.graph_ != graph_) return;
  meta_ = like.meta_;
  graph_->Touch();
}

void Node::clear_meta() {
  if (!meta_ || !graph_) return;
  meta_ = nullptr;
  graph_->Touch();
}

Node::Node(Graph* graph, OpKind op, const std::string* target, std::string name)
    : name_(std::move(name)), target_(target), stream_(nullptr), graph_(graph), op_(op) {}

const Argument* Node::kwarg(std::string_view name) const {
  for (const Kwarg& kw : kwargs()) {
    if (kw.name == name) return &kw.value;
  }
  return nullptr;
}

const std::vector<Kwarg>& Node::NoKwargs() {
  static const std::vector<Kwarg> kNone;
  return kNone;
}

std::vector<Node*> Node::inputs() const {
  std::vector<Node*> out;
  // Linear de-duplication is fastest for the usual handful of inputs; an
  // output or cat with thousands of inputs switches to a hash set so it
  // stays linear.
  std::unordered_set<Node*> seen;
  auto add = [&out, &seen](Node* n) {
    if (out.size() < 16) {
      if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
      return;
    }
    if (seen.empty()) seen.insert(out.begin(), out.end());
    if (seen.insert(n).second) out.push_back(n);
  };
  for (const Argument& a : args_) a.ForEachNode(add);
  for (const Kwarg& kw : kwargs()) kw.value.ForEachNode(add);
  return out;
}

}  // namespace airscope

#include "core/analysis/stream_util.h"

#include <algorithm>

#include <fmt/format.h>

namespace airscope {

std::optional<std::string> UserStreamOf(const Node& node) {
  if (!IsTarget(node, kScopeEnter) || node.args().size() < 2) return std::nullopt;
  const Argument& labels = node.args()[0];
  const Argument& streams = node.args()[1];
  if (!labels.is_sequence() || !streams.is_sequence() || streams.items().empty()) return std::nullopt;
  bool user = false;
  for (const Argument& label : labels.items()) {
    if (label.kind() == Argument::Kind::kString && label.as_string() == kUserStreamLabel) user = true;
  }
  const Argument& first = streams.items()[0];
  if (!user || first.kind() != Argument::Kind::kString) return std::nullopt;
  return first.as_string();
}

Node* InsertCall(Graph& graph, Node* position, bool before, std::string_view target, std::vector<Argument> args,
                 std::vector<Kwarg> kwargs, const OpRegistry* registry, std::string hint) {
  NodeSpec spec = CallSpec(target, std::move(args), std::move(kwargs), std::move(hint));
  Node* node = before ? graph.InsertBefore(position, std::move(spec)) : graph.InsertAfter(position, std::move(spec));
  if (registry) InferMeta(node, *registry);
  return node;
}

std::string FxOverloadName(std::string_view target) {
  target = StripTorchOps(target);
  size_t ns = target.find('.');
  std::string_view rest = ns == std::string_view::npos ? target : target.substr(ns + 1);
  std::string out(rest);
  std::replace(out.begin(), out.end(), '.', '_');
  return out;
}

bool IsNoOpNode(const Node& node, const OpRegistry& registry) {
  switch (node.op()) {
    case OpKind::kPlaceholder:
    case OpKind::kGetAttr:
    case OpKind::kOutput: return true;
    case OpKind::kCallMethod:
    case OpKind::kCallModule: return false;
    case OpKind::kCallFunction: break;
  }
  std::string_view target = StripTorchOps(node.target());
  if (target == kScopeEnter || target == kScopeExit) return true;
  if (target == "operator.getitem" || target == "aten.sym_size.int") return true;
  const OpInfo* info = registry.Find(target);
  return info && info->category == OpCategory::kView;
}

StreamLabelMap StreamLabels(const Graph& graph) {
  StreamLabelMap labels;
  labels.label_of_ = NodeSlotMap<uint32_t>(graph);
  std::unordered_map<std::string, uint32_t> index;  // label -> its place in labels_
  std::vector<std::string> stack;
  std::string current;  // "" = None, the default stream
  // The label index of `current`, looked up once per change of label.
  uint32_t current_index = 0;
  bool current_indexed = false;
  for (const Node* node : graph) {
    if (IsTarget(*node, kScopeEnter)) {
      stack.push_back(current);
      bool user = false;
      if (!node->args().empty() && node->args()[0].is_sequence()) {
        for (const Argument& key : node->args()[0].items()) {
          if (key.kind() == Argument::Kind::kString && key.as_string() == kUserStreamLabel) user = true;
        }
      }
      if (user) {
        // TorchAir: args[1][0] if len(args) > 1 else None.
        const Argument* values = node->args().size() > 1 ? &node->args()[1] : nullptr;
        current = values && values->is_sequence() && !values->items().empty() &&
                          values->items()[0].kind() == Argument::Kind::kString
                      ? values->items()[0].as_string()
                      : "";
        current_indexed = false;
      }
    }
    if (!current_indexed) {
      auto [it, fresh] = index.try_emplace(current, static_cast<uint32_t>(labels.labels_.size()));
      if (fresh) labels.labels_.push_back(current);
      current_index = it->second;
      current_indexed = true;
    }
    labels.label_of_[node] = current_index;
    if (IsTarget(*node, kScopeExit) && !stack.empty()) {
      current = stack.back();
      stack.pop_back();
      current_indexed = false;
    }
  }
  return labels;
}

bool AddStreamLabelToNodeMeta(Graph& graph) {
  StreamLabelMap labels = StreamLabels(graph);
  bool changed = false;
  for (Node* node : graph) {
    const std::string& label = labels.At(node);
    if (node->stream() != label) {
      graph.SetStream(node, label);
      changed = true;
    }
  }
  return changed;
}

Result<std::vector<std::string>> StreamsFromScopes(const Graph& graph) {
  struct Open {
    const Node* enter;
    std::string stream;
  };
  std::vector<Open> stack;
  std::vector<std::string> streams;
  streams.reserve(graph.size());
  for (const Node* node : graph) {
    std::string current = stack.empty() ? "" : stack.back().stream;
    if (IsTarget(*node, kScopeEnter)) {
      streams.push_back(current);
      std::optional<std::string> user = UserStreamOf(*node);
      stack.push_back({node, user ? *user : current});
    } else if (IsTarget(*node, kScopeExit)) {
      if (stack.empty()) return Status::Errorf("air.scope_exit '{}' has no matching scope_enter", node->name());
      streams.push_back(std::move(current));  // still inside the `with` block
      stack.pop_back();
    } else if (node->op() == OpKind::kOutput || node->op() == OpKind::kPlaceholder) {
      streams.push_back("");  // graph inputs and outputs live on the default stream
    } else {
      streams.push_back(std::move(current));
    }
  }
  if (!stack.empty()) {
    const Open& open = stack.back();
    return Status::Errorf("air.scope_enter '{}' (stream {}) is never closed", open.enter->name(),
                          open.stream.empty() ? "default" : open.stream);
  }
  return streams;
}

}  // namespace airscope

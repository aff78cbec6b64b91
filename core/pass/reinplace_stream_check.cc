#include "core/pass/reinplace_stream_check.h"

#include "core/analysis/node_util.h"
#include "core/analysis/stream_util.h"

namespace airscope {

bool SameStream(const std::vector<Node*>& nodes, const StreamLabelMap& labels) {
  if (nodes.size() < 2) return true;
  // TorchAir collects the labels into a set and asks for one element; the
  // same answer without building the set (this runs once per candidate,
  // over every user of its input).
  const std::string* first = nullptr;
  for (const Node* node : nodes) {
    const std::string* label = labels.Find(node);
    if (label == nullptr) return false;  // a node without a label (created after labelling)
    if (first && *label != *first) return false;
    first = label;
  }
  return true;
}

namespace {

bool IsCopy(const Node& node) { return IsTarget(node, "aten.copy_.default"); }

// _collect_single_node_users (au:344-376).
std::vector<Node*> SingleNodeUsers(const Node& input) {
  std::vector<Node*> users;
  const Node* copy = nullptr;
  for (Node* user : input.users()) {
    if (IsCopy(*user)) {
      copy = user;
      continue;
    }
    users.push_back(user);
  }
  if (copy != nullptr) {
    if (copy->args().size() > 1 && copy->args()[1].is_node() &&
        IsTarget(*copy->args()[1].as_node(), "operator.getitem")) {
      for (Node* candidate : copy->args()[1].as_node()->users()) {
        if (candidate != copy) users.push_back(candidate);
      }
    }
    users.insert(users.end(), copy->users().begin(), copy->users().end());
  }
  return users;
}

}  // namespace

bool CheckSingleReinplaceStreams(const Node& node, size_t num_outputs, const StreamLabelMap& labels) {
  return CheckMultiReinplaceStreams(node, {0}, num_outputs, labels);
}

bool CheckMultiReinplaceStreams(const Node& node, const std::vector<size_t>& indices, size_t num_outputs,
                                const StreamLabelMap& labels) {
  for (size_t k = 0; k < indices.size(); ++k) {
    size_t idx = indices[k];
    if (idx >= node.args().size()) continue;  // au:319-321 logs a warning and skips it
    std::vector<Node*> users;
    if (node.args()[idx].is_node()) users = SingleNodeUsers(*node.args()[idx].as_node());
    // au:301-313, 329-333: the last n outputs correspond to the mutated args.
    if (num_outputs >= indices.size()) {
      int64_t out_idx = static_cast<int64_t>(num_outputs - indices.size() + k);
      for (Node* getitem : node.users()) {
        if (!IsTarget(*getitem, "operator.getitem") || getitem->args().size() < 2 ||
            getitem->args()[1].kind() != Argument::Kind::kInt || getitem->args()[1].as_int() != out_idx) {
          continue;
        }
        for (Node* user : getitem->users()) {
          if (!IsCopy(*user)) users.push_back(user);
        }
      }
    }
    if (!SameStream(users, labels)) return false;
  }
  return true;
}

bool CheckAutoFunctionalizeStreams(const Node& mutated_arg, const StreamLabelMap& labels) {
  return SameStream(SingleNodeUsers(mutated_arg), labels);
}

}  // namespace airscope

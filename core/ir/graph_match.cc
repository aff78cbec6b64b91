#include "core/ir/graph_match.h"

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

namespace airscope {
namespace {

std::string_view WithoutTorchOps(std::string_view target) {
  constexpr std::string_view kPrefix = "torch.ops.";
  return target.substr(0, kPrefix.size()) == kPrefix ? target.substr(kPrefix.size()) : target;
}

class Matcher {
 public:
  // Arguments are equal when every node reference of `e` maps to the node at
  // the same position in `a`; everything else compares as Argument::SameAs.
  bool SameArg(const Argument& e, const Argument& a) const {
    if (e.kind() != a.kind()) return false;
    if (e.is_node()) {
      auto it = position_.find(e.as_node());
      auto jt = position_.find(a.as_node());
      return it != position_.end() && jt != position_.end() && it->second == jt->second;
    }
    if (e.is_sequence()) {
      if (e.items().size() != a.items().size()) return false;
      for (size_t i = 0; i < e.items().size(); ++i) {
        if (!SameArg(e.items()[i], a.items()[i])) return false;
      }
      return true;
    }
    return e.SameAs(a);
  }

  void Place(const Node* node, size_t index) { position_[node] = index; }

 private:
  // Both graphs' nodes by their index in their own graph.
  std::unordered_map<const Node*, size_t> position_;
};

std::vector<const Kwarg*> SortedKwargs(const Node& node) {
  std::vector<const Kwarg*> out;
  for (const Kwarg& kwarg : node.kwargs()) out.push_back(&kwarg);
  std::sort(out.begin(), out.end(), [](const Kwarg* x, const Kwarg* y) { return x->name < y->name; });
  return out;
}

}  // namespace

bool MatchGraphs(const Graph& expected, const Graph& actual, std::string* why, size_t* at) {
  size_t index = 0;
  auto fail = [why, at, &index](std::string message) {
    if (why) *why = std::move(message);
    if (at) *at = index;
    return false;
  };
  Matcher matcher;
  const Node* e = expected.front();
  const Node* a = actual.front();
  for (; e && a; e = e->next(), a = a->next(), ++index) {
    std::string where = fmt::format("node {} (expected '{}', actual '{}')", index, e->name(), a->name());
    matcher.Place(e, index);
    matcher.Place(a, index);
    if (e->op() != a->op()) {
      return fail(fmt::format("{}: op {} vs {}", where, OpKindName(e->op()), OpKindName(a->op())));
    }
    // A placeholder's target is its name: names are what this match ignores.
    if (e->op() != OpKind::kPlaceholder && WithoutTorchOps(e->target()) != WithoutTorchOps(a->target())) {
      return fail(fmt::format("{}: target {} vs {}", where, e->target(), a->target()));
    }
    if (e->args().size() != a->args().size()) {
      return fail(fmt::format("{}: {} args vs {}", where, e->args().size(), a->args().size()));
    }
    for (size_t i = 0; i < e->args().size(); ++i) {
      if (!matcher.SameArg(e->args()[i], a->args()[i])) return fail(fmt::format("{}: arg {} differs", where, i));
    }
    std::vector<const Kwarg*> ek = SortedKwargs(*e), ak = SortedKwargs(*a);
    if (ek.size() != ak.size()) {
      return fail(fmt::format("{}: {} kwargs vs {}", where, ek.size(), ak.size()));
    }
    for (size_t i = 0; i < ek.size(); ++i) {
      if (ek[i]->name != ak[i]->name) {
        return fail(fmt::format("{}: kwarg '{}' vs '{}'", where, ek[i]->name, ak[i]->name));
      }
      if (!matcher.SameArg(ek[i]->value, ak[i]->value)) {
        return fail(fmt::format("{}: kwarg '{}' differs", where, ek[i]->name));
      }
    }
  }
  if (e || a) {
    return fail(fmt::format("{} nodes expected, {} found; first unmatched: {} '{}'", expected.size(), actual.size(),
                            e ? "expected" : "actual", e ? e->name() : a->name()));
  }
  return true;
}

}  // namespace airscope

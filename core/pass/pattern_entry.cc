#include "core/pass/pattern_entry.h"

#include <set>

#include "core/analysis/node_util.h"

namespace airscope {

bool SingleStream(const PatternMatch& match, const StreamLabelMap& labels) {
  std::set<std::string> streams;
  for (const Node* n : match.nodes) {
    const std::string* label = labels.Find(n);
    streams.insert(label ? *label : std::string());
  }
  return streams.size() <= 1;
}

Argument Bound(const PatternMatch& match, const std::string& name) {
  auto it = match.bindings.find(name);
  return it == match.bindings.end() ? Argument::None() : it->second;
}

Node* MatchedNode(const PatternMatch& match, std::string_view target) {
  Node* found = nullptr;
  for (Node* n : match.nodes) {
    if (IsTarget(*n, target)) found = n;
  }
  return found;
}

PatternPtr GetitemPattern(PatternPtr of, int64_t index, int users) {
  return Pattern::Call("operator.getitem", {std::move(of), Pattern::Int(index)}, users);
}

PatternPtr AddRmsNormPattern(bool with_epsilon, int users) {
  std::vector<PatternPtr> args = {Pattern::Keyword("x1"), Pattern::Keyword("x2"), Pattern::Keyword("gamma")};
  if (with_epsilon) args.push_back(Pattern::Keyword("epsilon"));
  return Pattern::Call("npu.npu_add_rms_norm.default", std::move(args), users);
}

bool IsDefaultEpsilon(const Argument& epsilon) { return PyEqual(epsilon, Argument::Float(1e-6)); }

void AddEpsilonKwarg(const PatternMatch& match, std::vector<Kwarg>& kwargs) {
  Argument eps = Bound(match, "epsilon");
  if (match.bindings.contains("epsilon") && !IsDefaultEpsilon(eps)) kwargs.push_back({"epsilon", eps});
}

bool TracedEpsilonRematches(const PatternMatch& match, std::vector<std::string>& notes) {
  if (match.bindings.contains("epsilon") && IsDefaultEpsilon(Bound(match, "epsilon"))) {
    notes.push_back(
        "npu_add_rms_norm states epsilon=1e-06, its default: the pattern re-traced with the "
        "match's values (register_replacement check_fn) has no epsilon argument and does not match");
    return false;
  }
  return true;
}

const std::vector<PatternEntry>& TorchAirPatternEntries() {
  static const auto* entries = [] {
    auto* all = new std::vector<PatternEntry>;
    for (auto family : {AddRmsNormDynamicQuantEntries, AddRmsNormDynamicQuant2Entries, AddRmsNormCastEntries,
                        BatchMatMulTransposeEntries, AddRmsNormQuantEntries}) {
      for (PatternEntry& e : family()) all->push_back(std::move(e));
    }
    return all;
  }();
  return *entries;
}

}  // namespace airscope

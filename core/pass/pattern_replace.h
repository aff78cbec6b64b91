// Inductor's ReplacementPatternEntry.replace_with_graph (torch/_inductor/
// pattern_matcher.py, torch 2.6), for replacements airscope builds in place of
// the graph Inductor traces from a pattern's replace_fn (fwd_only: make_fx,
// then remove_noop_ops and dead-code elimination):
//  - the replacement goes before the earliest of the match's output nodes
//    (the only one, for a single-output pattern), on that node's stream;
//  - each output node's uses move to the replacement's output at the same
//    index, and the output node is erased;
//  - then Match.erase_nodes: every matched node, last matched first, that is
//    left without users.
//
// Contract: the graph stays valid (Lint) whatever the builder does; nodes the
// builder makes get meta from the op registry's inference.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"
#include "core/pass/pattern_match.h"

namespace airscope {

// Inserts the replacement's calls, in order, before one position.
class ReplacementBuilder {
 public:
  ReplacementBuilder(Graph& graph, Node* position, const OpRegistry& registry);
  Node* Call(std::string_view target, std::vector<Argument> args, std::vector<Kwarg> kwargs = {});
  Node* Getitem(Node* tuple, int64_t index);
  // aten.view.default(x, sizes), or x itself when remove_noop_ops drops that
  // view (Inductor's view_default_noop: the sizes are x's shape).
  Node* View(Node* x, std::vector<Argument> sizes);
  // The calls made so far (to remove them when a builder gives up).
  const std::vector<Node*>& made() const { return made_; }

 private:
  Graph& graph_;
  Node* position_;
  const OpRegistry& registry_;
  std::vector<Node*> made_;
};

// Builds the replacement; returns one value per pattern output, or nullopt
// (with a reason in `why`) when airscope cannot build it: nothing is changed.
using BuildReplacement = std::function<std::optional<std::vector<Node*>>(ReplacementBuilder&, std::string& why)>;

// Returns false (graph unchanged) when `build` gives up.
bool ReplaceWithGraph(Graph& graph, const PatternMatch& match, const BuildReplacement& build,
                      const OpRegistry& registry, std::string& why);

}  // namespace airscope

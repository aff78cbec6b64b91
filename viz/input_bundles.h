// Single-use inputs drawn inside their user (issue 33 item 3): a training
// graph's drawing was a staircase of hundreds of primals ellipses, each with
// one edge to the op that reads it. An input node (placeholder or get_attr)
// with exactly one user is not drawn as a node of its own: its user's label
// gains one line naming it, e.g. `+2 inputs: primals_6 f32[384, 128],
// primals_7 f32[384]`.
//
// The rule is exactly "an input node with one user": torch's graph says
// nothing about which placeholders are parameters, so neither does this.
// Inputs with no user (they would vanish) or with several users (their
// fan-out is what the drawing should show) stay nodes, and so does an input
// the caller asks to keep (a node a hazard mark names). DotOptions::
// draw_all_inputs turns the bundling off.
//
// Contract: pure, deterministic (inputs listed in the order the user reads them).
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/ir/graph.h"

namespace airscope {

struct InputBundles {
  // user -> the inputs drawn in its label, in the order of user->inputs().
  std::unordered_map<const Node*, std::vector<const Node*>> of_user;
  std::unordered_set<const Node*> bundled;
};

// The bundles of a drawing of `graph`. `only` (may be null): the names the
// drawing shows; an input is bundled only when it and its user are both drawn.
// `keep`: names that stay nodes whatever their users.
InputBundles BundleSingleUseInputs(const Graph& graph, const std::unordered_set<std::string>* only,
                                   const std::unordered_set<std::string>& keep);

// The label line of a user's bundled inputs: "+2 inputs: a f32[3], b f32[4]"
// (at most three named, then "... N more"). Plain text: the caller escapes it.
std::string BundleLine(const std::vector<const Node*>& inputs);

}  // namespace airscope

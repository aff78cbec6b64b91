// The graph a compile sees for the Python scalars a call passes, as Dynamo
// traces them (torch/_dynamo/variables/builder.py, VariableBuilder.
// wrap_literal / wrap_symint): a constant is no graph input at all (its
// value is traced into the ops that use it, `add(ln2, 4)`), a SymInt is a
// placeholder `Sym(sN)` (create_graph_input in wrap_symint). The loaded
// graph holds one placeholder per input; this inlines the constants and
// erases their placeholders, and gives each SymInt placeholder its symbol.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/dynamo/dim_gears.h"
#include "core/ir/graph.h"

namespace airscope {

struct ScalarBinding {
  std::optional<PyScalar> constant;  // inlined, placeholder erased
  std::string symbol;                // else, when not empty: a SymInt placeholder `Sym(symbol)`
};

// `bindings[i]` for placeholder i (shorter: the rest untouched). A clone.
std::unique_ptr<Graph> BindScalarInputs(const Graph& graph, const std::vector<ScalarBinding>& bindings);

}  // namespace airscope

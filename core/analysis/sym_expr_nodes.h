// The nodes TorchAir builds for a symbolic size that is an expression of
// symbols (`2*s0`, `32*(s0//32)`), where a pass needs the size as an FX
// argument (remove_cat_ops' aten.empty shape and slice bounds).
//
// TorchAir's construct_fx_node_shape (_acl_concrete_graph/acl_graph.py:
// 607-643): an int stays an int; a single symbol becomes the SymInt
// placeholder it names (a symbol no placeholder names is its RuntimeError);
// anything else is `eval(str(dim))` with each free symbol bound to a
// torch.fx Proxy of its placeholder, so Python's evaluation builds one
// call_function node per operation that touches a Proxy (operator.mul(2,
// arg0_1): torch.fx's reflected operators keep the source order of the
// operands), ints folding among themselves, and the expression's node is
// cached by its text for the graph (_GLOBAL_SYM_EXPR_2_NODE_MAP): the same
// size asked again reuses the node.
//
// What airscope evaluates: integers, symbols, parentheses, unary minus and
// + - * // % ** with Python's precedence and associativity (the operators
// torch's sympy printing of a SymInt uses). Anything else (a function call
// such as Max(1, s0), true division, a float) is `unsupported`, with why,
// and no node is built: the caller skips and says so, airscope does not
// pretend to know what Python would have made of it. A symbol that is no
// placeholder's is TorchAir's own error (RuntimeError for a single symbol, a
// KeyError from sym_inputs in an expression): an error here too.
//
// The cache lives as long as this builder: one pass's run (TorchAir's lives
// as long as the graph, across the passes of acl_graph.py that call
// construct_fx_node_shape; airscope's other passes do not build sizes).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"
#include "core/status.h"

namespace airscope {

class SymExprNodes {
 public:
  // `sym_inputs`: symbol -> its SymInt placeholder (SymIntPlaceholders).
  SymExprNodes(Graph& graph, const std::map<std::string, Node*>& sym_inputs, const OpRegistry& registry)
      : graph_(graph), sym_inputs_(sym_inputs), registry_(registry) {}

  // Why airscope cannot build the size `expr` (a Dim's symbol text), or ""
  // when it can; an error for TorchAir's own (a symbol no placeholder's).
  // Builds nothing: a caller checks every size it needs before building any.
  Result<std::string> Check(std::string_view expr) const;
  // The size `expr` as an argument, any nodes it needs inserted before
  // `before` (or the nodes built for the same text before). Only for what
  // Check accepts.
  Result<Argument> Build(std::string_view expr, Node* before);

 private:
  Graph& graph_;
  const std::map<std::string, Node*>& sym_inputs_;
  const OpRegistry& registry_;
  // TorchAir's _GLOBAL_SYM_EXPR_2_NODE_MAP for this builder: expression text -> its value.
  std::map<std::string, Argument, std::less<>> cache_;
};

}  // namespace airscope

// How torch.fx's Python codegen spells a call of a function of Python's
// `operator` module (torch/fx/graph.py, magic_methods and
// reflectable_magic_methods): `mul = 2 * s0`, `neg = -s0`, `lt = x < y`.
// One table for the readable printer, which writes these forms as torch
// does, and the readable parser, which reads them back. operator.getitem
// (`x[0]`) and the in-place forms (`x += 1`) have their own handling.
#pragma once

#include <string_view>

namespace airscope {

struct PythonOperator {
  std::string_view function;  // operator.FUNCTION
  std::string_view symbol;    // as written between (or before) the operands
  bool unary = false;
};

// In torch's order; `/` reads back as truediv (torch writes operator.div, a
// Python 2 name, the same way).
inline constexpr PythonOperator kPythonOperators[] = {
    {"add", "+"}, {"sub", "-"},    {"mul", "*"},       {"floordiv", "//"}, {"truediv", "/"},      {"div", "/"},
    {"mod", "%"}, {"pow", "**"},   {"lshift", "<<"},   {"rshift", ">>"},   {"and_", "&"},         {"or_", "|"},
    {"xor", "^"}, {"matmul", "@"}, {"eq", "=="},       {"ne", "!="},       {"lt", "<"},           {"gt", ">"},
    {"le", "<="}, {"ge", ">="},    {"pos", "+", true}, {"neg", "-", true}, {"invert", "~", true},
};

// The operator a call of operator.FUNCTION is written with, or null.
inline const PythonOperator* OperatorOfFunction(std::string_view function) {
  for (const PythonOperator& op : kPythonOperators) {
    if (op.function == function) return &op;
  }
  return nullptr;
}

// The function a binary (or unary) operator symbol calls, first in the table; "" when none.
inline std::string_view FunctionOfOperator(std::string_view symbol, bool unary) {
  for (const PythonOperator& op : kPythonOperators) {
    if (op.symbol == symbol && op.unary == unary) return op.function;
  }
  return {};
}

}  // namespace airscope

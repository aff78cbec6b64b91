// Dim arithmetic for shape rules: exact on static sizes, conservative on
// symbolic ones.
//
// Contract: a symbolic Dim's text (`s0`, `2*s0`) is an opaque atom here; we
// never parse or simplify it. Results that stay symbolic are spelled the way
// Dynamo's sympy printer would for the simple cases (`4*s0`, `s0 + 1`), and
// anything we cannot express exactly becomes a new opaque expression, never
// a guessed integer. Products are kept as coefficient * sorted atoms so that
// `[s0, 4]` and `[4, s0]` compare equal, which view/-1 inference needs.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/ir/tensor_meta.h"

namespace airscope {

struct DimProduct {
  int64_t coeff = 1;
  std::vector<std::string> symbols;  // sorted, with repeats
  bool is_static() const { return symbols.empty(); }
  bool operator==(const DimProduct&) const = default;
};

DimProduct ProductOf(std::span<const Dim> dims);
// Back to one Dim: `12`, `s0`, `4*s0`, `s0*s1`.
Dim DimOf(const DimProduct& product);
// a / b when the division is exact (coefficients divide, b's atoms are in a).
std::optional<DimProduct> DivideExact(const DimProduct& a, const DimProduct& b);

// d + c: static, or `s0 + 3` / `s0 - 3` (d itself when c == 0).
Dim AddConst(const Dim& d, int64_t c);
// floor((d + add) / div) + 1 as convolution output sizes need; div >= 1.
Dim ConvOutDim(const Dim& d, int64_t add, int64_t div);

// "[2, 3, s0]".
std::string FormatDims(std::span<const Dim> dims);

}  // namespace airscope

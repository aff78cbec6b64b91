#include "core/ops/dim_math.h"

#include <algorithm>

#include <fmt/format.h>

namespace airscope {

DimProduct ProductOf(std::span<const Dim> dims) {
  DimProduct p;
  for (const Dim& d : dims) {
    if (d.is_static()) {
      p.coeff *= d.value();
    } else {
      p.symbols.push_back(d.symbol());
    }
  }
  std::sort(p.symbols.begin(), p.symbols.end());
  // A zero size makes the whole product zero whatever the symbols are.
  if (p.coeff == 0) p.symbols.clear();
  return p;
}

Dim DimOf(const DimProduct& product) {
  if (product.symbols.empty()) return Dim(product.coeff);
  std::string text;
  if (product.coeff != 1) text = fmt::format("{}", product.coeff);
  for (const std::string& s : product.symbols) {
    if (!text.empty()) text += '*';
    // An atom that is itself a sum must be parenthesised to stay one factor.
    bool compound = s.find_first_of("+- ") != std::string::npos;
    text += compound ? fmt::format("({})", s) : s;
  }
  return Dim::Symbol(std::move(text));
}

std::optional<DimProduct> DivideExact(const DimProduct& a, const DimProduct& b) {
  if (b.coeff == 0 || a.coeff % b.coeff != 0) return std::nullopt;
  DimProduct out;
  out.coeff = a.coeff / b.coeff;
  std::vector<std::string> rest = a.symbols;
  for (const std::string& s : b.symbols) {
    auto it = std::find(rest.begin(), rest.end(), s);
    if (it == rest.end()) return std::nullopt;
    rest.erase(it);
  }
  out.symbols = std::move(rest);
  return out;
}

Dim AddConst(const Dim& d, int64_t c) {
  if (d.is_static()) return Dim(d.value() + c);
  if (c == 0) return d;
  return Dim::Symbol(c > 0 ? fmt::format("{} + {}", d.symbol(), c) : fmt::format("{} - {}", d.symbol(), -c));
}

Dim ConvOutDim(const Dim& d, int64_t add, int64_t div) {
  if (d.is_static()) {
    int64_t num = d.value() + add;
    // Python floor division: a window that does not fit yields size <= 0,
    // which the caller reports as an error.
    int64_t q = num >= 0 ? num / div : -((-num + div - 1) / div);
    return Dim(q + 1);
  }
  if (div == 1) return AddConst(d, add + 1);
  std::string inner = add == 0 ? d.symbol() : AddConst(d, add).symbol();
  return Dim::Symbol(fmt::format("(({})//{}) + 1", inner, div));
}

std::string FormatDims(std::span<const Dim> dims) {
  std::string out = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) out += ", ";
    out += dims[i].ToString();
  }
  return out + "]";
}

}  // namespace airscope

#include "core/dynamo/dim_gears.h"
#include "core/text.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>

#include <fmt/format.h>

namespace airscope {
namespace {

// Python's repr of a float: the shortest text that reads back, with ".0"
// when it would look like an int.
std::string FloatRepr(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::string text = fmt::format("{}", v);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

}  // namespace

std::string_view PyScalar::TypeRepr() const {
  switch (type) {
    case Type::kInt: return "<class 'int'>";
    case Type::kBool: return "<class 'bool'>";
    case Type::kFloat: return "<class 'float'>";
    case Type::kStr: return "<class 'str'>";
  }
  return "<class 'object'>";
}

bool PyScalar::operator==(const PyScalar& other) const {
  if (IsInt() && other.IsInt()) return value == other.value;  // True == 1
  if (type == Type::kFloat || other.type == Type::kFloat) {
    if (type == Type::kStr || other.type == Type::kStr) return false;
    auto as_double = [](const PyScalar& s) {
      return s.type == Type::kFloat ? std::strtod(s.repr.c_str(), nullptr) : static_cast<double>(s.value);
    };
    return as_double(*this) == as_double(other);
  }
  return type == other.type && repr == other.repr;
}

PyScalar ParsePyScalar(std::string_view word) {
  word = Trim(word, " ");
  PyScalar s;
  if (word == "True" || word == "False") {
    s.type = PyScalar::Type::kBool;
    s.value = word == "True";
    s.repr = std::string(word);
    return s;
  }
  int64_t i = 0;
  auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), i);
  if (!word.empty() && ec == std::errc() && end == word.data() + word.size()) {
    s.type = PyScalar::Type::kInt;
    s.value = i;
    s.repr = fmt::format("{}", i);
    return s;
  }
  double d = 0;
  auto [dend, dec] = std::from_chars(word.data(), word.data() + word.size(), d);
  if (!word.empty() && dec == std::errc() && dend == word.data() + word.size()) {
    s.type = PyScalar::Type::kFloat;
    s.repr = FloatRepr(d);
    return s;
  }
  s.type = PyScalar::Type::kStr;
  std::string_view text = word;
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"') && text.back() == text.front()) {
    text = text.substr(1, text.size() - 2);
  }
  s.repr = fmt::format("'{}'", text);
  return s;
}

std::string GearsValue::Repr() const {
  std::vector<std::string> parts;
  for (const PyScalar& item : items) parts.push_back(item.repr);
  switch (kind) {
    case Kind::kList: return fmt::format("[{}]", fmt::join(parts, ", "));
    case Kind::kTuple:
      return parts.size() == 1 ? fmt::format("({},)", parts[0]) : fmt::format("({})", fmt::join(parts, ", "));
    case Kind::kScalar: return parts.empty() ? "" : parts[0];
  }
  return "";
}

bool GearsValue::operator==(const GearsValue& other) const { return kind == other.kind && items == other.items; }

Result<GearsValue> ParseGearsValue(std::string_view word) {
  word = Trim(word, " ");
  GearsValue value;
  std::string_view body = word;
  if (word.size() >= 2 && word.front() == '[' && word.back() == ']') {
    body = word.substr(1, word.size() - 2);
  } else if (word.size() >= 2 && word.front() == '(' && word.back() == ')') {
    value.kind = GearsValue::Kind::kTuple;
    body = word.substr(1, word.size() - 2);
  } else if (word.find(',') == std::string_view::npos) {
    if (word.empty()) return Status::Error("no gears given");
    value.kind = GearsValue::Kind::kScalar;
    value.items.push_back(ParsePyScalar(word));
    return value;
  }
  if (body.find_first_of("[]()") != std::string_view::npos) {
    return Status::Errorf("'{}': gears are a flat list of sizes", word);
  }
  size_t pos = 0;
  while (pos <= body.size()) {
    size_t comma = body.find(',', pos);
    if (comma == std::string_view::npos) comma = body.size();
    std::string_view piece = Trim(body.substr(pos, comma - pos), " ");
    if (piece.empty()) {
      // Python allows one trailing comma: [8, 4,] and (8,).
      if (comma == body.size() && !value.items.empty()) break;
      if (body.empty()) break;  // [] and ()
      return Status::Errorf("'{}': an empty gear between commas", word);
    }
    value.items.push_back(ParsePyScalar(piece));
    pos = comma + 1;
  }
  return value;
}

bool SameDimGears(const DimGears& a, const DimGears& b) {
  if (a.size() != b.size()) return false;
  for (const DimGearsItem& x : a) {
    auto it = std::find_if(b.begin(), b.end(), [&x](const DimGearsItem& y) { return y.dim == x.dim; });
    if (it == b.end() || !(it->gears == x.gears)) return false;
  }
  return true;
}

Status CheckDimGears(const DimGears& gears, size_t ndim) {
  for (const DimGearsItem& item : gears) {
    const PyScalar& dim = item.dim;
    if (!dim.IsInt()) {
      return Status::Errorf("AssertionError: Dim index in dim_gears must be an integer, but got {}.", dim.TypeRepr());
    }
    if (dim.value < 0 || dim.value >= static_cast<int64_t>(ndim)) {
      return Status::Errorf("AssertionError: Dim index in dim_gears must be in range [0, {}], but got {}.",
                            static_cast<int64_t>(ndim) - 1, dim.repr);
    }
    if (item.gears.kind == GearsValue::Kind::kScalar) {
      return Status::Errorf("AssertionError: Gears for dim index {} in dim_gears must be a list or tuple, but got {}.",
                            dim.repr, item.gears.items[0].TypeRepr());
    }
    for (size_t i = 0; i < item.gears.items.size(); ++i) {
      const PyScalar& gear = item.gears.items[i];
      if (!gear.IsInt()) {
        return Status::Errorf(
            "AssertionError: Element at index {} of value for dim index {} in dim_gears must be an integer, but got "
            "{}.",
            i, dim.repr, gear.TypeRepr());
      }
      if (gear.value == 0) {
        return Status::Errorf("AssertionError: Gear value at index {} for dim index {} must not be 0, but got {}.", i,
                              dim.repr, gear.repr);
      }
    }
    size_t n = item.gears.items.size();
    if (n < 2 || n > 100) {
      return Status::Errorf(
          "AssertionError: Length of gears for dim index {} in dim_gears must be in range [2, 100], but got {}.",
          dim.repr, n);
    }
  }
  return Status::Ok();
}

const GearsValue* GearsOfDim(const DimGears& gears, size_t dim) {
  for (const DimGearsItem& item : gears) {
    if (item.dim.IsInt() && item.dim.value == static_cast<int64_t>(dim)) return &item.gears;
  }
  return nullptr;
}

std::vector<int64_t> AdmittedGears(const GearsValue& gears) {
  std::set<int64_t> unique;
  for (const PyScalar& g : gears.items) unique.insert(g.value);
  return {unique.begin(), unique.end()};
}

std::optional<std::string> GearRejection(int64_t size, const GearsValue& gears) {
  std::vector<int64_t> sorted = AdmittedGears(gears);
  std::string message = fmt::format(
      "AssertionError: The index {} of the current tensor shape is not within the range {}", size, gears.Repr());
  if (sorted.empty() || size < sorted.front() || size > sorted.back()) return message;
  for (size_t i = 0; i + 1 < sorted.size(); ++i) {
    if (!(size <= sorted[i] || size >= sorted[i + 1])) return message;
  }
  return std::nullopt;
}

}  // namespace airscope

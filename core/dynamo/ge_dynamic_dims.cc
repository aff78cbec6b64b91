#include "core/dynamo/ge_dynamic_dims.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/python_hash.h"

namespace airscope {
namespace {

// itertools.product(*lists): the last list varies fastest.
std::vector<std::vector<int64_t>> Product(const std::vector<std::vector<int64_t>>& lists) {
  std::vector<std::vector<int64_t>> out{{}};
  for (const std::vector<int64_t>& list : lists) {
    std::vector<std::vector<int64_t>> next;
    for (const std::vector<int64_t>& prefix : out) {
      for (int64_t g : list) {
        next.push_back(prefix);
        next.back().push_back(g);
      }
    }
    out = std::move(next);
  }
  return out;
}

}  // namespace

Result<std::vector<std::pair<std::string, std::string>>> GenerateDynamicDimsOption(std::vector<GeInputInfo> inputs,
                                                                                   std::string_view policy) {
  std::vector<std::pair<std::string, std::string>> options;
  // gear:84-85.
  if (std::none_of(inputs.begin(), inputs.end(), [](const GeInputInfo& in) { return !in.dim_gears.empty(); })) {
    return options;
  }
  // gear:87: sorted by name; str compares as std::string does (by code point).
  std::stable_sort(inputs.begin(), inputs.end(),
                   [](const GeInputInfo& a, const GeInputInfo& b) { return a.name < b.name; });
  std::vector<std::string> shapes;
  std::vector<std::vector<int64_t>> gear_list;
  for (const GeInputInfo& in : inputs) {
    shapes.push_back(fmt::format("{}:{}", in.name, fmt::join(in.shape, ",")));  // gear:93
    // gear:96-99: the dict sorted by dim, a list per dim that is still -1.
    std::vector<const DimGearsItem*> items;
    for (const DimGearsItem& item : in.dim_gears) items.push_back(&item);
    std::stable_sort(items.begin(), items.end(),
                     [](const DimGearsItem* a, const DimGearsItem* b) { return a->dim.value < b->dim.value; });
    for (const DimGearsItem* item : items) {
      auto dim = static_cast<size_t>(item->dim.value);
      if (dim < in.shape.size() && in.shape[dim] == -1) {
        std::vector<int64_t> gears;
        for (const PyScalar& g : item->gears.items) gears.push_back(g.value);
        gear_list.push_back(std::move(gears));
      }
    }
  }
  if (gear_list.empty()) return Status::Error("AssertionError: At least one dimension should have levels.");
  std::vector<std::vector<int64_t>> dynamic_dims;
  if (policy == "zip") {
    for (const std::vector<int64_t>& list : gear_list) {
      if (list.size() != gear_list[0].size()) {
        return Status::Error("AssertionError: when dynamic_gears_merge_policy is zip, input gears len must same.");
      }
    }
    for (size_t i = 0; i < gear_list[0].size(); ++i) {
      std::vector<int64_t> combination;
      for (const std::vector<int64_t>& list : gear_list) combination.push_back(list[i]);
      dynamic_dims.push_back(std::move(combination));
    }
  } else if (policy == "product") {
    dynamic_dims = Product(gear_list);
  } else {
    return Status::Error("AssertionError: dynamic_gears_merge_policy only support zip and product.");
  }
  std::vector<std::vector<int64_t>> unique = PythonSetOrder(dynamic_dims);  // gear:116
  if (unique.size() > 100) {
    return Status::Errorf(
        "AssertionError: The total number of gears set cannot exceed 100, and the current number of gears is: {}",
        unique.size());
  }
  std::vector<std::string> dims;
  for (const std::vector<int64_t>& combination : unique) dims.push_back(fmt::format("{}", fmt::join(combination, ",")));
  options.emplace_back("ge.inputShape", fmt::format("{}", fmt::join(shapes, ";")));
  options.emplace_back("ge.dynamicDims", fmt::format("{}", fmt::join(dims, ";")));
  options.emplace_back("ge.dynamicNodeType", "1");
  return options;
}

}  // namespace airscope

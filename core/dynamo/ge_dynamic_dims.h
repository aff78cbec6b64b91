// The GE dynamic-dims options TorchAir builds from dim gears: its
// generate_dynamic_dims_option (inference/_gear_utils.py, gear:83-124), which
// its GE backend (max-autotune mode, GeConcreteGraph) adds to a graph's local
// compile options with config.inference_config.dynamic_gears_merge_policy
// (fx2ge_converter.py:1750-1751). The reduce-overhead (AclGraph) backend
// never calls it: there each gear size is a graph key of its own.
//
// The inputs are TorchAir's named_inputs_info: per GE Data node, its name
// (the FX placeholder's), its shape with -1 for a dim that is still a symbol
// (generate_shape_from_tensor, _ge_concrete_graph/utils.py:306-319; a SymInt
// input has the shape []), and the dim_gears dict set on it ({} when none).
//
// The rules, in gear:83-124's order:
//   - no input has gears: no options at all;
//   - ge.inputShape "NAME:D,D;NAME:D" over the inputs sorted by name (as
//     Python sorts str: "arg10_1" before "arg2_1");
//   - one gear list per gear dim whose shape is -1, inputs by name, dims
//     ascending, each list as given (duplicates kept); none: AssertionError
//     "At least one dimension should have levels.";
//   - zip: the lists must have one length ("when dynamic_gears_merge_policy is
//     zip, input gears len must same."), the combinations are zip(*lists);
//     product: itertools.product(*lists); any other policy: "dynamic_gears_
//     merge_policy only support zip and product.";
//   - the distinct combinations, list(set(...)) in CPython's set order
//     (core/python_hash.h); more than 100: "The total number of gears set
//     cannot exceed 100, and the current number of gears is: N";
//   - ge.dynamicDims "A,B;C,D" in that order, ge.dynamicNodeType "1".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/dynamo/dim_gears.h"
#include "core/status.h"

namespace airscope {

struct GeInputInfo {
  std::string name;
  std::vector<int64_t> shape;  // -1 where the dim is a symbol
  DimGears dim_gears;          // as set_dim_gears took it (checked)
};

// The options as TorchAir's dict holds them, in its key order:
// ge.inputShape, ge.dynamicDims, ge.dynamicNodeType. Empty when no input has
// gears. Errors are TorchAir's AssertionError texts, prefixed
// "AssertionError: ".
Result<std::vector<std::pair<std::string, std::string>>> GenerateDynamicDimsOption(std::vector<GeInputInfo> inputs,
                                                                                   std::string_view policy);

}  // namespace airscope

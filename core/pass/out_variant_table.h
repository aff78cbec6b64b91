// Which ops have an `.out` overload whose non-out arguments match the op's
// own by name and type, as TorchAir's _get_out_variant finds it from torch's
// schemas (_acl_concrete_graph/cat_optimization.py:31-65). airscope has no
// schemas, so this is airscope's table, transcribed from torch's
// native_functions.yaml (torch 2.6): an op missing from it counts as having
// no `.out` overload (cat optimization then leaves the cat alone).
#pragma once

#include <string>
#include <string_view>

namespace airscope {

// "aten.exp.default" -> "aten.exp.out"; "" when the op has none (or airscope
// does not know it). Targets with or without `torch.ops.`.
std::string OutVariant(std::string_view target);

}  // namespace airscope

// Argument helpers shared by the lowering rules of `aot` (torch_functions.cc,
// indexing.cc, conversions.cc, nn_modules.cc, collectives.cc), and the hooks
// by which each of those files adds its rules to the table. Internal to
// core/aot.
#pragma once

#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/aot/torch_functions.h"

namespace airscope {

using LoweringResult = std::optional<Argument>;
using LoweringTable = std::map<std::string, LoweringFn, std::less<>>;

Argument Ref(Node* node);
// A node known to make one tensor.
bool TensorValue(const Argument& arg);
std::optional<double> NumberOf(const Argument* arg);
// absent/None -> fallback; a non-bool -> nullopt.
std::optional<bool> BoolOf(const Argument* arg, bool fallback);
std::optional<int64_t> IntOf(const Argument* arg);
// An int list given as one list argument or as the trailing positional ints
// of a method call (`x.view(2, 8)`, `x.permute(1, 0)`).
std::optional<std::vector<Argument>> IntsFrom(const TorchCall& call, size_t first, std::string_view keyword);
std::optional<std::vector<int64_t>> StaticInts(const std::vector<Argument>& items);
Argument IntList(const std::vector<int64_t>& values);
// Static sizes of a tensor value, or nullopt.
std::optional<std::vector<int64_t>> SizesOf(const Argument& value);
// The call's tensor `input`/`self` (args[0]); nullptr with *why set otherwise.
const Argument* Self(const TorchCall& call, std::string* why);
// The first keyword argument not in `known`; "" when none.
std::string UnmodelledKwargs(const TorchCall& call, std::initializer_list<std::string_view> known);

struct ModuleSpec;

// nn_modules.cc: a declared module's call (its input first in call.args) as
// its eval-mode forward traces; `tensors` are its parameters and buffers by
// name ("weight", "running_mean") as graph inputs.
LoweringResult LowerModule(AtenBuilder& b, const ModuleSpec& spec, const std::map<std::string, Argument>& tensors,
                           const TorchCall& call, std::string* why);

// collectives.cc: TorchAir's decomposition table (ui:455-464) while tracing.
bool IsTorchAirDecomposed(std::string_view target);  // target without torch.ops.
// `world_size`: ranks of process group '0' (0: unknown).
LoweringResult ApplyTorchAirDecomposition(AtenBuilder& b, std::string_view target, const std::vector<Argument>& args,
                                          const std::vector<Kwarg>& kwargs, int64_t world_size, std::string* why);

// The rule families kept in their own files.
void AddIndexingLowerings(LoweringTable& table);    // indexing.cc: x[...], x[...] = v
void AddConversionLowerings(LoweringTable& table);  // conversions.cc: to, cpu, npu, float, type_as, ...

}  // namespace airscope

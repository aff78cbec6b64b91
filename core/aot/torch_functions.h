// The lowering rules of `aot`: one torch-level call (torch.sin, F.linear,
// operator.mul, x.view(...)) -> the aten calls torch's dispatcher records for
// it during AOT tracing. Internal to core/aot.
//
// A rule sees the call with its arguments already in aten values (AtenBuilder::In),
// a method's `self` first. It appends its calls through the builder and
// returns the value that stands for the call's result, or nullopt with
// *why set when this instance is outside what it models (the call then stays
// an opaque node). Rules follow torch's C++ for CompositeImplicitAutograd
// functions (aten/src/ATen/native/*.cpp) and torch/nn/functional.py.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/aot/aot_builder.h"

namespace airscope {

struct TorchCall {
  std::string_view name;       // the rule's key: "linear", "mul", "view"
  std::vector<Argument> args;  // aten values; a method's self is args[0]
  std::vector<Kwarg> kwargs;
  const Node* dynamo = nullptr;  // the call being lowered (for its annotation)

  // By position, else by keyword; nullptr when absent.
  const Argument* Arg(size_t index, std::string_view keyword) const;
};

using LoweringFn = std::function<std::optional<Argument>(AtenBuilder& b, const TorchCall& call, std::string* why)>;

// The rule key of a Dynamo call: the function's name once torch's module
// prefixes are stripped (`torch.nn.functional.gelu`, `torch._C._nn.gelu`,
// `torch.gelu` -> "gelu"; `operator.mul` -> "mul"; method `cos` -> "cos").
// "" when the call is not a torch-level function (e.g. `torch.ops.*`).
std::string LoweringKey(const Node& node);

// The rule for `key`, or nullptr.
const LoweringFn* FindLowering(std::string_view key);

// Every key with a rule, sorted (for `help pass aot` and tests).
std::vector<std::string> LoweringKeys();

}  // namespace airscope

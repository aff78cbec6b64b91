// One guard failure of a recompile message, read back into what it says
// about the call that failed it and the cache entry whose guard failed.
//
// Dynamo prints one line per cache entry it tried (guards.py,
// get_and_maybe_log_recompilation_reasons): `- 0/3: REASON`, newest entry
// first, REASON being the first guard of that entry that failed. The forms
// read here are the ones torch prints (torch/csrc/dynamo/guards.cpp,
// TensorCheck::check_verbose; guards.py's guard code for the rest):
//   tensor 'L['x']' size mismatch at index 0. expected 3, actual 4
//   tensor 'x' stride|dtype|device index|dispatch key set|rank|requires_grad mismatch ...
//   L['c'] == 8.5                          (a constant: EQUALS_MATCH)
//   L['a'] == 0, with LHS value: 1         (torch 2.1's form, which prints the call's value)
//   ___check_obj_id(self._modules['attn'].processor, 140576345756128)   (ID_MATCH)
//   ___check_type_id(L['x'], 94250624)     (TYPE_MATCH)
//   ___check_global_state()                (grad mode, autocast, ... changed)
//   len(L['x']) == 3                       (a list or tuple of another length)
// and a parameter's size failure carries torch's hint ("Guard failed on a
// parameter, consider using torch._dynamo.config.force_parameter_static_shapes
// = False"). Anything else is kOther, kept verbatim: never guessed at.
//
// UnfixableAdvice says what to do about the classes no dynamism setting
// changes: a different object, type, dtype, device, grad mode, rank, length
// or global state (sizes, strides and constants can be made dynamic).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace airscope {

struct GuardFailure {
  enum class Kind : uint8_t {
    kSize,
    kStride,
    kRank,
    kDtype,
    kDevice,  // device index or dispatch key set
    kRequiresGrad,
    kNotTensor,
    kConstant,  // EQUALS_MATCH on a Python constant
    kObjectId,
    kTypeId,
    kGlobalState,
    kLength,
    kOther,
  };
  Kind kind = Kind::kOther;
  std::string entry;     // the compile id of the entry whose guard failed ("0/3"); "" when the line had none
  std::string reason;    // the text after "ID: "
  std::string source;    // "L['x']", "x", "self._modules['attn'].processor"; "" for global state
  int64_t dim = -1;      // kSize, kStride
  std::string expected;  // the entry's value as printed ("3", "8.5", "Float", the object id)
  std::optional<std::string> actual;  // the call's value, when the line prints it
  bool parameter = false;             // torch's "Guard failed on a parameter" hint
};

// Parses one failure line, with or without its "- " and "ID: " prefixes.
GuardFailure ParseGuardFailure(std::string_view line);

// A word for the class: "size", "object identity (ID_MATCH)", ...
std::string_view GuardFailureClass(GuardFailure::Kind kind);
// What to do about a class no dynamism setting fixes, in one sentence; ""
// for the fixable classes.
std::string_view UnfixableAdvice(GuardFailure::Kind kind);

// The graph input a guard source is: `L['x']` and `x` are `x`; any other
// source (an attribute, an element of *args) has no placeholder of its own,
// and is named by its words joined by '_' ("args[0]" -> "args_0",
// "L['self'].param_groups[0]['lr']" -> "self_param_groups_0_lr").
std::string SourceInputName(std::string_view source);

}  // namespace airscope

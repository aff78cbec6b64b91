// Call specs: the input metadata of one simulated call of a frame, as the user
// types it after `call`:  x=f32[2,2]@[2,1] y=f32[4]:npu:0 grad
//
//   NAME=DTYPE[SIZES][@[STRIDES]][:DEVICE] [grad] [param] [in BUFFER]
//
// DTYPE is the annotation abbreviation (f32, bf16, i64, b8, ...) or torch's
// name (torch.float32, float32), SIZES and STRIDES comma-separated
// non-negative integers, DEVICE torch's str(device) (npu:0 when omitted),
// and a following word `grad` (or `requires_grad`, `requires_grad=True`)
// sets requires_grad. The spellings airscope and torch print are accepted
// too: spaces after commas and around '=' (`x = f32[8, 64]`), and the
// annotation form `f32[2, 2][2, 1]npu:0` (strides and device without @ and :).
// For the AclGraph runtime (core/runtime/): `param` marks an input torch
// treats as a parameter or buffer (an nn.Parameter, Dynamo's
// `_dynamo_static_input_type`: TorchAir's parameter_user_inputs,
// fx2acl_converter.py:417-424), `in BUFFER` names the device buffer the
// tensor lives in, and `keep` (anywhere in a call, ParseCall) keeps the
// call's outputs. Guards ignore all three.
// A graph input that is a Python scalar takes NAME=VALUE instead: an int
// (`scale=4`), a float (`eps=1e-05`), a bool (`flag=True`) or a str in
// Python's quotes (`mode='train'`; in the shell `mode="'train'"`, whose
// tokenizer takes one level of quotes), read as Python reads the literal;
// how Dynamo guards and passes it is compile_cache.h's (a str is always a
// constant, guarded by its value).
// Errors name the column of the offending token ("column 9: unknown dtype 'f33'").
// Binding a spec to a graph checks that every placeholder is given exactly
// once, and at the rank the graph was traced at.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/dynamo/dim_gears.h"  // PyScalar
#include "core/ir/dtype.h"
#include "core/ir/graph.h"
#include "core/ir/tensor_meta.h"
#include "core/status.h"

namespace airscope {

// One tensor argument of a call. `strides` is always filled (contiguous when
// the spec states none). `header` packs dtype, device, requires_grad and rank
// so a guard checks all four with one comparison.
struct CallInput {
  std::string name;
  DType dtype = DType::kUnknown;
  std::vector<int64_t> sizes;
  std::vector<int64_t> strides;
  std::string device = "npu:0";
  bool requires_grad = false;
  size_t column = 0;  // where the spec of this input starts, for errors
  uint64_t header = 0;
  // NAME=VALUE: the Python int, float or bool passed (no dtype, sizes or
  // header then; guards compare it as Dynamo does, guards.h).
  std::optional<PyScalar> scalar;
  bool parameter = false;  // `param`
  std::string buffer;      // `in BUFFER`; "" when not given
  size_t buffer_column = 0;

  // `f32[2, 2]` (the short form of the sizes); a scalar: its repr, `4`.
  std::string ShapeString() const;
  // The tensor this call passes, at its own sizes and strides (no symbols).
  TensorMeta ToMeta() const;
  void ComputeHeader();
};

// Device code used in the packed header: cpu 0, npu:K 0x10000+K, cuda:K
// 0x20000+K, anything else 0x30000 + a stable hash byte.
uint32_t DeviceCode(std::string_view device);
uint64_t PackHeader(DType dtype, uint32_t device_code, bool requires_grad, size_t rank);

struct SpecToken {
  std::string_view text;
  size_t column = 1;  // 1-based column of the token's first byte
};

// Parses the input specs (`guards check` takes them too). Nothing about the
// graph is checked here; `keep` is refused (it belongs to a call).
Result<std::vector<CallInput>> ParseCallSpec(std::span<const SpecToken> tokens);

// The words after `call`: the input specs and `keep`.
struct CallSpec {
  std::vector<CallInput> inputs;
  bool keep = false;
  size_t keep_column = 0;
};
Result<CallSpec> ParseCall(std::span<const SpecToken> tokens);
// Convenience for tests: splits `text` on spaces (columns relative to `text`).
Result<std::vector<CallInput>> ParseCallSpec(std::string_view text);

// Orders `inputs` as the graph's placeholders and checks names and count.
// Errors: "column 12: no input named 'z' (the graph takes x, y)",
// "missing input 'y' (the graph takes x, y)", "column 9: input 'x' given twice".
Result<std::vector<CallInput>> BindCallInputs(const Graph& graph, std::vector<CallInput> inputs);

}  // namespace airscope

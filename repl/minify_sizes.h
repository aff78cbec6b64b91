// What minify's last two steps change (repl/minify.h): the `call` lines of the
// script LINE sources (fewer calls, smaller sizes in each), and the sizes of
// the graph's inputs.
//
// Contract: pure. A call line is rewritten from its parsed spec (CallLine), so
// `call` reads it back as the same inputs with the new sizes; an input with
// stated strides that are not contiguous keeps its sizes (strides written for
// other sizes would describe another tensor). A graph input is resized only
// through shape inference (WithInputSize): when the registry cannot infer the
// graph again at the smaller size (a size baked into a view, an op that
// refuses it), there is no candidate.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/dynamo/call_spec.h"
#include "core/ir/graph.h"
#include "core/ops/op_registry.h"
#include "core/status.h"
#include "repl/command_table.h"

namespace airscope {

// The smallest size in [1, size) at which `fails` holds: 1 first (a size of
// 1 broadcasts, so it may fit where others do not), then as if failing grew
// with the size (binary search: about log2(size) more questions); `size`
// itself when none smaller fails. An error from `fails` (Ctrl-C, the
// time limit) stops the search and is returned.
Result<int64_t> SmallestFailingSize(int64_t size, const std::function<Result<bool>(int64_t)>& fails);

// One `call` line of a script: where it is (index into the lines) and what it passes.
struct ScriptCall {
  size_t line = 0;
  CallSpec spec;
};

// The script's lines that run `call` (any prefix that finds it) and parse as
// a call; a call line that does not parse is left to fail as it would.
std::vector<ScriptCall> ScriptCalls(const std::vector<std::string>& lines, const CommandTable& table);

// Whether `in`'s sizes may be changed: a tensor whose strides are contiguous.
bool ResizableInput(const CallInput& in);

// `in` with `size` at `dim`, its strides contiguous again (ResizableInput(in) holds).
CallInput Resized(const CallInput& in, size_t dim, int64_t size);

// `call x=f32[2,8]:cpu grad y=4 keep`: the spec as `call` reads it.
std::string CallLine(const CallSpec& spec);

// The graph with input `input` (placeholder order) given size `size` at
// `dim`, every other shape inferred again; an error when inference fails or
// an op refuses the new size where it took the old one.
Result<std::shared_ptr<const Graph>> WithInputSize(const Graph& graph, size_t input, size_t dim, int64_t size,
                                                   const OpRegistry& registry);

}  // namespace airscope

// CompileForCall: the first step of compiling a cache entry for one call, a
// clone of the frame's graph whose placeholders carry the call's inputs
// (symbols where dims are dynamic) and whose other shapes are inferred again
// (SpecializeInputs, core/ops/specialize.h). Running the session's pipeline
// on the result is the shell's part (CompileCallThroughPipeline in
// repl/commands_cache.cc, through repl/compile.h): the CompileFn the shell
// hands Frame::Call does both.
#pragma once

#include <memory>
#include <vector>

#include "core/ir/graph.h"
#include "core/ir/tensor_meta.h"
#include "core/ops/op_registry.h"
#include "core/status.h"

namespace airscope {

// `inputs`: the metas the entry specializes on (symbols where dims are
// dynamic); `hints`: the call's own, as Dynamo's fake tensors hold them.
// Errors are SpecializeInputs' with a "compile: " prefix, and a refusal: an op
// that rejects its inputs at the call's sizes though it takes the sizes the
// graph was traced at (a size baked into a view at trace time), as torch's
// fake-tensor propagation would raise there, in the op's words.
Result<std::unique_ptr<Graph>> CompileForCall(const Graph& graph, const std::vector<TensorMeta>& inputs,
                                              const std::vector<TensorMeta>& hints, const OpRegistry& registry);

}  // namespace airscope

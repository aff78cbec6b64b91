// TorchAir's BatchMatMulTranspose fusion (patterns/batch_matmul_transpose.py),
// one of the patterns apply_pattern_passes registers in ACL mode:
// bmm(x1, x2) -> [view] -> transpose becomes npu.npu_transpose_batchmatmul.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core/ir/graph.h"
#include "core/pass/stream_util.h"
#include "core/ops/op_registry.h"
#include "core/pass/pattern_match.h"

namespace airscope {


// _check_pattern_stream (pattern_pass_manager.py:20-61): every call in the
// match runs on one stream label (all default, or all the same user stream).
bool SingleStream(const PatternMatch& match, const StreamLabelMap& labels);

// Tries TorchAir's four patterns rooted at `root`, in its registration order
// (pattern2, pattern3, pattern, pattern1: batch_matmul_transpose.py:401-406).
// On a match passing the stream check and _pattern_extra_check, replaces it
// and returns true. `notes` receives why a structural match was rejected
// (TorchAir's DEBUG log lines).
bool TryBatchMatMulTranspose(Graph& graph, Node* root, const StreamLabelMap& labels, const OpRegistry& registry,
                             std::vector<std::string>& notes);

}  // namespace airscope

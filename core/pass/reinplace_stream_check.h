// TorchAir's ReinplaceStreamChecker, which both reinplace passes consult
// before writing into a tensor's buffer: an in-place rewrite is refused when
// the mutated tensor's users run on different streams. Labels come from
// StreamLabels (core/analysis/stream_util.h, add_stream_label_to_node_meta).
//   SameStream: verify_nodes_on_same_stream (gu:58-85): fewer than two nodes,
//     or all with one label.
//   Users*: the users au:279-376 collect for a mutated input (users of the
//     input except copy_, plus, through its copy_ epilogue, the users of that
//     copy_'s getitem source and of the copy_ itself; for multi-inplace ops
//     also the users of getitem(node, out_idx) for the last n outputs).
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "core/analysis/stream_util.h"
#include "core/ir/graph.h"

namespace airscope {

bool SameStream(const std::vector<Node*>& nodes, const StreamLabelMap& labels);

// ReinplaceStreamChecker.check_single_reinplace (au:382-384): users of args[0]
// (and, as au:301-313 computes for any node, of getitem(node, num_outputs-1)).
bool CheckSingleReinplaceStreams(const Node& node, size_t num_outputs, const StreamLabelMap& labels);
// check_multi_reinplace (au:386-391): per mutated arg index, users of that arg
// and of getitem(node, out_idx) with out_idx among the last `indices.size()`
// of `num_outputs` outputs.
bool CheckMultiReinplaceStreams(const Node& node, const std::vector<size_t>& indices, size_t num_outputs,
                                const StreamLabelMap& labels);
// check_auto_functionalize (au:393-397): users of the mutated argument.
bool CheckAutoFunctionalizeStreams(const Node& mutated_arg, const StreamLabelMap& labels);

}  // namespace airscope

// Dynamo's graph-sizes table (TORCH_LOGS=graph_sizes) applied to the Dynamo
// graph it was printed for.
//
// torch prints `TRACED GRAPH TENSOR SIZES`, `===== __compiled_fn_N =====`,
// then `NAME: tuple(example_value.size())` for every node whose example
// value is a FakeTensor, and `NAME (concrete): (...)` beside a symbolic one
// (torch/_dynamo/output_graph.py, get_graph_sizes). It never prints a dtype,
// so a node given sizes from it gets a tensor of unknown dtype ("?"): its
// sizes are the log's, its bytes and cost stay unknown, and every view that
// prints it says so.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "formats/torch_logs.h"

namespace airscope {

// The table printed for graph `g` (same compile id, rank and compiled
// function, `__compiled_fn_N`), or null.
const TorchLogsGraphSizes* GraphSizesTableOf(const TorchLogs& log, const TorchLogsGraph& g);

// Gives the table's sizes to the nodes of `graph` that have no value yet (no
// meta, or one holding only `# File:` comments, which it keeps). Returns how
// many nodes got sizes; a line naming no node of the graph or sizes it cannot
// read goes to *unread, whole. A node that has a tensor value keeps it; where
// the table says other sizes (an edited log, or two rows for one node), the
// line and the kept value go to *contradicted ("neg: (9,), but the graph has
// f32[8]").
size_t ApplyGraphSizes(Graph& graph, const TorchLogsGraphSizes& table, std::vector<std::string>* unread,
                       std::vector<std::string>* contradicted);

}  // namespace airscope

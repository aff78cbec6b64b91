// FX graph text: what `print(gm.graph)` prints, read and written.
//
//   graph():
//       %x : [num_users=1] = placeholder[target=x]
//       %mm : [num_users=1] = call_function[target=torch.ops.aten.mm.default](args = (%x, %x), kwargs = {})
//       return (mm,)
//
// Both torch 2.x `[num_users=N]` and torch 1.x `[#users=N]` are read; the
// graph's style().legacy_users records which, and the printer writes the same.
// Printing reproduces torch's Graph.__str__ byte for byte (no trailing newline
// after the last line, like torch; callers writing files add one).
// The `[num_users=N]` count in a file is checked against the users the graph
// derives; a mismatch is an error naming the node.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"
#include "core/status.h"

namespace airscope {

// Told now and then, while parsing, an offset into the text below which the
// parser will not read again: a caller owning a big buffer can give those
// pages back (see FileText::ReleaseBefore), so a 1M-node load does not hold
// the whole file and the whole graph at once.
using ReleaseTextBefore = std::function<void(size_t offset)>;

// Errors read "FILENAME:LINE:COL: message" (1-based line and column).
Result<std::unique_ptr<Graph>> ParseFxText(std::string_view text, std::string_view filename,
                                           const ReleaseTextBefore& release = {});
std::string PrintFxText(const Graph& graph);
// One node's line of PrintFxText, without its indentation.
std::string PrintFxNode(const Graph& graph, const Node& node);

// Nodes with a string argument that FX text cannot tell from another value:
// torch's _format_arg prints strings bare, so '1' prints as 1 and 'True' as
// True, and reads back as an int or a bool. Those nodes do not survive a
// round trip through FX text (readable code and airscope JSON keep them).
std::vector<std::string> NodesWithAmbiguousStrings(const Graph& graph);

}  // namespace airscope

// TorchAir pbtxt: the text torchair/_ge_concrete_graph/utils.py `_GraphPbtxt`
// writes for a GE graph (TensorBoard/Netron load it as a GraphDef):
//
//   node {
//       name: "Add"
//       op: "Add"
//       input: "arg0_1:0"
//       attr {
//           key: "[o]y"
//           value {
//               s: 'name: "y"\ndtype: DT_FLOAT\n...'
//           }
//       }
//   }
//
// 4-space indentation (torch's IndentedBuffer); name/op/input/key written as
// `"{v}"` verbatim; every attr value is `s:` holding the protobuf text of the
// GE AttrDef / TensorDescriptor, spelled as Python's repr(bytes) (single
// quotes unless the text has ' and no "). Control inputs are `^name`. Which
// operators, names and attrs a Graph becomes: see formats/ge_ops.h. The output is
// deterministic and ends with "}\n" (empty graph: "").
#pragma once

#include <string>

#include "core/ir/graph.h"
#include "core/status.h"
#include "formats/ge_ops.h"

namespace airscope {

Result<std::string> GraphToPbtxt(const Graph& graph, const GeOpsOptions& options = {});

}  // namespace airscope

// GE txt: the protobuf text of GE's ge.proto.ModelDef (ge_ir.proto) for a
// Graph, as GE's own dumps spell it: 2-space indentation, fields in field
// number order, map entries sorted by key, proto3 defaults omitted.
//
//   name: "model"
//   graph {
//     name: "model"
//     op {
//       name: "Add"  type: "Add"  input: "arg0_1:0"  attr { key: ... value { i: 0 } }
//       stream_id: 1  input_desc { ... }  output_desc { ... }
//     }
//   }
//
// Operators, names and descs as in formats/ge_ops.h (one set of conventions for
// pbtxt and GE txt). Control inputs are GE's `name:-1`. Streams: the default
// stream is stream_id 0 (omitted, proto3's default), user streams are
// numbered 1, 2, ... by first appearance in graph order and also named by the
// `_user_stream_label` attr. Only fields of ModelDef (name, graph), GraphDef
// (name, op), OpDef (name, type, input, attr, stream_id, input_desc,
// output_desc), TensorDescriptor (name, dtype, shape, layout, attr,
// device_type) and AttrDef (s, i, list{s,i}) are written.
#pragma once

#include <string>
#include <string_view>

#include "core/ir/graph.h"
#include "core/status.h"
#include "formats/ge_ops.h"

namespace airscope {

Result<std::string> GraphToGeText(const Graph& graph, std::string_view model_name, const GeOpsOptions& options = {});

}  // namespace airscope

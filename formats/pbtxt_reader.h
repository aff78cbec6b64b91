// Reads TorchAir pbtxt (GraphDef-like `node { name op input attr }` text, as
// formats/pbtxt_writer.h writes it and TorchAir dumps it) into a Graph.
//
//   Data      -> placeholder, ordered by the `index` attr (then file order)
//   NetOutput -> output `output`, args `((inputs...),)`
//   Const     -> get_attr (target `_fx_target`, else the name)
//   other     -> call_function; target `_aten_op`, else the canonical aten
//                source of the GE type (ge_op_types.h: e.g. Reshape ->
//                aten.view.default), else `ge.<Type>`; `_fx_op` restores
//                call_method/call_module
//   `name:i` on a multi-output producer -> an `operator.getitem` node named
//   `<producer>_getitem_<i>`; `^name` control inputs -> the kwarg
//   `_control_deps` (a list of node refs), unless `_fx_args`/`_fx_kwargs`
//   give the node's exact args (then those are used as they are).
//   `[o]` descs -> NodeMeta (source kAnnotated): the `_meta` attr's torch text
//   where present (keeps symbolic dims), else dtype/shape (-1 -> symbol `?`).
//   A desc in ND layout whose shape contradicts its `_meta` (another rank, a
//   static size that differs) adds a located warning to `warnings`: _meta is
//   used, and the file does not say which is right.
//   `_user_stream_label` -> the node's stream. Other attrs and unknown fields
//   are skipped (GE adds many).
// Nodes may come in any order: they are sorted topologically (Kahn,
// iterative, ties in file order); a cycle is an error naming its nodes.
// Names that are not Python identifiers are made legal (`a/b` -> `a_b`).
// Errors read "FILENAME:LINE:COL: message"; garbage, truncated input and
// deep nesting give errors, never crashes.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"
#include "core/status.h"

namespace airscope {

Result<std::unique_ptr<Graph>> ParsePbtxt(std::string_view text, std::string_view filename,
                                          std::vector<std::string>* warnings = nullptr);

}  // namespace airscope

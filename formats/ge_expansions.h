// The GE operators TorchAir's converters build for one aten op when that is
// more than one operator, or one with list arguments turned into Const
// inputs (ge_converter/aten/*.py; each expansion cites its converter).
//
// Contract: ExpandForGe returns the operators in the order the converter
// creates them (so GeGraph.next_unique_name numbers them the same way); the
// last one is the node's own operator (its value), the others are parts of
// it. Names come from `unique_name(type)`; inputs of the FX node's tensor
// arguments from `input_of(node)`. Output descs of parts are set here; the
// last operator's output desc, its `_aten_op`/`_fx_args` attrs and the
// name-key attrs are the caller's (ge_ops.cc). nullopt: the node is written
// as before (one operator of ge_op_types.h's type, or unconverted).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"
#include "formats/ge_ops.h"

namespace airscope {

struct GeInput {
  std::string ref;  // "producer:idx"
  GeDesc desc;      // the producer's output desc
};

struct GeExpansionContext {
  std::function<std::string(std::string_view type)> unique_name;
  std::function<GeInput(const Node* producer)> input_of;
};

std::optional<std::vector<GeOp>> ExpandForGe(const Node& node, const GeExpansionContext& context);

}  // namespace airscope

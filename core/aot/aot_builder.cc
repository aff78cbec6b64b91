#include "core/aot/aot_builder.h"

#include "core/analysis/node_util.h"

namespace airscope {

Node* AtenBuilder::Call(std::string_view target, std::vector<Argument> args, std::vector<Kwarg> kwargs) {
  Node* node = out_.Append(CallSpec(target, std::move(args), std::move(kwargs)));
  InferMeta(node, registry_);
  // make_fx keeps the user's source line on every op it records for it; the
  // printout shows it above the first of them.
  if (node->meta()) {
    std::string trace = TraceForNext();
    if (!trace.empty()) {
      NodeMeta meta = *node->meta();
      meta.stack_trace = std::move(trace);
      node->set_meta(std::move(meta));
    }
  }
  return node;
}

std::string AtenBuilder::TraceForNext() {
  if (stack_trace_.empty() || stack_trace_ == attached_) return "";
  attached_ = stack_trace_;
  return stack_trace_;
}

const Argument* AtenBuilder::Lookup(const Node* dynamo) const {
  auto it = values_.find(dynamo);
  return it == values_.end() ? nullptr : &it->second;
}

Argument AtenBuilder::In(const Argument& arg) const {
  if (arg.is_node()) {
    const Argument* value = Lookup(arg.as_node());
    return value ? *value : arg;
  }
  if (!arg.is_sequence() || !arg.ContainsNode()) return arg;
  std::vector<Argument> items;
  for (const Argument& item : arg.items()) items.push_back(In(item));
  return arg.kind() == Argument::Kind::kList ? Argument::List(std::move(items)) : Argument::Tuple(std::move(items));
}

bool AtenBuilder::Bound(const Argument& arg) const {
  bool bound = true;
  arg.ForEachNode([&](Node* node) { bound = bound && Lookup(node) != nullptr; });
  return bound;
}

const TensorMeta* MetaOf(const Argument& value) { return value.is_node() ? value.as_node()->tensor() : nullptr; }

}  // namespace airscope

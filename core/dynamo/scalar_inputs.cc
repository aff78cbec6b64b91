#include "core/dynamo/scalar_inputs.h"

#include <cstdlib>

namespace airscope {
namespace {

Argument AsArgument(const PyScalar& value) {
  switch (value.type) {
    case PyScalar::Type::kBool: return Argument::Bool(value.value != 0);
    case PyScalar::Type::kFloat: return Argument::Float(std::strtod(value.repr.c_str(), nullptr));
    case PyScalar::Type::kStr: return Argument::String(value.repr.substr(1, value.repr.size() - 2));  // unquoted
    case PyScalar::Type::kInt: break;
  }
  return Argument::Int(value.value);
}

// `arg` with every reference to `node` replaced by `value`.
Argument Substitute(const Argument& arg, const Node* node, const Argument& value) {
  if (arg.is_node()) return arg.as_node() == node ? value : arg;
  if (!arg.is_sequence() || !arg.ContainsNode()) return arg;
  std::vector<Argument> items;
  for (const Argument& item : arg.items()) items.push_back(Substitute(item, node, value));
  return arg.kind() == Argument::Kind::kList ? Argument::List(std::move(items)) : Argument::Tuple(std::move(items));
}

}  // namespace

std::unique_ptr<Graph> BindScalarInputs(const Graph& graph, const std::vector<ScalarBinding>& bindings) {
  std::unique_ptr<Graph> bound = graph.Clone();
  std::vector<Node*> placeholders = bound->Placeholders();
  for (size_t i = 0; i < placeholders.size() && i < bindings.size(); ++i) {
    Node* p = placeholders[i];
    const ScalarBinding& b = bindings[i];
    if (b.constant) {
      Argument value = AsArgument(*b.constant);
      std::vector<Node*> users(p->users().begin(), p->users().end());
      for (Node* user : users) {
        std::vector<Argument> args;
        for (const Argument& a : user->args()) args.push_back(Substitute(a, p, value));
        bound->SetArgs(user, std::move(args));
        std::vector<Kwarg> kwargs;
        for (const Kwarg& k : user->kwargs()) kwargs.push_back({k.name, Substitute(k.value, p, value)});
        bound->SetKwargs(user, std::move(kwargs));
      }
      Status erased = bound->Erase(p);
      (void)erased;  // every use was just rewritten
    } else if (!b.symbol.empty()) {
      NodeMeta meta;
      meta.kind = ValueKind::kSymInt;
      meta.annotation = "Sym(" + b.symbol + ")";
      p->set_meta(std::move(meta));
    }
  }
  return bound;
}

}  // namespace airscope

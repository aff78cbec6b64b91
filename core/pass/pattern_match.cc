#include "core/pass/pattern_match.h"

#include <unordered_map>
#include <unordered_set>

#include "core/analysis/node_util.h"

namespace airscope {

PatternPtr Pattern::Call(std::string target, std::vector<PatternPtr> args, int users) {
  return Call(std::move(target), std::move(args), {}, users);
}
PatternPtr Pattern::Call(std::string target, std::vector<PatternPtr> args,
                         std::vector<std::pair<std::string, PatternPtr>> kwargs, int users) {
  auto p = std::make_shared<Pattern>();
  p->kind = Kind::kCall;
  p->target = std::move(target);
  p->args = std::move(args);
  p->kwargs = std::move(kwargs);
  p->users = users;
  return p;
}
PatternPtr Pattern::Keyword(std::string name) {
  auto p = std::make_shared<Pattern>();
  p->kind = Kind::kKeyword;
  p->name = std::move(name);
  return p;
}
PatternPtr Pattern::Ignored() { return std::make_shared<Pattern>(); }
PatternPtr Pattern::Constant(Argument value) {
  auto p = std::make_shared<Pattern>();
  p->kind = Kind::kConstant;
  p->value = std::move(value);
  return p;
}
PatternPtr Pattern::List(std::vector<PatternPtr> items) {
  auto p = std::make_shared<Pattern>();
  p->kind = Kind::kList;
  p->args = std::move(items);
  return p;
}

namespace {

bool IsNumber(const Argument& a) {
  auto k = a.kind();
  return k == Argument::Kind::kBool || k == Argument::Kind::kInt || k == Argument::Kind::kFloat;
}
double NumberOf(const Argument& a) {
  switch (a.kind()) {
    case Argument::Kind::kBool: return a.as_bool() ? 1 : 0;
    case Argument::Kind::kInt: return static_cast<double>(a.as_int());
    default: return a.as_float();
  }
}

}  // namespace

bool PyEqual(const Argument& a, const Argument& b) {
  if (a.is_node() || b.is_node()) return a.is_node() && b.is_node() && a.as_node() == b.as_node();
  if (IsNumber(a) && IsNumber(b)) {
    if (a.kind() != Argument::Kind::kFloat && b.kind() != Argument::Kind::kFloat) {
      int64_t x = a.kind() == Argument::Kind::kBool ? a.as_bool() : a.as_int();
      int64_t y = b.kind() == Argument::Kind::kBool ? b.as_bool() : b.as_int();
      return x == y;
    }
    return NumberOf(a) == NumberOf(b);
  }
  if (a.is_sequence() && b.is_sequence()) {
    if (a.kind() != b.kind()) return false;  // Python: [1] != (1,)
    auto x = a.items(), y = b.items();
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (!PyEqual(x[i], y[i])) return false;
    }
    return true;
  }
  return a.SameAs(b);
}

namespace {

// Keyword-only parameters (with their defaults) in schema order, for the ops
// TorchAir's patterns name by keyword: what normalize_function binds.
struct KwargSchema {
  std::string_view target;
  std::vector<std::pair<std::string, Argument>> params;
};
const std::vector<KwargSchema>& KwargSchemas() {
  static const auto* schemas = new std::vector<KwargSchema>{
      // native_functions.yaml: _to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None,
      // Device? device=None, bool? pin_memory=None, bool non_blocking=False, MemoryFormat? memory_format=None)
      {"aten._to_copy.default",
       {{"dtype", Argument::None()},
        {"layout", Argument::None()},
        {"device", Argument::None()},
        {"pin_memory", Argument::None()},
        {"non_blocking", Argument::Bool(false)},
        {"memory_format", Argument::None()}}},
      // op-plugin op_plugin_functions.yaml:6128 npu_dynamic_quant(Tensor input, *, Tensor? smooth_scales=None,
      // Tensor? group_index=None, int? dst_type=None, str quant_mode="pertoken", float dst_type_max=0.0)
      {"npu.npu_dynamic_quant.default",
       {{"smooth_scales", Argument::None()},
        {"group_index", Argument::None()},
        {"dst_type", Argument::None()},
        {"quant_mode", Argument::String("pertoken")},
        {"dst_type_max", Argument::Float(0.0)}}},
  };
  return *schemas;
}

using Kwargs = std::vector<std::pair<std::string, Argument>>;

struct Context {
  std::span<const PatternPtr> outputs;
  // MatchContext.pattern_to_node: what each pattern object met (nullopt: it failed).
  std::unordered_map<const Pattern*, std::optional<Argument>> memo;
  bool failed_hard = false;  // a FailedMatch raised by Match.extend: the whole match fails
};

// Match: the nodes and KeywordArg bindings of one (sub)pattern.
struct Sub {
  std::vector<Node*> nodes;
  Kwargs kwargs;  // a dict: insertion order
};

// Match.extend: a name bound on both sides to different values raises FailedMatch.
bool Extend(Sub& into, const Sub& other, Context& ctx) {
  if (!into.kwargs.empty()) {
    for (const auto& [name, value] : other.kwargs) {
      for (const auto& [mine, bound] : into.kwargs) {
        if (mine == name && !PyEqual(bound, value)) {
          ctx.failed_hard = true;
          return false;
        }
      }
    }
  }
  into.nodes.insert(into.nodes.end(), other.nodes.begin(), other.nodes.end());
  for (const auto& [name, value] : other.kwargs) {
    bool replaced = false;
    for (auto& [mine, bound] : into.kwargs) {
      if (mine == name) {
        bound = value;
        replaced = true;
      }
    }
    if (!replaced) into.kwargs.emplace_back(name, value);
  }
  return true;
}

bool MatchIn(const Pattern& pattern, const Argument& value, Context& ctx, Sub& out);

bool IsOutput(const Pattern& pattern, const Context& ctx) {
  for (const PatternPtr& p : ctx.outputs) {
    if (p.get() == &pattern) return true;
  }
  return false;
}

// pytree leaves of an argument (lists and tuples are one kind of node, None is
// a node without children); `shape` records the structure for comparison.
void FlattenValue(const Argument& value, std::vector<Argument>& leaves, std::string& shape) {
  if (value.is_sequence()) {
    shape += '[';
    for (const Argument& item : value.items()) FlattenValue(item, leaves, shape);
    shape += ']';
  } else if (value.is_none()) {
    shape += 'N';
  } else {
    shape += 'L';
    leaves.push_back(value);
  }
}
void FlattenPattern(const PatternPtr& pattern, std::vector<const Pattern*>& leaves, std::string& shape) {
  if (pattern->kind == Pattern::Kind::kList) {
    shape += '[';
    for (const PatternPtr& item : pattern->args) FlattenPattern(item, leaves, shape);
    shape += ']';
  } else if (pattern->kind == Pattern::Kind::kConstant && pattern->value.is_none()) {
    shape += 'N';
  } else {
    shape += 'L';
    leaves.push_back(pattern.get());
  }
}

bool HasList(const Pattern& call) {
  for (const PatternPtr& a : call.args) {
    if (a->kind == Pattern::Kind::kList) return true;
  }
  for (const auto& kw : call.kwargs) {
    if (kw.second->kind == Pattern::Kind::kList) return true;
  }
  return false;
}

// The node's kwargs as the pattern compares them (_TargetArgsExpr._match).
std::optional<Kwargs> KwargsToCompare(const Pattern& pattern, const Node& node) {
  Kwargs filtered;
  auto wanted = [&](std::string_view name) {
    for (const auto& kw : pattern.kwargs) {
      if (kw.first == name) return true;
    }
    return false;
  };
  if (node.kwargs().size() < pattern.kwargs.size()) {
    // normalize_function(node.target, node.args, node.kwargs): every parameter
    // the args do not give, by name, absent ones at their defaults.
    const KwargSchema* schema = nullptr;
    for (const KwargSchema& s : KwargSchemas()) {
      if (IsTarget(node, s.target)) schema = &s;
    }
    if (!schema) return std::nullopt;  // airscope knows no schema: cannot normalize (FailedMatch)
    for (const Kwarg& kw : node.kwargs()) {
      bool known = false;
      for (const auto& p : schema->params) known = known || p.first == kw.name;
      if (!known) return std::nullopt;  // Signature.bind fails
    }
    for (const auto& [name, fallback] : schema->params) {
      const Argument* given = node.kwarg(name);
      if (wanted(name)) filtered.emplace_back(name, given ? *given : fallback);
    }
    return filtered;
  }
  for (const Kwarg& kw : node.kwargs()) {
    if (wanted(kw.name)) filtered.emplace_back(kw.name, kw.value);
  }
  return filtered;
}

bool MatchLeaf(const Pattern& pattern, const Argument& value, Context& ctx, Sub& m) {
  if (pattern.kind == Pattern::Kind::kConstant) {
    return !value.is_node() && PyEqual(value, pattern.value);
  }
  Sub child;
  if (!MatchIn(pattern, value, ctx, child)) return false;
  return Extend(m, child, ctx);
}

bool MatchCall(const Pattern& pattern, const Argument& value, Context& ctx, Sub& m) {
  if (!value.is_node()) return false;
  Node* node = value.as_node();
  if (node->op() != OpKind::kCallFunction || !IsTarget(*node, pattern.target) ||
      node->args().size() != pattern.args.size()) {
    return false;
  }
  if (!IsOutput(pattern, ctx) && pattern.users != Pattern::kMultiple &&
      node->users().size() != static_cast<size_t>(pattern.users)) {
    return false;
  }
  std::optional<Kwargs> kwargs = KwargsToCompare(pattern, *node);
  if (!kwargs || kwargs->size() != pattern.kwargs.size()) return false;
  for (size_t i = 0; i < kwargs->size(); ++i) {
    if ((*kwargs)[i].first != pattern.kwargs[i].first) return false;  // the flattened spec differs
  }
  std::vector<const Pattern*> want;
  std::vector<Argument> have;
  if (HasList(pattern)) {  // pytree_flatten
    std::string want_shape, have_shape;
    for (const PatternPtr& a : pattern.args) FlattenPattern(a, want, want_shape);
    for (const auto& kw : pattern.kwargs) FlattenPattern(kw.second, want, want_shape);
    for (const Argument& a : node->args()) FlattenValue(a, have, have_shape);
    for (const auto& kw : *kwargs) FlattenValue(kw.second, have, have_shape);
    if (want_shape != have_shape) return false;
  } else {  // simple_flatten
    for (const PatternPtr& a : pattern.args) want.push_back(a.get());
    for (const auto& kw : pattern.kwargs) want.push_back(kw.second.get());
    have.assign(node->args().begin(), node->args().end());
    for (const auto& kw : *kwargs) have.push_back(kw.second);
  }
  for (size_t i = 0; i < want.size(); ++i) {
    if (!MatchLeaf(*want[i], have[i], ctx, m)) return false;
  }
  m.nodes.push_back(node);
  return true;
}

// MatchContext.match: a pattern object met before must meet the same value.
bool MatchIn(const Pattern& pattern, const Argument& value, Context& ctx, Sub& out) {
  if (ctx.failed_hard) return false;
  auto seen = ctx.memo.find(&pattern);
  if (seen != ctx.memo.end()) return seen->second && PyEqual(*seen->second, value);
  bool ok = false;
  switch (pattern.kind) {
    case Pattern::Kind::kIgnored: ok = true; break;
    case Pattern::Kind::kKeyword:
      out.kwargs.emplace_back(pattern.name, value);
      ok = true;
      break;
    case Pattern::Kind::kCall: ok = MatchCall(pattern, value, ctx, out); break;
    case Pattern::Kind::kConstant:
    case Pattern::Kind::kList:
      ok = false;  // only reached as leaves (MatchLeaf)
      break;
  }
  ctx.memo[&pattern] = ok ? std::optional<Argument>(value) : std::nullopt;
  return ok && !ctx.failed_hard;
}

// find_anchor_nodes: candidates for `pattern` among the users of nodes the
// match has already met, each once, in users order.
void FindAnchors(const Pattern& pattern, Context& ctx, std::unordered_set<const Node*>& searched,
                 std::vector<Node*>& out) {
  auto seen = ctx.memo.find(&pattern);
  if (seen != ctx.memo.end()) {
    if (seen->second && seen->second->is_node()) out.push_back(seen->second->as_node());
    return;
  }
  if (pattern.kind != Pattern::Kind::kCall) return;
  std::vector<const Pattern*> leaves;
  std::string shape;
  for (const PatternPtr& a : pattern.args) FlattenPattern(a, leaves, shape);
  for (const auto& kw : pattern.kwargs) FlattenPattern(kw.second, leaves, shape);
  for (const Pattern* leaf : leaves) {
    if (leaf->kind == Pattern::Kind::kConstant) continue;
    std::vector<Node*> inner;
    FindAnchors(*leaf, ctx, searched, inner);
    for (Node* other : inner) {
      for (Node* user : other->users()) {
        if (searched.contains(user)) continue;
        if (user->op() == OpKind::kCallFunction && IsTarget(*user, pattern.target)) {
          out.push_back(user);
          searched.insert(user);
        }
      }
    }
  }
}

std::optional<PatternMatch> Finish(Sub& m, std::span<const PatternPtr> outputs, const Context& ctx) {
  PatternMatch match;
  match.nodes = std::move(m.nodes);
  for (auto& [name, value] : m.kwargs) match.bindings.insert_or_assign(name, value);
  for (const PatternPtr& p : outputs) {
    Node* bound = nullptr;
    if (p) {
      auto it = ctx.memo.find(p.get());
      if (it != ctx.memo.end() && it->second && it->second->is_node()) bound = it->second->as_node();
    }
    match.outputs.push_back(bound);
  }
  return match;
}

// A necessary condition for MatchCall, checked without allocating: every
// call in the pattern meets a call_function node of its target with as many
// positional args (in both flattenings a call pattern is a leaf, so its
// positional slot holds the node it must meet). apply_pattern_passes tries
// each entry on every node of a root target (every transpose of a model);
// this turns the usual miss into a few compares.
bool CouldMatch(const Pattern& pattern, const Node& node) {
  if (node.op() != OpKind::kCallFunction || !IsTarget(node, pattern.target) ||
      node.args().size() != pattern.args.size()) {
    return false;
  }
  for (size_t i = 0; i < pattern.args.size(); ++i) {
    const Pattern& arg = *pattern.args[i];
    if (arg.kind != Pattern::Kind::kCall) continue;
    if (!node.args()[i].is_node() || !CouldMatch(arg, *node.args()[i].as_node())) return false;
  }
  return true;
}

}  // namespace

std::optional<PatternMatch> MatchPattern(const PatternPtr& pattern, Node* root) {
  return MatchMultiOutput(std::span<const PatternPtr>(&pattern, 1), root);
}

std::optional<PatternMatch> MatchMultiOutput(std::span<const PatternPtr> outputs, Node* root) {
  if (outputs.empty() || !outputs[0] || outputs[0]->kind != Pattern::Kind::kCall || !CouldMatch(*outputs[0], *root)) {
    return std::nullopt;
  }
  Context ctx;
  ctx.outputs = outputs;
  Sub m;
  if (outputs.empty() || !outputs[0] || !MatchIn(*outputs[0], Argument::NodeRef(root), ctx, m)) return std::nullopt;
  for (size_t i = 1; i < outputs.size(); ++i) {
    if (!outputs[i]) continue;
    // _match_from_anchors: the first anchor that matches; partial matches reverted.
    auto prior = ctx.memo;
    std::unordered_set<const Node*> searched;
    std::vector<Node*> anchors;
    FindAnchors(*outputs[i], ctx, searched, anchors);
    bool found = false;
    for (Node* anchor : anchors) {
      Sub child;
      if (MatchIn(*outputs[i], Argument::NodeRef(anchor), ctx, child)) {
        if (!Extend(m, child, ctx)) return std::nullopt;
        found = true;
        break;
      }
      if (ctx.failed_hard) return std::nullopt;
      ctx.memo = prior;
    }
    if (!found) return std::nullopt;
  }
  return Finish(m, outputs, ctx);
}

}  // namespace airscope

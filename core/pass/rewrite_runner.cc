// Running a parsed rewrite program over a graph (semantics in
// rewrite_language.h). Bindings and the set of erased nodes live for one run.
#include <map>
#include <unordered_set>

#include <fmt/format.h>

#include "core/analysis/stream_util.h"
#include "core/pass/rewrite_language.h"

namespace airscope {
namespace {

class Run {
 public:
  Run(Graph& graph, PassContext& context) : graph_(graph), context_(context) {}

  Result<bool> Apply(const RewriteProgram& program) {
    bool changed = false;
    for (const RewriteRule& rule : program.rules) {
      // Addresses of nodes erased by an earlier rule may now belong to new nodes.
      erased_.clear();
      // The nodes as they are when the rule starts: what it inserts is not revisited.
      size_t matched = 0;
      for (Node* node : graph_.Nodes()) {
        if (erased_.count(node) || !Matches(rule, *node)) continue;
        ++matched;
        Status status = Act(rule, node);
        if (!status.ok()) {
          return Status::Errorf("rule at line {} ({}) on node '{}': {}", rule.line, rule.text, node->name(),
                                status.message());
        }
        changed = true;
      }
      // Most often a misspelt pattern: say so instead of changing nothing quietly.
      if (matched == 0)
        context_.remarks.push_back(fmt::format("rule at line {} ({}) matched no node", rule.line, rule.text));
    }
    return changed;
  }

 private:
  bool Matches(const RewriteRule& rule, const Node& node) const {
    if (rule.by_name) return GlobMatch(rule.pattern, node.name());
    if (node.op() != OpKind::kCallFunction) return false;
    return GlobMatch(rule.pattern, node.target()) || GlobMatch(rule.pattern, StripTorchOps(node.target()));
  }

  Result<Node*> RefNode(const std::string& ref, Node* matched) const {
    AIRSCOPE_ASSIGN_OR_RETURN(Argument value, Ref(ref, matched));
    if (!value.is_node()) return Status::Errorf("${} is not a node", ref);
    return value.as_node();
  }

  Result<Argument> Ref(const std::string& ref, Node* matched) const {
    if (ref == "node") return Argument::NodeRef(matched);
    if (ref.size() > 3 && ref.compare(0, 3, "arg") == 0 &&
        ref.find_first_not_of("0123456789", 3) == std::string::npos) {
      size_t index = std::stoul(ref.substr(3));
      if (index >= matched->args().size()) {
        return Status::Errorf("${} does not exist: '{}' has {} argument{}", ref, matched->name(),
                              matched->args().size(), matched->args().size() == 1 ? "" : "s");
      }
      return matched->args()[index];
    }
    auto it = bindings_.find(ref);
    if (it == bindings_.end()) return Status::Errorf("${} is not bound (no earlier 'as {}' has run)", ref, ref);
    if (!it->second) return Status::Errorf("${} names a node that was erased", ref);
    return Argument::NodeRef(it->second);
  }

  Result<Argument> Build(const ValueTemplate& value, Node* matched) const {
    switch (value.kind) {
      case ValueTemplate::Kind::kLiteral: return value.literal;
      case ValueTemplate::Kind::kRef: return Ref(value.ref, matched);
      case ValueTemplate::Kind::kList:
      case ValueTemplate::Kind::kTuple: {
        std::vector<Argument> items;
        for (const ValueTemplate& item : value.items) {
          AIRSCOPE_ASSIGN_OR_RETURN(Argument built, Build(item, matched));
          items.push_back(std::move(built));
        }
        return value.kind == ValueTemplate::Kind::kList ? Argument::List(std::move(items))
                                                        : Argument::Tuple(std::move(items));
      }
    }
    return Argument();
  }

  Status Act(const RewriteRule& rule, Node* node) {
    switch (rule.action) {
      case RewriteAction::kSetStream: return WrapInStreamScope(node, rule.stream);
      case RewriteAction::kErase: {
        if (!node->users().empty()) {
          std::vector<std::string> users;
          for (const Node* user : node->users()) users.push_back(user->name());
          return Status::Errorf("cannot erase it: it is used by {}", fmt::join(users, ", "));
        }
        return EraseTracked(node);
      }
      case RewriteAction::kInsertBefore:
      case RewriteAction::kInsertAfter:
      case RewriteAction::kReplace: break;
    }
    std::vector<Argument> args;
    for (const ValueTemplate& value : rule.call.args) {
      AIRSCOPE_ASSIGN_OR_RETURN(Argument built, Build(value, node));
      args.push_back(std::move(built));
    }
    std::vector<Kwarg> kwargs;
    for (const auto& [key, value] : rule.call.kwargs) {
      AIRSCOPE_ASSIGN_OR_RETURN(Argument built, Build(value, node));
      kwargs.push_back({key, std::move(built)});
    }
    Node* anchor = node;
    if (!rule.anchor.empty()) {
      AIRSCOPE_ASSIGN_OR_RETURN(Node * resolved, RefNode(rule.anchor, node));
      anchor = resolved;
    }
    if (rule.action == RewriteAction::kReplace) {
      for (const Argument& arg : args) {
        bool self = false;
        arg.ForEachNode([&](Node* n) { self = self || n == node; });
        if (self) return Status::Error("the replacement cannot use $node: the node is erased");
      }
    }
    Node* created = InsertCall(graph_, anchor, rule.action != RewriteAction::kInsertAfter, rule.call.target,
                               std::move(args), std::move(kwargs), context_.registry);
    if (!rule.bind.empty()) bindings_[rule.bind] = created;
    if (rule.action == RewriteAction::kReplace) {
      graph_.ReplaceAllUsesWith(node, created);
      AIRSCOPE_RETURN_IF_ERROR(EraseTracked(node));
    }
    return Status::Ok();
  }

  // TorchAir takes a node's stream from the air.scope_enter/scope_exit block
  // around it (its stream label; lower does the same), so a stream set on
  // the node alone would be undone. `set stream S` writes what a user writes
  // in TorchAir (npu_stream_switch): the node inside its own scope for S.
  Status WrapInStreamScope(Node* node, const std::string& stream) {
    if (stream.empty()) {
      if (node->stream().empty()) return Status::Ok();
      return Status::Errorf(
          "it is on stream '{}' by its air.scope_enter block; to put it on the default stream, "
          "move it out of that block",
          node->stream());
    }
    InsertCall(
        graph_, node, /*before=*/true, kScopeEnter,
        {Argument::List({Argument::String(std::string(kUserStreamLabel))}), Argument::List({Argument::String(stream)})},
        {}, context_.registry);
    InsertCall(graph_, node, /*before=*/false, kScopeExit, {}, {}, context_.registry);
    graph_.SetStream(node, stream);
    return Status::Ok();
  }

  Status EraseTracked(Node* node) {
    for (auto& [name, bound] : bindings_) {
      if (bound == node) bound = nullptr;
    }
    AIRSCOPE_RETURN_IF_ERROR(graph_.Erase(node));
    erased_.insert(node);
    return Status::Ok();
  }

  Graph& graph_;
  PassContext& context_;
  std::map<std::string, Node*> bindings_;
  // Nodes erased during the current rule that are still in its snapshot. A
  // freed address can only come back as a node the rule created, which is
  // not in the snapshot, so pointer identity is a safe key within one rule.
  std::unordered_set<const Node*> erased_;
};

}  // namespace

PassFn MakeRewritePass(RewriteProgram program) {
  return [program = std::move(program)](Graph& graph, PassContext& context) -> Result<bool> {
    Run run(graph, context);
    return run.Apply(program);
  };
}

}  // namespace airscope

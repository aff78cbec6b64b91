#include "core/pass/pattern_match.h"

#include "core/pass/pass_util.h"

namespace airscope {

PatternPtr Pattern::Call(std::string target, std::vector<PatternPtr> args, int users) {
  auto p = std::make_shared<Pattern>();
  p->kind = Kind::kCall;
  p->target = std::move(target);
  p->args = std::move(args);
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

namespace {

bool Match(const Pattern& pattern, const Argument& value, bool is_root, PatternMatch& match) {
  switch (pattern.kind) {
    case Pattern::Kind::kIgnored:
      return true;
    case Pattern::Kind::kKeyword: {
      auto [it, inserted] = match.bindings.emplace(pattern.name, value);
      return inserted || it->second.SameAs(value);
    }
    case Pattern::Kind::kCall: {
      if (!value.is_node()) return false;
      Node* node = value.as_node();
      if (!IsTarget(*node, pattern.target) || node->args().size() != pattern.args.size() || !node->kwargs().empty()) {
        return false;
      }
      if (!is_root && pattern.users != 0 && node->users().size() != static_cast<size_t>(pattern.users)) return false;
      match.nodes.push_back(node);
      for (size_t i = 0; i < pattern.args.size(); ++i) {
        if (!Match(*pattern.args[i], node->args()[i], false, match)) return false;
      }
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<PatternMatch> MatchPattern(const Pattern& pattern, Node* root) {
  PatternMatch match;
  if (!Match(pattern, Argument::NodeRef(root), true, match)) return std::nullopt;
  return match;
}

}  // namespace airscope

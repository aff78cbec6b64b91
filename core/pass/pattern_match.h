// A small subset of Inductor's pattern matcher (torch/_inductor/
// pattern_matcher.py), enough for TorchAir's pattern passes:
// CallFunction(target, *args, _users=1), KeywordArg(name) and Ignored().
// A call matches a node with that target and exactly that many args and no
// kwargs; every call except the pattern's root must have exactly `users`
// users (Inductor's default _users=1; 0 means MULTIPLE); a KeywordArg binds
// anything and must bind the same thing everywhere it appears.
//
// Contract: matching reads the graph only.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/ir/node.h"

namespace airscope {

struct Pattern {
  enum class Kind : uint8_t { kCall, kKeyword, kIgnored };
  Kind kind = Kind::kIgnored;
  std::string target;  // kCall: without torch.ops.
  std::vector<std::shared_ptr<const Pattern>> args;
  std::string name;    // kKeyword
  int users = 1;       // kCall: 0 = MULTIPLE

  static std::shared_ptr<const Pattern> Call(std::string target, std::vector<std::shared_ptr<const Pattern>> args,
                                             int users = 1);
  static std::shared_ptr<const Pattern> Keyword(std::string name);
  static std::shared_ptr<const Pattern> Ignored();
};
using PatternPtr = std::shared_ptr<const Pattern>;

struct PatternMatch {
  std::vector<Node*> nodes;                  // the matched calls, root first
  std::map<std::string, Argument> bindings;  // KeywordArg name -> what it bound
};

// Matches `pattern` rooted at `root` (the root's users are not checked).
std::optional<PatternMatch> MatchPattern(const Pattern& pattern, Node* root);

}  // namespace airscope

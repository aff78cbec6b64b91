// A port of the part of Inductor's pattern matcher (torch/_inductor/
// pattern_matcher.py, torch 2.6) that TorchAir's pattern passes use:
// CallFunction(target, *args, _users=N, **kwargs), KeywordArg, Ignored,
// constants and lists of them, and MultiOutputPattern. The rules, each as
// Inductor has them (_TargetArgsExpr._match, MatchContext.match,
// MultiOutputPattern._match_from_anchors, Match.extend):
//  - a call matches a call_function node of that target with exactly as many
//    positional args; its users are counted (== _users, MULTIPLE: any)
//    unless the pattern is one of the match's outputs;
//  - the node's kwargs are filtered to the names the pattern has (others are
//    not compared); a node with fewer kwargs than the pattern is first
//    normalized by its schema (normalize_function), absent ones taking their
//    default; the remaining names must equal the pattern's, in order;
//  - with a list in the pattern, args are compared as pytree leaves (lists
//    and tuples alike); a constant must equal the value (Python ==: 1 == 1.0,
//    a node never equals a constant);
//  - Ignored matches anything and binds nothing; KeywordArg binds anything,
//    and one name bound to two different values fails the whole match;
//  - one pattern object reached twice must meet the same node both times;
//  - MultiOutputPattern matches outputs[0] at the root, then finds each other
//    output among the users of nodes already matched (find_anchor_nodes, in
//    users order), taking the first candidate that matches.
//
// Contract: matching reads the graph only.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/ir/node.h"

namespace airscope {

struct Pattern;
using PatternPtr = std::shared_ptr<const Pattern>;

struct Pattern {
  enum class Kind : uint8_t { kCall, kKeyword, kIgnored, kConstant, kList };
  static constexpr int kMultiple = 0;  // _users=MULTIPLE

  Kind kind = Kind::kIgnored;
  std::string target;                                      // kCall: without torch.ops.
  std::vector<PatternPtr> args;                            // kCall: positional; kList: items
  std::vector<std::pair<std::string, PatternPtr>> kwargs;  // kCall
  std::string name;                                        // kKeyword
  int users = 1;                                           // kCall
  Argument value;                                          // kConstant

  static PatternPtr Call(std::string target, std::vector<PatternPtr> args, int users = 1);
  static PatternPtr Call(std::string target, std::vector<PatternPtr> args,
                         std::vector<std::pair<std::string, PatternPtr>> kwargs, int users = 1);
  static PatternPtr Keyword(std::string name);
  static PatternPtr Ignored();
  static PatternPtr Constant(Argument value);
  static PatternPtr Int(int64_t value) { return Constant(Argument::Int(value)); }
  static PatternPtr List(std::vector<PatternPtr> items);
};

struct PatternMatch {
  // Inductor's Match.nodes: every matched call after the calls it reads, the
  // root's tree first, then each other output's.
  std::vector<Node*> nodes;
  std::map<std::string, Argument> bindings;  // KeywordArg name -> what it bound
  // The node each output pattern met (MultiOutputPattern order; one entry for
  // a single pattern).
  std::vector<Node*> outputs;
};

// Matches `pattern` rooted at `root` (PatternExpr.match: the root is the only output).
std::optional<PatternMatch> MatchPattern(const PatternPtr& pattern, Node* root);
// MultiOutputPattern(outputs).match(root); outputs[0] must be a call.
std::optional<PatternMatch> MatchMultiOutput(std::span<const PatternPtr> outputs, Node* root);

// Python's == on two argument values: numbers by value across bool/int/float,
// lists and tuples item by item, nodes by identity.
bool PyEqual(const Argument& a, const Argument& b);

}  // namespace airscope

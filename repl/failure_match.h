// What counts as "the same failure" for `minify`: a failing command's error,
// normalised so that the node names and numbers a smaller graph changes do
// not make it a different failure, or an explicit pattern (--match REGEX).
//
// Contract: a result that passed is never a match; a failure matches only
// when its normalised message equals the reference's (or REGEX finds it).
// Normalisation (the words `help minify` repeats):
//   - a word that names a node of the graph being shrunk, or of the candidate
//     graph, becomes <node>;
//   - a run of digits that is not part of a word becomes N, unless it has 6
//     digits or more: those are kept, as error codes are (ACL's 107027,
//     507903), so a different code is a different failure.
// The error's class (RuntimeError, ACL_ERROR_RT_STREAM_CAPTURED) is a word
// of its message and stays as it is.
#pragma once

#include <functional>
#include <optional>
#include <regex>
#include <string>
#include <string_view>

#include "core/status.h"

namespace airscope {

using IsNodeName = std::function<bool(std::string_view word)>;

std::string NormalizeFailure(std::string_view message, const IsNodeName& is_node);

class FailureMatcher {
 public:
  // The same failure as `reference` (a failure's message) up to normalisation.
  static FailureMatcher SameAs(std::string_view reference, const IsNodeName& is_node);
  // A failure whose message REGEX (ECMAScript) finds; a bad REGEX is an error.
  static Result<FailureMatcher> Matching(std::string_view regex);

  // `status` is the result of a try; `is_node` names the nodes of its graph.
  bool Matches(const Status& status, const IsNodeName& is_node) const;
  // "the same failure as ..." / "a failure matching /.../", for messages.
  std::string Describe() const;

 private:
  std::string normalized_;  // SameAs
  std::optional<std::regex> regex_;
  std::string pattern_;
};

}  // namespace airscope

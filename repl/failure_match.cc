#include "repl/failure_match.h"
#include "core/text.h"

#include <fmt/format.h>

namespace airscope {
namespace {

bool IsWordStart(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }

// Digit runs this long or longer are kept: ACL's error codes have six digits.
constexpr size_t kCodeDigits = 6;

}  // namespace

std::string NormalizeFailure(std::string_view message, const IsNodeName& is_node) {
  std::string out;
  out.reserve(message.size());
  size_t i = 0;
  while (i < message.size()) {
    char c = message[i];
    if (IsWordStart(c)) {
      size_t end = i;
      while (end < message.size() && IsWordChar(message[end])) ++end;
      std::string_view word = message.substr(i, end - i);
      out += is_node && is_node(word) ? std::string_view("<node>") : word;
      i = end;
    } else if (IsDigit(c)) {
      size_t end = i;
      while (end < message.size() && IsDigit(message[end])) ++end;
      // Digits glued to a following word (`3rd`, `2x`) are part of that word.
      while (end < message.size() && IsWordChar(message[end])) ++end;
      std::string_view run = message.substr(i, end - i);
      bool all_digits = run.find_first_not_of("0123456789") == std::string_view::npos;
      out += all_digits && run.size() < kCodeDigits ? std::string_view("N") : run;
      i = end;
    } else {
      out += c;
      ++i;
    }
  }
  return out;
}

FailureMatcher FailureMatcher::SameAs(std::string_view reference, const IsNodeName& is_node) {
  FailureMatcher m;
  m.normalized_ = NormalizeFailure(reference, is_node);
  return m;
}

Result<FailureMatcher> FailureMatcher::Matching(std::string_view regex) {
  FailureMatcher m;
  m.pattern_ = std::string(regex);
  try {
    m.regex_.emplace(m.pattern_, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    return Status::Errorf("--match: '{}' is not a regular expression: {}", regex, e.what());
  }
  return m;
}

bool FailureMatcher::Matches(const Status& status, const IsNodeName& is_node) const {
  if (status.ok()) return false;
  if (regex_) return std::regex_search(status.message(), *regex_);
  return NormalizeFailure(status.message(), is_node) == normalized_;
}

std::string FailureMatcher::Describe() const {
  if (regex_) return fmt::format("a failure matching /{}/", pattern_);
  return fmt::format("the same failure (normalised: {})", normalized_);
}

}  // namespace airscope

// Text: the small string helpers every layer shares, one copy each (they
// were local copies in eight files; issue 26 item 7).
//
// ASCII and byte by byte on purpose: no locale (std::isdigit and std::tolower
// depend on it, and a file must read the same everywhere), no UTF-8 decoding
// (a byte >= 0x80 is never a digit, a space or a word character here).
// Prefix and suffix tests are std::string_view's own starts_with/ends_with.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace airscope {

inline bool IsDigit(char c) { return c >= '0' && c <= '9'; }
// ASCII letters, digits and '_' (a word of the rewrite language, a protobuf
// field name, a call spec's input name, a slug).
inline bool IsWordChar(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || IsDigit(c) || c == '_'; }

// `s` without the leading / trailing / both characters that are in `chars`.
// Callers name the set (" ", " \t", " \t\r"): the formats differ in what
// counts as blank, and a shared default would quietly change one of them.
std::string_view TrimLeft(std::string_view s, std::string_view chars);
std::string_view TrimRight(std::string_view s, std::string_view chars);
std::string_view Trim(std::string_view s, std::string_view chars);

// How many decimal digits stand at s[pos...] (0 when none, or pos past the end).
size_t CountDigitsAt(std::string_view s, size_t pos);

// The value of a run of decimal digits (as CountDigitsAt measures it). Only
// the first 18 digits count, so the value always fits (a longer run is a
// malformed log, not a number to overflow on).
int64_t DigitsValue(std::string_view digits);

// A name usable as a file or key: ASCII letters lowered, each run of other
// characters one '_', none at either end ("After removing noop ops" ->
// "after_removing_noop_ops"; "" when nothing is left).
std::string Slug(std::string_view s);

// Appends `text` and a newline after `indent` spaces (the protobuf text writers' line).
void AppendIndentedLine(std::string& out, size_t indent, std::string_view text);

// A count as a table shows it: "-" for an unknown one (negative).
std::string CountOrDash(int64_t value);

// "1 graph", "2 graphs": `n` and the word for that count.
std::string Plural(size_t n, std::string_view one, std::string_view many);

// Hashes std::string and std::string_view alike, so a map keyed by strings
// is searched with a view into some text, without a copy per lookup:
// std::unordered_map<std::string, V, TextHash, std::equal_to<>>.
struct TextHash {
  using is_transparent = void;
  size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

// "a, b, c, d ... and 3 more": at most `shown` names of a list, then how many
// were left out, so a long listing (262 lifted parameters) stays one
// readable line.
std::string JoinAtMost(const std::vector<std::string>& names, size_t shown);

// `text` with every line after the first indented by `indent` spaces, so a
// multi-line message (a failure reason with its exception's line) stays
// under the line it is printed on.
std::string IndentLinesAfterFirst(std::string_view text, size_t indent);

}  // namespace airscope

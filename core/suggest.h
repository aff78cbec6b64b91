// Suggest: "did you mean X?" for a misspelt command, node or pass name.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace airscope {

// The edit distance of a and b counting insertions, deletions, substitutions
// and swaps of adjacent characters (optimal string alignment), as typos are.
size_t TypoDistance(std::string_view a, std::string_view b);

// The candidate closest to `word`, when it is close enough to be a typo of it
// (1 edit for words up to 4 characters, else 2); ties go to the first.
std::optional<std::string> ClosestName(std::string_view word, const std::vector<std::string>& candidates);

// " (did you mean X?)" or "".
std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace airscope

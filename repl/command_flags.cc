#include "repl/command_flags.h"

#include <fmt/format.h>

#include "core/suggest.h"

namespace airscope {

const FlagSpec* FindFlag(const std::vector<FlagSpec>& flags, std::string_view word) {
  for (const FlagSpec& f : flags) {
    if (f.name == word) return &f;
  }
  return nullptr;
}

Result<ParsedWords> ParseCommandFlags(std::string_view command, const std::vector<FlagSpec>& flags,
                                      const std::vector<Word>& words) {
  ParsedWords out;
  if (flags.empty()) {
    out.positional = words;
    return out;
  }
  for (size_t i = 0; i < words.size(); ++i) {
    const Word& w = words[i];
    if (w.quoted || !w.text.starts_with("--")) {
      out.positional.push_back(w);
      continue;
    }
    const FlagSpec* flag = FindFlag(flags, w.text);
    if (!flag) {
      std::vector<std::string> names;
      for (const FlagSpec& f : flags) names.push_back(f.name);
      return Status::Errorf("{} has no flag {}{} (its flags: {})", command, w.text, DidYouMean(w.text, names),
                            fmt::join(names, ", "));
    }
    if (out.flags.Has(flag->name)) return Status::Errorf("{}: {} given twice", command, flag->name);
    if (flag->value.empty()) {
      out.flags.Add(flag->name, Word{"", w.column, false});
      continue;
    }
    if (i + 1 >= words.size()) return Status::Errorf("{}: {} needs a value ({})", command, flag->name, flag->value);
    out.flags.Add(flag->name, words[++i]);
  }
  return out;
}

}  // namespace airscope

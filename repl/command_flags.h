// Command flags: the `--name [VALUE]` words a command takes, declared once in
// its CommandSpec. The interpreter takes them out of the words before the
// handler runs (handlers read ctx.flags and see only positional words in
// ctx.args), completion offers the undeclared-yet flags and their values, and
// a test checks every declared flag against the command's syntax line, so
// parsing, completion and help cannot drift apart.
//
// Commands that declare no flags get their words untouched: `capture` reads
// its per-task `--stream S` / `--end-stream` / `--mode M` itself, in order,
// because they belong to the task before them, not to the command.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"
#include "repl/tokenizer.h"

namespace airscope {

// What the next word of a command can be, for tab completion.
enum class CompletionKind : uint8_t {
  kNone,
  kFile,
  kNode,
  kGraph,
  kCommand,
  kSetting,
  kFixed,
  kPass,       // a registered pass or a pass of the current pipeline
  kStage,      // input, last, a stage number or pass name that ran
  kCallInput,  // NAME=SPEC of an input of the current graph not yet given
               // (after a spec: in, param, grad and `fixed`; after `in`: a buffer)
  kBuffer
};  // a device buffer or output handle (drop)
// Given the words typed so far after the command name, what the next one is.
struct CompletionRule {
  CompletionKind kind = CompletionKind::kNone;
  std::vector<std::string> fixed;  // kFixed: the choices
};

struct FlagSpec {
  std::string name;       // "--format"
  std::string value;      // the value's placeholder in the syntax line ("F"); "" for a switch
  CompletionRule values;  // what the value can be, for tab completion
};

// The flags one command line gave, in the order given.
class CommandFlags {
 public:
  bool Has(std::string_view name) const { return Word(name) != nullptr; }
  // The value given to `name`, or nullptr when it was not given (a switch's value is "").
  const std::string* Value(std::string_view name) const {
    const airscope::Word* w = Word(name);
    return w ? &w->text : nullptr;
  }
  // The same as the word typed, with its column (for errors about the value).
  const airscope::Word* Word(std::string_view name) const {
    for (const auto& [n, v] : given_) {
      if (n == name) return &v;
    }
    return nullptr;
  }
  const std::vector<std::pair<std::string, airscope::Word>>& given() const { return given_; }
  void Add(std::string name, airscope::Word value) { given_.emplace_back(std::move(name), std::move(value)); }

 private:
  std::vector<std::pair<std::string, airscope::Word>> given_;
};

struct ParsedWords {
  std::vector<Word> positional;
  CommandFlags flags;
};

// Splits a command's words by its declared flags. A declared flag takes the
// next word as its value unless it is a switch. Errors: an undeclared
// `--word` (with "did you mean" and the command's flags), a flag given twice,
// a value missing. A quoted word is never a flag (`find "--x"` searches for
// --x), and neither is a negative number. With no declared flags the words
// come back as they are.
Result<ParsedWords> ParseCommandFlags(std::string_view command, const std::vector<FlagSpec>& flags,
                                      const std::vector<Word>& words);

// The flag spec `word` names, or nullptr.
const FlagSpec* FindFlag(const std::vector<FlagSpec>& flags, std::string_view word);

}  // namespace airscope

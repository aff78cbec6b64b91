// The command table: one entry per command with its name, syntax, help,
// handler and completer. `help`, tab completion and dispatch all read this
// table, so a command exists in exactly one place.
//
// Dispatch accepts any unique prefix of a command name (`st` is ambiguous
// between `stats` and `step` and says so); an exact name always wins.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"
#include "repl/command_flags.h"
#include "repl/command_output.h"
#include "repl/tokenizer.h"

namespace airscope {

class Session;
class Interpreter;

struct CommandContext {
  Session& session;
  Interpreter& interpreter;
  const std::vector<Word>& args;  // the words after the command name, its declared flags taken out
  CommandOutput& out;
  const CommandFlags& flags;  // the declared flags given (repl/command_flags.h)
};

using CommandHandler = std::function<Status(CommandContext&)>;

using CommandCompleter = std::function<CompletionRule(const std::vector<std::string>& words_before)>;

struct CommandSpec {
  std::string name;
  std::string syntax;   // "load PATH [as NAME]"
  std::string summary;  // one line for `help` and the README
  std::string help;     // the full text for `help NAME`
  CommandHandler handler;
  CommandCompleter completer;        // may be empty: nothing to complete; sees the positional words only
  std::vector<FlagSpec> flags = {};  // its --flags: parsed and completed for it (repl/command_flags.h)
};

// The error a handler returns for wrong arguments: "usage: SYNTAX".
inline Status UsageError(std::string_view syntax) { return Status::Errorf("usage: {}", syntax); }

struct CommandAlias {
  std::string alias;    // "n"
  std::string command;  // "next"
};

class CommandTable {
 public:
  // A name registered twice is a programming error: it aborts with the name,
  // in every build type (one command would silently shadow the other).
  void Add(CommandSpec spec);
  // A fixed alias, as gdb's: it wins over prefix matching ("n" is next, not
  // ambiguous between next and node). `command` must be added already.
  void AddAlias(std::string alias, std::string command);
  // Exact name, else an alias, else a unique prefix; errors list the
  // candidates, or suggest the closest name for a misspelling.
  Result<const CommandSpec*> Lookup(std::string_view word) const;
  const std::vector<CommandSpec>& commands() const { return commands_; }
  const std::vector<CommandAlias>& aliases() const { return aliases_; }
  std::vector<std::string> NamesWithPrefix(std::string_view prefix) const;

 private:
  const CommandSpec* Find(std::string_view name) const;

  std::vector<CommandSpec> commands_;  // kept sorted by name
  std::vector<CommandAlias> aliases_;  // in the order added
};

// What the keys do at the interactive prompt (Enter, Ctrl-C, Ctrl-D): the
// closing lines of `help`, and the manual's.
std::string_view InteractiveKeysHelp();

// Every airscope command, registered by the command files.
CommandTable BuildCommandTable();
// Per-area registration, one function per commands_*.cc file (and runtime_call.cc);
// BuildCommandTable calls each once, and no other file declares one.
void RegisterGraphCommands(CommandTable& table);
void RegisterShellCommands(CommandTable& table);
void RegisterExpectCommand(CommandTable& table);
void RegisterDeviceCommands(CommandTable& table);
void RegisterCheckCommand(CommandTable& table);  // commands_check.cc
// `set device.PARAM VALUE` and `device set PARAM VALUE` (commands_device.cc).
Status SetDeviceParameter(Session& session, std::string_view name, std::string_view value);
// `set input NAME SHAPE`: the current graph with that input's shape (commands_graph.cc).
Status SetInputShape(CommandContext& ctx, const std::vector<std::string>& words);
void RegisterCacheCommands(CommandTable& table);
void RegisterPassCommands(CommandTable& table);  // pass define/add/remove/list, plugin load
// " (did you mean X?)" for a pass name that looks like a typo of a registered one, or "".
std::string PassSuggestion(const Session& session, std::string_view name);
void RegisterDecompCommands(CommandTable& table);
void RegisterOpCommands(CommandTable& table);  // op define/inplaceable/list (commands_op.cc)
void RegisterModuleCommands(CommandTable& table);
void RegisterPipelineCommands(CommandTable& table);
void RegisterPlanCommands(CommandTable& table);      // plan formula, plan capture (commands_plan.cc)
void RegisterPiecewiseCommand(CommandTable& table);  // piecewise (commands_piecewise.cc)
void RegisterNavigateCommands(CommandTable& table);  // focus, path, users, producers, repeats (commands_navigate.cc)
void RegisterAdviseCommands(CommandTable& table);    // advise, coverage (commands_advise.cc)
void RegisterMinifyCommand(CommandTable& table);     // minify (commands_minify.cc)
void RegisterSplitCommand(CommandTable& table);      // split (commands_split.cc)
void RegisterStreamCommand(CommandTable& table);     // stream limit (commands_stream.cc)
void RegisterReportCommands(CommandTable& table);
void RegisterTraceCommands(CommandTable& table);    // compiles, recompiles, guards (commands_trace.cc)
void RegisterCompareCommand(CommandTable& table);   // compare (commands_compare.cc)
void RegisterRuntimeCommands(CommandTable& table);  // drop (runtime_call.cc)

}  // namespace airscope

// airscope's own command line (not the shell's commands: those are
// repl/command_table.h). One table holds every option; the usage message,
// `airscope --help`, the manual page's SYNOPSIS, OPTIONS and EXIT STATUS
// (repl/manual_page.h), the bash completion (repl/bash_completion.h) and the
// parser main.cc runs are all written from it, so an option exists in exactly
// one place.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace airscope {

// What the word after an option (or a bare argument) is, for completion.
enum class OptionArgument : uint8_t {
  kNone,       // a switch: --version
  kScript,     // an .airscript file
  kDirectory,  // --report DIR
  kText,       // -c TEXT: shell commands, nothing to complete
};

enum class OptionId : uint8_t { kScript, kScriptThenShell, kCommands, kReport, kForce, kVersion, kHelp };

struct CommandLineOption {
  OptionId id;
  std::string_view flag;         // "--report"; "" for the bare FILE.airscript
  std::string_view short_flag;   // "-h" beside "--help"; usually ""
  std::string_view placeholder;  // "DIR", "FILE.airscript"; "" for a switch
  OptionArgument argument;
  std::string_view help;  // one line (the usage message's, the manual's)
};

// Every option, in the order the usage message lists them.
const std::vector<CommandLineOption>& CommandLineOptions();
// An option as the usage and the manual list it: "-x FILE.airscript", "-h, --help", "FILE.airscript".
std::string CommandLineOptionLabel(const CommandLineOption& option);

// The two forms of the command line, as the usage message's first lines
// ("airscope [--report DIR] [FILE.airscript | ...]") and the manual's SYNOPSIS.
const std::vector<std::string_view>& CommandLineSynopsis();

// What running with no arguments does (the usage message's and the manual's words).
std::string_view NoArgumentsHelp();

inline constexpr int kExitOk = 0;
inline constexpr int kExitCommandFailed = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInterrupted = 130;  // 128 + SIGINT, as shells report it

struct ExitStatusInfo {
  int code;
  std::string_view meaning;
};
const std::vector<ExitStatusInfo>& ExitStatuses();

// The usage message bad usage prints on standard error: the synopsis, one line
// per option, the exit statuses.
std::string UsageText();
// `airscope --help`: the usage message, then where the rest is (man airscope,
// `help` inside the shell).
std::string HelpText();

struct CommandLine {
  enum class Action : uint8_t { kRun, kHelp, kVersion } action = Action::kRun;
  std::string script;             // FILE.airscript or -x FILE.airscript; "" for none
  bool stay_interactive = false;  // -x: the shell after the script
  bool have_commands = false;     // -c given (its TEXT may be empty)
  std::string commands;           // -c TEXT
  std::string report_dir;         // --report DIR; "" for none
  bool report_force = false;      // --force: --report into a DIR that holds other files
};

// Reads argv[1..argc-1]. --help and --version win where they stand (the words
// after them are not read, as before). An error's message says what is wrong
// ("-c needs TEXT"); the caller prints it with the usage and exits kExitUsage.
Result<CommandLine> ParseCommandLine(int argc, const char* const* argv);

}  // namespace airscope

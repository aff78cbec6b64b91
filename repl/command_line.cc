#include "repl/command_line.h"

#include <algorithm>

#include <fmt/format.h>

namespace airscope {

const std::vector<CommandLineOption>& CommandLineOptions() {
  static const std::vector<CommandLineOption> kOptions = {
      {OptionId::kScript, "", "", "FILE.airscript", OptionArgument::kScript,
       "run a script, stop at the first failing line, exit 1 if one failed"},
      {OptionId::kScriptThenShell, "-x", "", "FILE.airscript", OptionArgument::kScript,
       "run a script, then stay interactive (in a terminal)"},
      {OptionId::kCommands, "-c", "", "TEXT", OptionArgument::kText, "run the commands in TEXT (separated by ';')"},
      {OptionId::kReport, "--report", "", "DIR", OptionArgument::kDirectory,
       "when the session ends, write it as HTML pages into DIR (as `report DIR` does)"},
      {OptionId::kForce, "--force", "", "", OptionArgument::kNone,
       "with --report: write into a DIR that holds other files, keeping them (as `report DIR --force` does)"},
      {OptionId::kVersion, "--version", "", "", OptionArgument::kNone, "print airscope's version and exit"},
      {OptionId::kHelp, "--help", "-h", "", OptionArgument::kNone, "print this help and exit"},
  };
  return kOptions;
}

const std::vector<std::string_view>& CommandLineSynopsis() {
  static const std::vector<std::string_view> kSynopsis = {
      "airscope [--report DIR [--force]] [FILE.airscript | -x FILE.airscript | -c 'COMMAND; COMMAND']",
      "airscope --help | --version",
  };
  return kSynopsis;
}

std::string_view NoArgumentsHelp() {
  return "the interactive shell (type help), or the commands on standard input when it is not a terminal";
}

const std::vector<ExitStatusInfo>& ExitStatuses() {
  static const std::vector<ExitStatusInfo> kStatuses = {
      {kExitOk, "ok"},
      {kExitCommandFailed, "a command failed"},
      {kExitUsage, "bad usage"},
      {kExitInterrupted, "interrupted (Ctrl-C)"},
  };
  return kStatuses;
}

std::string CommandLineOptionLabel(const CommandLineOption& option) {
  std::string label;
  if (!option.short_flag.empty()) label.append(option.short_flag).append(", ");
  label.append(option.flag);
  if (!option.flag.empty() && !option.placeholder.empty()) label += ' ';
  label.append(option.placeholder);
  return label;
}

std::string UsageText() {
  std::string text;
  for (size_t i = 0; i < CommandLineSynopsis().size(); ++i) {
    text += fmt::format("{}{}\n", i == 0 ? "usage: " : "       ", CommandLineSynopsis()[i]);
  }
  size_t width = std::string_view("no arguments").size();
  for (const CommandLineOption& option : CommandLineOptions())
    width = std::max(width, CommandLineOptionLabel(option).size());
  text += fmt::format("  {:<{}}  {}\n", "no arguments", width, NoArgumentsHelp());
  for (const CommandLineOption& option : CommandLineOptions()) {
    text += fmt::format("  {:<{}}  {}\n", CommandLineOptionLabel(option), width, option.help);
  }
  std::vector<std::string> statuses;
  for (const ExitStatusInfo& status : ExitStatuses())
    statuses.push_back(fmt::format("{} {}", status.code, status.meaning));
  text += fmt::format("  exit status: {}\n", fmt::join(statuses, ", "));
  return text;
}

std::string HelpText() {
  return UsageText() +
         "Inside the shell, `help` lists every command and `help COMMAND` explains one.\n"
         "The manual: man airscope (from a build tree: man -l BUILD/repl/airscope.1).\n";
}

Result<CommandLine> ParseCommandLine(int argc, const char* const* argv) {
  CommandLine line;
  auto find = [](std::string_view word) -> const CommandLineOption* {
    for (const CommandLineOption& option : CommandLineOptions()) {
      if (!option.flag.empty() && (word == option.flag || word == option.short_flag)) return &option;
    }
    return nullptr;
  };
  // A script, -x and -c each say what the session runs: only one of them.
  auto take_source = [&line]() -> Status {
    if (!line.script.empty() || line.have_commands) return Status::Error("give one of a script, -x or -c");
    return Status::Ok();
  };
  for (int i = 1; i < argc; ++i) {
    std::string_view word = argv[i];
    const CommandLineOption* option = find(word);
    if (!option) {
      if (!word.empty() && word[0] == '-') return Status::Errorf("unknown option {}", word);
      AIRSCOPE_RETURN_IF_ERROR(take_source());
      line.script = std::string(word);
      continue;
    }
    std::string_view argument;
    if (option->argument != OptionArgument::kNone) {
      if (i + 1 >= argc) return Status::Errorf("{} needs {}", word, option->placeholder);
      argument = argv[++i];
    }
    switch (option->id) {
      case OptionId::kHelp: line.action = CommandLine::Action::kHelp; return line;
      case OptionId::kVersion: line.action = CommandLine::Action::kVersion; return line;
      case OptionId::kReport: line.report_dir = std::string(argument); break;
      case OptionId::kForce: line.report_force = true; break;
      case OptionId::kCommands:
        AIRSCOPE_RETURN_IF_ERROR(take_source());
        line.commands = std::string(argument);
        line.have_commands = true;
        break;
      case OptionId::kScriptThenShell:
        AIRSCOPE_RETURN_IF_ERROR(take_source());
        line.script = std::string(argument);
        line.stay_interactive = true;
        break;
      case OptionId::kScript: break;  // no flag: a bare word, above
    }
  }
  if (line.report_force && line.report_dir.empty()) return Status::Error("--force goes with --report DIR");
  return line;
}

}  // namespace airscope

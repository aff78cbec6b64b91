// Unit tests for airscope's own command line (repl/command_line.h): the
// parser main.cc runs, and the usage and --help texts written from the same
// option table (so an option the parser takes is one the help lists).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "repl/command_line.h"

namespace airscope {
namespace {

Result<CommandLine> ParseArgs(const std::vector<std::string>& words) {
  std::vector<const char*> argv = {"airscope"};
  for (const std::string& word : words) argv.push_back(word.c_str());
  return ParseCommandLine(static_cast<int>(argv.size()), argv.data());
}

TEST(CommandLineTest, NoArgumentsIsTheShell) {
  Result<CommandLine> line = ParseArgs({});
  ASSERT_TRUE(line.ok()) << line.status().message();
  EXPECT_EQ(line->action, CommandLine::Action::kRun);
  EXPECT_EQ(line->script, "");
  EXPECT_FALSE(line->have_commands);
  EXPECT_FALSE(line->stay_interactive);
  EXPECT_EQ(line->report_dir, "");
}

TEST(CommandLineTest, ReadsEveryOption) {
  Result<CommandLine> script = ParseArgs({"--report", "out", "run.airscript"});
  ASSERT_TRUE(script.ok()) << script.status().message();
  EXPECT_EQ(script->script, "run.airscript");
  EXPECT_EQ(script->report_dir, "out");
  EXPECT_FALSE(script->report_force);
  EXPECT_FALSE(script->stay_interactive);

  // --force is --report's, as `report DIR --force` (the refusal names it).
  Result<CommandLine> forced = ParseArgs({"--report", "out", "--force", "run.airscript"});
  ASSERT_TRUE(forced.ok()) << forced.status().message();
  EXPECT_TRUE(forced->report_force);

  Result<CommandLine> then_shell = ParseArgs({"-x", "setup.airscript"});
  ASSERT_TRUE(then_shell.ok()) << then_shell.status().message();
  EXPECT_EQ(then_shell->script, "setup.airscript");
  EXPECT_TRUE(then_shell->stay_interactive);

  Result<CommandLine> commands = ParseArgs({"-c", "echo a; echo b", "--report", "r"});
  ASSERT_TRUE(commands.ok()) << commands.status().message();
  EXPECT_TRUE(commands->have_commands);
  EXPECT_EQ(commands->commands, "echo a; echo b");
  EXPECT_EQ(commands->report_dir, "r");
  EXPECT_EQ(commands->script, "");

  Result<CommandLine> empty_commands = ParseArgs({"-c", ""});  // runs nothing, still not the shell
  ASSERT_TRUE(empty_commands.ok());
  EXPECT_TRUE(empty_commands->have_commands);

  for (const char* help : {"--help", "-h"}) {
    Result<CommandLine> line = ParseArgs({help});
    ASSERT_TRUE(line.ok()) << help;
    EXPECT_EQ(line->action, CommandLine::Action::kHelp) << help;
  }
  Result<CommandLine> version = ParseArgs({"--version"});
  ASSERT_TRUE(version.ok());
  EXPECT_EQ(version->action, CommandLine::Action::kVersion);
}

TEST(CommandLineTest, HelpAndVersionWinWhereTheyStand) {
  // Words after them are not read, even wrong ones; words before them are.
  Result<CommandLine> after = ParseArgs({"--version", "--bogus"});
  ASSERT_TRUE(after.ok());
  EXPECT_EQ(after->action, CommandLine::Action::kVersion);
  Result<CommandLine> before = ParseArgs({"--bogus", "--help"});
  ASSERT_FALSE(before.ok());
  EXPECT_EQ(before.status().message(), "unknown option --bogus");
}

TEST(CommandLineTest, BadUsageSaysWhatIsWrong) {
  struct Case {
    std::vector<std::string> words;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {{"-c"}, "-c needs TEXT"},
           {{"-x"}, "-x needs FILE.airscript"},
           {{"a.airscript", "--report"}, "--report needs DIR"},
           {{"-q"}, "unknown option -q"},
           {{"--force", "a.airscript"}, "--force goes with --report DIR"},
           {{"-"}, "unknown option -"},
           {{"a.airscript", "b.airscript"}, "give one of a script, -x or -c"},
           {{"-c", "quit", "a.airscript"}, "give one of a script, -x or -c"},
           {{"a.airscript", "-x", "b.airscript"}, "give one of a script, -x or -c"},
           {{"-x", "a.airscript", "-c", "quit"}, "give one of a script, -x or -c"},
       }) {
    Result<CommandLine> line = ParseArgs(c.words);
    ASSERT_FALSE(line.ok()) << c.message;
    EXPECT_EQ(line.status().message(), c.message);
  }
}

TEST(CommandLineTest, UsageListsEveryOptionOfTheTableAndTheExitStatuses) {
  std::string usage = UsageText();
  EXPECT_EQ(
      usage.rfind(
          "usage: airscope [--report DIR [--force]] [FILE.airscript | -x FILE.airscript | -c 'COMMAND; COMMAND']\n"
          "       airscope --help | --version\n",
          0),
      0u)
      << usage;
  for (const CommandLineOption& option : CommandLineOptions()) {
    EXPECT_NE(usage.find(option.help), std::string::npos) << option.flag;
    if (!option.flag.empty()) {
      EXPECT_NE(usage.find(std::string(option.flag)), std::string::npos) << option.flag;
      // What the table says the option takes is what the parser asks for
      // (after --report DIR, which --force needs beside it).
      Result<CommandLine> without_argument = ParseArgs({"--report", "d", std::string(option.flag)});
      EXPECT_EQ(without_argument.ok(), option.argument == OptionArgument::kNone) << option.flag;
    }
  }
  EXPECT_NE(usage.find("  -h, --help "), std::string::npos) << usage;
  EXPECT_NE(usage.find("exit status: 0 ok, 1 a command failed, 2 bad usage, 130 interrupted (Ctrl-C)\n"),
            std::string::npos)
      << usage;
}

TEST(CommandLineTest, HelpIsTheUsageAndPointsToTheManualAndTheShellsHelp) {
  std::string help = HelpText();
  EXPECT_EQ(help.rfind(UsageText(), 0), 0u);
  EXPECT_NE(help.find("man airscope"), std::string::npos) << help;
  EXPECT_NE(help.find("`help`"), std::string::npos) << help;
}

}  // namespace
}  // namespace airscope

// Unit tests for command flags (repl/command_flags.h): parsing, its errors,
// completion of flags and their values, and every command's declared flags
// against its syntax line (so help, parsing and completion cannot drift).
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <set>

#include "repl/command_flags.h"
#include "repl/command_table.h"
#include "repl/completion.h"
#include "repl/graph_text.h"
#include "shell_test_util.h"

namespace airscope {
namespace {

std::vector<Word> Words(std::string_view line) {
  Result<std::vector<Word>> words = Tokenize(line);
  EXPECT_TRUE(words.ok()) << words.status().message();
  return words.ok() ? *words : std::vector<Word>{};
}

const std::vector<FlagSpec> kDiffFlags = {{"--format", "F", {}}, {"--stats", "", {}}};

TEST(CommandFlagsTest, TakesDeclaredFlagsOutOfThePositionalWords) {
  Result<ParsedWords> parsed = ParseCommandFlags("diff", kDiffFlags, Words("3 --stats 5 --format dot"));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ASSERT_EQ(parsed->positional.size(), 2u);
  EXPECT_EQ(parsed->positional[0].text, "3");
  EXPECT_EQ(parsed->positional[1].text, "5");
  EXPECT_TRUE(parsed->flags.Has("--stats"));
  EXPECT_EQ(*parsed->flags.Value("--stats"), "");
  ASSERT_NE(parsed->flags.Value("--format"), nullptr);
  EXPECT_EQ(*parsed->flags.Value("--format"), "dot");
  EXPECT_EQ(parsed->flags.Word("--format")->column, 22u);  // errors about the value point at it
  EXPECT_EQ(parsed->flags.Value("--missing"), nullptr);
}

TEST(CommandFlagsTest, RefusesUnknownRepeatedAndValuelessFlags) {
  Result<ParsedWords> typo = ParseCommandFlags("diff", kDiffFlags, Words("--stat"));
  ASSERT_FALSE(typo.ok());
  EXPECT_EQ(typo.status().message(), "diff has no flag --stat (did you mean --stats?) (its flags: --format, --stats)");
  Result<ParsedWords> twice = ParseCommandFlags("diff", kDiffFlags, Words("--stats --stats"));
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.status().message(), "diff: --stats given twice");
  Result<ParsedWords> valueless = ParseCommandFlags("diff", kDiffFlags, Words("3 --format"));
  ASSERT_FALSE(valueless.ok());
  EXPECT_EQ(valueless.status().message(), "diff: --format needs a value (F)");
}

TEST(CommandFlagsTest, QuotedWordsNegativeNumbersAndUndeclaringCommandsAreLeftAlone) {
  Result<ParsedWords> quoted = ParseCommandFlags("diff", kDiffFlags, Words("'--stats' -1"));
  ASSERT_TRUE(quoted.ok());
  EXPECT_FALSE(quoted->flags.Has("--stats"));
  ASSERT_EQ(quoted->positional.size(), 2u);
  EXPECT_EQ(quoted->positional[1].text, "-1");
  // capture reads its per-task --stream itself: no declared flags, words untouched.
  Result<ParsedWords> capture = ParseCommandFlags("capture", {}, Words("--stream s1 --mode relaxed"));
  ASSERT_TRUE(capture.ok());
  EXPECT_EQ(capture->positional.size(), 4u);
  EXPECT_TRUE(capture->flags.given().empty());
}

// Every `--flag` a syntax line shows is declared, and every declared flag is
// in the syntax line with its value's placeholder. capture's flags belong to
// its tasks and are read in order by the command itself.
TEST(CommandFlagsTest, EveryCommandsFlagsMatchItsSyntaxLine) {
  CommandTable table = BuildCommandTable();
  const std::regex flag_in_syntax(R"(--[a-z][a-z-]*)");
  size_t declared = 0;
  for (const CommandSpec& spec : table.commands()) {
    std::set<std::string> in_syntax;
    for (std::sregex_iterator it(spec.syntax.begin(), spec.syntax.end(), flag_in_syntax), end; it != end; ++it) {
      in_syntax.insert(it->str());
    }
    if (spec.name == "capture") {
      EXPECT_TRUE(spec.flags.empty());
      continue;
    }
    std::set<std::string> names;
    for (const FlagSpec& f : spec.flags) {
      names.insert(f.name);
      ++declared;
      std::string shown = f.value.empty() ? f.name : f.name + " " + f.value;
      EXPECT_NE(spec.syntax.find(shown), std::string::npos) << spec.name << ": syntax lacks " << shown;
    }
    EXPECT_EQ(in_syntax, names) << spec.name;
  }
  EXPECT_GE(declared, 14u);
}

TEST(CommandFlagsTest, TheInterpreterRefusesAnUndeclaredFlagBeforeTheCommandRuns) {
  testing_shell::TestShell shell;
  Status status = shell.interpreter.ExecuteLine("mem --graphs");
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.message(),
            "mem has no flag --graphs (did you mean --graph?) (its flags: --graph); usage: mem [--graph]");
}

TEST(CommandFlagsTest, CompletionOffersFlagsNotGivenAndTheirValues) {
  testing_shell::TestShell shell;
  EXPECT_EQ(
      Complete(shell.table, shell.session, "show --").candidates,
      (std::vector<std::string>{"--all", "--around", "--by", "--fold", "--format", "--hops", "--inputs", "--stage"}));
  EXPECT_EQ(Complete(shell.table, shell.session, "show --format fx --").candidates,
            (std::vector<std::string>{"--all", "--around", "--by", "--fold", "--hops", "--inputs", "--stage"}));
  std::vector<std::string> text_formats = GraphFormatNames(true);
  std::sort(text_formats.begin(), text_formats.end());
  EXPECT_EQ(Complete(shell.table, shell.session, "show --format ").candidates, text_formats);
  EXPECT_TRUE(Complete(shell.table, shell.session, "timeline --json ").files);
  // The command's own completer sees positional words only: after `--stats`, diff still completes stages.
  EXPECT_EQ(Complete(shell.table, shell.session, "diff --stats l").candidates, (std::vector<std::string>{"last"}));
  EXPECT_EQ(Complete(shell.table, shell.session, "eager -").candidates, (std::vector<std::string>{"--no-sync"}));
}

using CommandTableDeathTest = ::testing::Test;

TEST(CommandTableDeathTest, ANameRegisteredTwiceAbortsInEveryBuild) {
  EXPECT_DEATH(
      {
        CommandTable table;
        table.Add({"stats", "stats", "", "", nullptr, nullptr});
        table.Add({"stats", "stats", "", "", nullptr, nullptr});
      },
      "the command 'stats' is registered twice");
}

}  // namespace
}  // namespace airscope

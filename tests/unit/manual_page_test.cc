// Unit tests for airscope(1) (repl/manual_page.h, repl/roff.h) and the bash
// completion (repl/bash_completion.h): both are written from the tables the
// shell reads, so every command, setting, device parameter, pass of the
// default pipeline, input format, option and exit status must be in the page,
// and every option in the completion. groff reads the built page in
// tests/install/check_man.sh.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "core/device/device_spec.h"
#include "formats/registry.h"
#include "repl/bash_completion.h"
#include "repl/command_line.h"
#include "repl/command_table.h"
#include "repl/manual_page.h"
#include "repl/roff.h"
#include "repl/settings.h"

namespace airscope {
namespace {

class ManualPageTest : public ::testing::Test {
 protected:
  CommandTable table_ = BuildCommandTable();
  Settings settings_;
  PassRegistry passes_ = PassRegistry::WithBuiltins();
  std::string page_ = ManualPage(table_, settings_, passes_, "9.8.7");

  bool Has(std::string_view text) const { return page_.find(text) != std::string::npos; }
  // A tagged paragraph whose tag line is `tag`.
  bool HasEntry(std::string_view tag) const { return Has(".TP\n" + std::string(tag) + "\n"); }
};

TEST_F(ManualPageTest, HasTheSectionsOfAManualPage) {
  EXPECT_EQ(page_.rfind(".\\\"", 0), 0u);  // a comment first: generated, from what
  EXPECT_TRUE(Has("\n.TH AIRSCOPE 1 \"\" \"airscope 9.8.7\" \"User Commands\"\n"));
  size_t last = 0;
  for (std::string_view section : {"NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "SETTINGS", "PASSES",
                                   "INPUT FORMATS", "EXIT STATUS", "ENVIRONMENT", "FILES", "EXAMPLES", "SEE ALSO"}) {
    size_t at = page_.find(".SH " + std::string(section) + "\n");
    ASSERT_NE(at, std::string::npos) << section;
    EXPECT_GT(at, last) << section << " out of order";
    last = at;
  }
}

TEST_F(ManualPageTest, ListsEveryCommandWithItsSyntaxAndHelp) {
  ASSERT_GT(table_.commands().size(), 40u);
  for (const CommandSpec& spec : table_.commands()) {
    EXPECT_TRUE(HasEntry(RoffSyntax(spec.syntax))) << spec.name;
    EXPECT_TRUE(Has(RoffHelp(spec.help))) << spec.name;
  }
  for (const CommandAlias& alias : table_.aliases()) {
    EXPECT_TRUE(Has(fmt::format("\\fB{}\\fR is \\fB{}\\fR", alias.alias, alias.command))) << alias.alias;
  }
  EXPECT_TRUE(Has(RoffHelp(InteractiveKeysHelp())));
}

TEST_F(ManualPageTest, ListsEverySettingDeviceParameterPassAndInputFormat) {
  for (const SettingSpec& spec : settings_.specs()) {
    EXPECT_TRUE(Has(".TP\n\\fB" + RoffEscape(spec.name) + "\\fR (default ")) << spec.name;
  }
  EXPECT_TRUE(HasEntry("\\fBon\\-error\\fR (default \\fBstop\\fR)"));
  EXPECT_TRUE(HasEntry("\\fBdump.dir\\fR (default empty)"));
  EXPECT_TRUE(Has("One of: stop, continue."));
  for (const DeviceParamInfo& param : DeviceParams()) {
    EXPECT_TRUE(Has(".TP\n\\fBdevice." + RoffEscape(param.name) + "\\fR (")) << param.name;
  }
  for (const std::string& pass : DefaultPipeline()) EXPECT_TRUE(HasEntry("\\fB" + RoffEscape(pass) + "\\fR")) << pass;
  for (const InputFormat& row : InputFormats()) {
    EXPECT_TRUE(HasEntry("\\fB" + RoffEscape(row.name) + "\\fR")) << row.name;
    EXPECT_TRUE(Has(RoffEscape(row.description))) << row.name;
  }
}

TEST_F(ManualPageTest, ListsTheCommandLineExitStatusEnvironmentAndFiles) {
  for (std::string_view synopsis : CommandLineSynopsis()) EXPECT_TRUE(Has(RoffSyntax(synopsis) + "\n")) << synopsis;
  for (const CommandLineOption& option : CommandLineOptions()) {
    EXPECT_TRUE(Has(RoffHelp(option.help))) << option.flag;
  }
  EXPECT_TRUE(HasEntry("\\fB\\-c \\fITEXT\\fR"));
  EXPECT_TRUE(HasEntry("\\fB\\-h\\fR, \\fB\\-\\-help\\fR"));
  for (const ExitStatusInfo& status : ExitStatuses()) {
    EXPECT_TRUE(HasEntry("\\fB" + std::to_string(status.code) + "\\fR")) << status.code;
  }
  for (std::string_view name : {"NO_COLOR", "AIRSCOPE_HISTORY", "GLIBC_TUNABLES", "~/.airscope_history"}) {
    EXPECT_TRUE(HasEntry("\\fB" + RoffEscape(name) + "\\fR")) << name;
  }
  EXPECT_TRUE(Has("keeps the last 2000 lines"));
}

TEST(RoffTest, EscapesWhatRoffWouldRead) {
  EXPECT_EQ(RoffEscape("a-b \\n --x"), "a\\-b \\en \\-\\-x");
  EXPECT_EQ(RoffEscape("TORCHAIR.md \xC2\xA7"
                       "6 \xE2\x86\x92 x"),
            "TORCHAIR.md \\[u00A7]6 \\[u2192] x");
  // A line starting with a control character is guarded; elsewhere a dot is text.
  EXPECT_EQ(RoffHelp(".so file\n'quoted'"), "\\&.so file\n\\&'quoted'\n");
  EXPECT_EQ(RoffHelp("a.b"), "a.b\n");
}

TEST(RoffTest, SyntaxIsBoldLiteralsAndItalicPlaceholders) {
  EXPECT_EQ(RoffSyntax("load PATH [as NAME] [--shapes NAME=SHAPE,...]"),
            "\\fBload \\fIPATH \\fR[\\fBas \\fINAME\\fR] [\\fB\\-\\-shapes \\fINAME\\fB=\\fISHAPE\\fR,...]");
  EXPECT_EQ(RoffSyntax("plugin load PATH.so"), "\\fBplugin load \\fIPATH\\fB.so\\fR");
  EXPECT_EQ(RoffSyntax("bisect \"COMMAND\""), "\\fBbisect \\fR\"\\fICOMMAND\\fR\"");
}

TEST(RoffTest, HelpFillsProseAndKeepsWhatIsLaidOutByHand) {
  EXPECT_EQ(RoffHelp("Loads a graph\nand makes it current.\n\nA `file` that fails\nchanges nothing."),
            "Loads a graph\nand makes it current.\n.IP\nA \\fBfile\\fR that fails\nchanges nothing.\n");
  EXPECT_EQ(RoffHelp("One.\n\nTwo.", RoffPlace::kSection), "One.\n.PP\nTwo.\n");
  EXPECT_EQ(RoffHelp("Forms:\n  expect nodes 6    the count\n  expect lint\nThen prose."),
            "Forms:\n.nf\n  expect nodes 6    the count\n  expect lint\n.fi\nThen prose.\n");
  EXPECT_EQ(RoffHelp("pass define NAME        start a pass\n                        up to 'end'"),
            ".nf\npass define NAME        start a pass\n                        up to 'end'\n.fi\n");
  // Examples side by side in a sentence are prose.
  EXPECT_EQ(RoffHelp("a glob. Example: find aten.mm   find 'view*'"), "a glob. Example: find aten.mm   find 'view*'\n");
  // A span left open ends with its paragraph.
  EXPECT_EQ(RoffHelp("an `open\nspan\n\nnext"), "an \\fBopen\nspan\\fR\n.IP\nnext\n");
}

TEST(RoffTest, BulletsAreIndentedParagraphs) {
  EXPECT_EQ(RoffHelp("Logs:\n- a log: one\n  two\n- a tree\nAfter."),
            "Logs:\n.RS\n.IP \\(bu 2\na log: one\ntwo\n.IP \\(bu 2\na tree\n.RE\n.IP\nAfter.\n");
}

// The words of `lines` (one roff line each, without its .nf/.fi), in order.
std::vector<std::string> SplitWords(const std::vector<std::string>& lines) {
  std::vector<std::string> words;
  for (const std::string& line : lines) {
    std::istringstream in(line);
    for (std::string word; in >> word;) words.push_back(word);
  }
  return words;
}

std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> lines;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(RoffTest, RowsWrappedByHandAreWrappedAgainInTheirColumn) {
  const std::string row =
      "  graph key  from the graph's unupdated_sym_input_index: no_updated_input when no input has a symbol,\n"
      "             so ONE capture serves every call; a list of SymInt values when every entry is a SymInt\n"
      "  capture    a new key is captured";
  std::vector<std::string> out = Lines(RoffHelp(row));
  ASSERT_GE(out.size(), 5u);
  EXPECT_EQ(out.front(), ".nf");
  EXPECT_EQ(out.back(), ".fi");
  out = std::vector<std::string>(out.begin() + 1, out.end() - 1);
  EXPECT_EQ(out.front().rfind("  graph key  from ", 0), 0u) << out.front();
  EXPECT_EQ(out.back(), "  capture    a new key is captured");
  for (size_t i = 0; i < out.size(); ++i) {
    EXPECT_LE(out[i].size(), kRoffLaidOutWidth) << out[i];
    if (i > 0 && i + 1 < out.size()) {
      EXPECT_EQ(out[i].find_first_not_of(' '), 13u) << out[i];  // the text column
    }
  }
  EXPECT_EQ(SplitWords(out), SplitWords(Lines(row)));  // nothing lost, nothing reordered
}

TEST(RoffTest, CodeLinesAreNeverBroken) {
  const std::string code =
      "  pass define multistream\n"
      "    on aten.mm.default: insert before air.scope_enter.default(['_user_stream_label'], ['stream_1'])\n"
      "    on aten.abs.default: insert after air.record.default() as rec\n"
      "  end";
  EXPECT_EQ(RoffHelp(code), ".nf\n" + code + "\n.fi\n");
}

TEST(RoffTest, LongPathsInProseMayBreakAfterASlash) {
  EXPECT_EQ(RoffHelp("see https://example.com/document/detail/runtimeapi/aclcppdevg_03_1345.html now"),
            "see https:/\\:/\\:example.com/\\:document/\\:detail/\\:runtimeapi/\\:aclcppdevg_03_1345.html now\n");
  EXPECT_EQ(RoffHelp("short a/b/c path"), "short a/b/c path\n");
}

TEST(BashCompletionTest, OffersEveryOptionOfTheTable) {
  std::string script = BashCompletionScript();
  EXPECT_NE(script.find("complete -F _airscope airscope\n"), std::string::npos);
  // The words of `compgen -W '...'`, one a line.
  size_t from = script.find("compgen -W '");
  ASSERT_NE(from, std::string::npos);
  from += 12;
  std::string words = "\n" + script.substr(from, script.find('\'', from) - from) + "\n";
  for (const CommandLineOption& option : CommandLineOptions()) {
    for (std::string_view flag : {option.flag, option.short_flag}) {
      if (flag.empty()) continue;
      // (appended, not "\n" + ...: GCC 12 at -O3 reports a false -Wrestrict there, GCC bug 105329)
      std::string line(1, '\n');
      line.append(flag).append(1, '\n');
      EXPECT_NE(words.find(line), std::string::npos) << flag;
    }
    if (option.argument != OptionArgument::kNone && !option.flag.empty()) {
      EXPECT_NE(script.find("    " + std::string(option.flag) + ") "), std::string::npos) << option.flag;
    }
  }
}

}  // namespace
}  // namespace airscope

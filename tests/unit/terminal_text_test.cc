// TerminalSafe and CommandOutput::Render: strings from graph files reach the
// terminal as Python's repr() would show them, never as escape sequences,
// and a huge name is cut (issue 12, item 8).
#include "repl/terminal_text.h"

#include <gtest/gtest.h>

#include "repl/command_output.h"

namespace airscope {
namespace {

TEST(TerminalSafeTest, EscapesControlsKeepsPrintableUtf8) {
  EXPECT_EQ(TerminalSafe("plain text\twith tab"), "plain text\twith tab");
  EXPECT_EQ(TerminalSafe("clear\x1b[2Jscreen"), "clear\\x1b[2Jscreen");
  EXPECT_EQ(TerminalSafe("clip\x1b]52;c;aGk=\x07"), "clip\\x1b]52;c;aGk=\\x07");
  EXPECT_EQ(TerminalSafe("cr\rdel\x7f"), "cr\\x0ddel\\x7f");
  EXPECT_EQ(TerminalSafe("caf\xc3\xa9 \xe5\x9b\xbe \xf0\x9f\x94\xa5"), "caf\xc3\xa9 \xe5\x9b\xbe \xf0\x9f\x94\xa5");
  EXPECT_EQ(TerminalSafe("csi\xc2\x9b"
                         "2J"),
            "csi\\x9b2J");  // U+009B, the one-byte CSI
  EXPECT_EQ(TerminalSafe("raw\x9b"
                         "2J"),
            "raw\\x9b2J");  // not UTF-8 at all
  EXPECT_EQ(TerminalSafe("overlong\xc0\xaf"), "overlong\\xc0\\xaf");
  EXPECT_EQ(TerminalSafe("surrogate\xed\xa0\x80"), "surrogate\\xed\\xa0\\x80");
  EXPECT_EQ(TerminalSafe("cut\xe5\x9b"), "cut\\xe5\\x9b");
}

TEST(TerminalSafeTest, CutsAHugeLineSayingHowMuchIsLeft) {
  std::string name(10 << 20, 'n');
  std::string shown = TerminalSafe(name);
  EXPECT_LT(shown.size(), kMaxTerminalLine + 64);
  EXPECT_NE(shown.find(fmt::format("... ({} more bytes not shown)", name.size() - kMaxTerminalLine)),
            std::string::npos);
}

TEST(TerminalSafeTest, RenderEscapesEveryLineButData) {
  CommandOutput out;
  out.Print("node {}", "evil\x1b[2J");
  out.Styled(Style::kBad, "bad {}", "\x1b]52;c;x\x07");
  out.AddBlock("{\"raw\": 1}\n", Style::kData);  // bytes, printed exactly (no newline added)
  EXPECT_EQ(out.Render(false), "node evil\\x1b[2J\nbad \\x1b]52;c;x\\x07\n{\"raw\": 1}\n");
  EXPECT_EQ(out.Render(true), "node evil\\x1b[2J\n\033[31mbad \\x1b]52;c;x\\x07\033[0m\n{\"raw\": 1}\n");
  EXPECT_EQ(out.Text(), "node evil\x1b[2J\nbad \x1b]52;c;x\x07\n{\"raw\": 1}\n");  // what expect output reads
}

}  // namespace
}  // namespace airscope

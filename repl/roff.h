// Text for the man macros (groff -man): how airscope(1) (repl/manual_page.h)
// turns the shell's own strings (command syntax lines, help texts written for
// a 110-column terminal) into a page that reads at 80 columns and that groff
// reads without a warning.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace airscope {

// Text as roff reads it: `\` and `-` escaped (`-` as `\-`, so `--flag` copies
// as typed), characters past ASCII as \[uXXXX]. `text` is one line.
std::string RoffEscape(std::string_view text);

// A syntax line ("load PATH [as NAME]") in the manual's convention: literal
// words bold, UPPERCASE placeholders italic, brackets, bars and quotes roman.
std::string RoffSyntax(std::string_view syntax);

// Where a help text goes: directly under a section heading (paragraphs are
// .PP), or in the indented body of a .TP entry (paragraphs are .IP).
enum class RoffPlace : uint8_t { kSection, kIndented };

// The width laid-out lines are wrapped to: 80 columns less man's margins and a
// .TP entry's indent (7 + 7) and a column to spare.
inline constexpr size_t kRoffLaidOutWidth = 64;

// A help text as roff paragraphs, the shapes `help` texts take:
// - prose lines are filled; a blank line starts a paragraph; `quoted` spans
//   are bold (a span ends with its paragraph);
// - a line starting "- " is a bullet, its lines indented two more its text;
// - a line laid out by hand (indented, or aligning columns with three or more
//   spaces) stays as it is (.nf), except that a table row ("key  text") and a
//   line wrapped by hand onto a hanging indent are wrapped again at
//   kRoffLaidOutWidth, keeping their columns; any other line laid out by hand
//   (code, a rule of the rewrite language) is never broken, even when wider.
// A line that would start with `.` or `'` is guarded; long words (paths, URLs)
// may break after a `/`.
std::string RoffHelp(std::string_view text, RoffPlace place = RoffPlace::kIndented);

}  // namespace airscope

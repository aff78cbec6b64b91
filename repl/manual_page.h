// airscope(1), the manual page, written from the tables the shell itself
// reads: the command line (repl/command_line.h), the command table (`help`),
// the settings (`set`), the device parameters (`device`), the pass registry
// (`help pass`) and the registry of input formats (`load`). So `help` and
// `man airscope` cannot drift: the build runs airscope_docgen
// (repl/docgen_main.cc) to write the page from the same code.
//
// The page is roff for the man macros (groff -man; repl/roff.h turns the
// help texts into it), deterministic (no date, no paths of the build), and
// clean under `groff -ww` (tests/install/check_man.sh).
#pragma once

#include <string>
#include <string_view>

#include "core/pass/pass.h"
#include "repl/command_table.h"
#include "repl/settings.h"

namespace airscope {

std::string ManualPage(const CommandTable& commands, const Settings& settings, const PassRegistry& passes,
                       std::string_view version);

}  // namespace airscope

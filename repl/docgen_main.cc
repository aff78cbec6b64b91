// airscope_docgen: writes the files the build installs beside airscope from
// the tables the shell itself reads, so they cannot drift from `help`:
//
//   airscope_docgen man FILE               airscope(1) (repl/manual_page.h)
//   airscope_docgen bash-completion FILE   the bash completion (repl/bash_completion.h)
//
// FILE is written whole or not at all (a temporary file renamed into place),
// so an interrupted build never leaves half a page. Exit status 0, or 1 with
// a message on standard error.
#include <cstdio>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "core/file_util.h"
#include "core/pass/pass.h"
#include "repl/bash_completion.h"
#include "repl/command_table.h"
#include "repl/manual_page.h"
#include "repl/settings.h"

#ifndef AIRSCOPE_VERSION
#define AIRSCOPE_VERSION "unknown"
#endif

int main(int argc, char** argv) {
  using namespace airscope;
  if (argc != 3) {
    fmt::print(stderr, "usage: airscope_docgen man|bash-completion FILE\n");
    return 1;
  }
  std::string_view what = argv[1];
  std::string text;
  if (what == "man") {
    text = ManualPage(BuildCommandTable(), Settings(), PassRegistry::WithBuiltins(), AIRSCOPE_VERSION);
  } else if (what == "bash-completion") {
    text = BashCompletionScript();
  } else {
    fmt::print(stderr, "airscope_docgen: unknown output '{}' (man, bash-completion)\n", what);
    return 1;
  }
  Status written = WriteFile(argv[2], text);
  if (!written.ok()) {
    fmt::print(stderr, "airscope_docgen: {}\n", written.message());
    return 1;
  }
  return 0;
}

// The bash completion of airscope's own command line, written from
// repl/command_line.h's option table (the table --help and the manual read):
// its flags after `-`, .airscript files (and directories to reach them) for a
// script or -x, directories for --report, nothing for -c's TEXT. The build
// writes it with airscope_docgen (repl/docgen_main.cc); `cmake --install`
// puts it in share/bash-completion/completions/airscope, where
// bash-completion loads it the first time airscope's arguments are completed.
//
// The script needs nothing of bash-completion's own functions, so
// `source FILE` in a plain bash works too.
#pragma once

#include <string>

namespace airscope {

std::string BashCompletionScript();

}  // namespace airscope

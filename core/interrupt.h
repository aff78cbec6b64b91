// Interrupt: the user's request (Ctrl-C) that the running command stop.
//
// A signal reaches the whole process, so the request is one process-wide
// counter, the only mutable global in airscope: a signal handler has no other
// way to reach the code it interrupts. The shell's SIGINT handler raises it
// (RequestInterrupt is async-signal-safe); long loops in core and viz poll it
// at points where stopping leaves nothing half done (between input lines,
// between passes, between simulated iterations) and return
// InterruptedStatus(), which unwinds like any other error, so the command's
// state rules apply: a failing command leaves the session as it was. The
// shell clears it before each command.
#pragma once

#include "core/status.h"

namespace airscope {

// Async-signal-safe. Returns how many requests are pending, this one included
// (the shell gives up on a command that ignores several).
int RequestInterrupt();
void ClearInterrupt();
bool InterruptRequested();   // one relaxed atomic load: cheap enough for any loop
Status InterruptedStatus();  // "interrupted (Ctrl-C)"

}  // namespace airscope

// RunInChildProcess: runs a computation that cannot be interrupted or trusted
// with the session (a graphviz layout of a big graph takes minutes, polls
// nothing and may abort on memory) in a forked child, and hands back the
// bytes it produced.
//
// The parent waits, polling core/interrupt.h: a Ctrl-C kills the child and
// returns InterruptedStatus(). A child that dies (abort, SIGSEGV, OOM kill)
// becomes an error naming the signal, not the end of the session. The child
// sees a copy of the parent's memory at the fork, so `work` may read any of
// it; nothing it changes comes back. The child leaves by _exit, running no
// destructors or atexit handlers of the parent's, and is killed if the parent
// dies first.
//
// Call these only while no other thread of the process runs: the child has
// only the forking thread, and a lock another one held at the fork (the
// allocator's, under the sanitizers) stays held in the child for ever.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace airscope {

// `what` names the work in errors ("graphviz layout").
Result<std::string> RunInChildProcess(std::string_view what, const std::function<Result<std::string>()>& work);

// Several such computations, at most `jobs` children at a time (all forked
// from the calling thread), each result in the order of `works`. A Ctrl-C
// kills every running child and fails the works not yet finished.
struct ChildWork {
  std::string what;
  std::function<Result<std::string>()> work;
};
std::vector<Result<std::string>> RunInChildProcesses(const std::vector<ChildWork>& works, size_t jobs);

// The same for many small works: up to `batch` of them run one after another
// in one child, since a child of its own each spent most of its time starting
// (a graphviz layout's child loads the plugins and fontconfig's cache: about
// 20 ms, against a few ms for a ten-node layout; 1,000 drawings took 20 s).
// Each work's result comes back apart, an error too; a batch whose child dies
// is run again one work to a child, so one crashing work fails only itself.
std::vector<Result<std::string>> RunInChildProcessBatches(const std::vector<ChildWork>& works, size_t jobs,
                                                          size_t batch);

}  // namespace airscope

// Compiling a graph the way TorchAir's backend does for reduce-overhead
// mode: the session's whole pipeline (its pass list, custom_pre/post user
// passes and decomposition table) on a copy, from the first pass to `lower`.
// Used where something needs "the compiled graph" without stepping it by
// hand: a `call` that misses the cache, and the device commands when the
// graph has not been stepped to the end.
#pragma once

#include <memory>
#include <string>

#include "core/ir/graph.h"
#include "core/status.h"
#include "repl/session.h"

namespace airscope {

struct Compiled {
  std::shared_ptr<const Graph> graph;  // the lowered graph
  size_t passes_run = 0;
  size_t passes_changed = 0;
  // Which graph this is, for the user: "stage 20 of its pipeline", ...
  std::string source;
};

// Errors name the failing pass ("compile: pass 'validate_scopes' failed: ...").
Result<Compiled> CompileThroughPipeline(std::shared_ptr<const Graph> graph, const Session& session);

// The lowered graph of the current graph: its pipeline's last stage when it
// has been run to the end; the loaded graph itself when it is already
// lowered (IsLowered); else a fresh compile of the loaded graph. A pipeline
// stopped half way is an error saying how to finish it.
Result<Compiled> LoweredCurrentGraph(Session& session);

// The graph LoweredCurrentGraph would return for `entry` when it needs no
// compile (the pipeline's last stage once it has run to its end; the loaded
// graph when it is already lowered and no pass has run), else null.
std::shared_ptr<const Graph> LoweredWithoutCompiling(const Session::Entry& entry);

// A graph that already went through TorchAir's stream passes (a dump taken
// after them, or one written by hand to show a device behaviour): it carries
// tagged events from event_closure or nodes assigned to a user stream.
// Compiling it again would add a second event closure, so it runs as it is.
bool IsLowered(const Graph& graph);

}  // namespace airscope

// CacheState: what the compile-cache commands keep per loaded graph (one
// Session::Entry member). A graph loaded from a file gets a Frame on its
// first `call`/`mark_dynamic`/`gears`; a graph registered from a TORCH_TRACE
// log or TORCH_LOGS text shares the parsed log with the other graphs of that
// log, so `compiles`, `guards ID` and `recompiles` work from any of them.
#pragma once

#include <map>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/dynamo/compile_cache.h"
#include "core/runtime/acl_graph.h"
#include "core/ops/op_registry.h"
#include "repl/command_table.h"
#include "repl/log_bundle.h"
#include "repl/session.h"
#include "formats/torch_logs.h"
#include "formats/torch_trace.h"

namespace airscope {

struct CacheState {
  std::unique_ptr<Frame> frame;
  std::shared_ptr<const TraceLog> trace;
  std::shared_ptr<const TorchLogs> logs;
  // Everything the `load` that registered this graph brought (its logs, a
  // TORCH_COMPILE_DEBUG tree, recorded TorchAir stages): `compiles`, `compare`.
  std::shared_ptr<const LogBundle> bundle;
  std::optional<CallOutcome::Kind> last_call;  // for `expect hit|miss`
  // Each recompile of this frame and the guard failures that caused it, for `recompiles`.
  struct Recompile {
    std::string compile_id;
    std::vector<std::string> failures;  // newest entry first, as Dynamo lists them
  };
  std::vector<Recompile> recompiles;
  // Every call that reached the cache, in order, for the report's call list
  // (the newest kCallLogLimit): "hit", "compiled" or "eager" and the entry.
  struct CallRecord {
    uint64_t number = 0;     // the frame's call count after it
    std::string spec;        // the call's words as typed
    std::string outcome;     // hit | compiled | eager
    std::string compile_id;  // the entry it hit or made ("" for eager)
    // Reduce-overhead mode: what TorchAir's AclGraph did with it (replay,
    // capture, recapture, eager, failed; "" when no AclGraph ran), the graph key and
    // the simulated end-to-end time of the run (`coverage`).
    std::string runtime;
    std::string key;
    int64_t wall_ns = 0;
    bool time_lower_bound = false;  // kernels without a cost model were timed at the minimum
  };
  static constexpr size_t kCallLogLimit = 10000;
  std::deque<CallRecord> calls;
  // Per cache entry (by index): its number N of TorchAir's graph_<N>, given
  // when it compiles, and in reduce-overhead mode its AclGraph (made on the
  // entry's first call in that mode).
  struct EntryRuntime {
    int fx_graph = 0;
    std::unique_ptr<AclGraph> graph;
  };
  std::vector<EntryRuntime> runtimes;
  // The mark_dynamic and gears lines given for this frame, in order (`advise` replays them).
  std::vector<std::string> setup;
  // The buffer each input was last passed in (a call without `in` reuses it).
  std::map<std::string, std::string> last_buffer;
};

// The current graph's cache state, created when missing.
Result<CacheState*> CurrentCacheState(Session& session);
// The current graph's cache state or nullptr (nothing created).
const CacheState* FindCacheState(const Session& session);

// Releases the captured graphs and mempools of `state`'s AclGraphs (the
// graph is replaced or dropped).
void ReleaseRuntimes(CacheState& state, DeviceState& device);

// What a replay in a fresh cache keeps of `cache` (minify's tries, advise's
// replays): the logs the graph was loaded with, which are what it is, not
// the calls' state; null when it has none.
std::shared_ptr<CacheState> OnlyTheLogs(const CacheState* cache);

}  // namespace airscope

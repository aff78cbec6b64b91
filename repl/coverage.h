// The coverage ledger: how much of a frame's calls actually ran as a
// captured graph. Per cache entry (compile id) and TorchAir graph key, how
// many calls replayed a capture, captured, recaptured or ran eager (and
// why), with the share of the simulated time each took; read from the
// calls the session made (CacheState::calls, which RunAclGraphCall marks
// with what the AclGraph did) and checked against the AclGraph counters.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "formats/torch_logs.h"

namespace airscope {

struct CacheState;

struct CoverageRow {
  std::string compile_id;  // "" for calls Dynamo ran eager (recompile limit)
  std::string key;         // TorchAir's graph key; "" when no AclGraph ran
  size_t calls = 0;
  size_t replayed = 0;        // a captured graph found and replayed
  size_t captured = 0;        // first captures
  size_t recaptured = 0;      // recaptures (a mutated input moved, stream core limits changed)
  size_t eager_fallback = 0;  // TorchAir's static_capture_size_limit fallback: op by op on the device
  size_t dynamo_eager = 0;    // past the recompile limit: no compiled graph ran at all
  size_t compiled_only = 0;   // default mode: the compiled graph ran, no AclGraph (nothing simulated)
  size_t failed = 0;          // the call failed in TorchAir's runtime (the cache entry stayed)
  int64_t wall_ns = 0;        // simulated end-to-end time of its runs
  bool time_lower_bound = false;
};

struct Coverage {
  std::vector<CoverageRow> rows;  // by compile id, then key, in first-seen order
  size_t calls = 0;
  size_t graphed = 0;  // replayed + captured + recaptured: ran as a captured graph
  int64_t wall_ns = 0;
  bool time_lower_bound = false;
  bool truncated = false;  // the frame made more calls than the kept call log holds
  // Where the ledger disagrees with the AclGraph counters (empty when it agrees).
  std::vector<std::string> mismatches;
};

Coverage BuildCoverage(const CacheState& state);

// The same ledger from a real run's TorchAir log lines (acl_graph.py's
// messages, formats/torch_logs.h TorchAirEvent): per fx graph (compile_id
// holds "graph_1") and graph key, "Find captured" lines are replays, "Success
// to capture" lines captures (recaptures where "needs to be recaptured"
// came first for the key), "static_capture_size_limit reached" one eager
// fallback (the later eager calls print nothing). Only what the log's level
// printed is counted (a hit is INFO), and there is no time: calls = the
// lines counted. Empty rows when the log holds none of these lines.
Coverage LogCoverage(const TorchLogs& logs);

}  // namespace airscope

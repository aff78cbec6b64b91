#include "repl/coverage.h"

#include <map>

#include <fmt/format.h>

#include "repl/cache_state.h"

namespace airscope {

Coverage BuildCoverage(const CacheState& state) {
  Coverage c;
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (const CacheState::CallRecord& r : state.calls) {
    auto [it, added] = index.emplace(std::make_pair(r.compile_id, r.key), c.rows.size());
    if (added) c.rows.push_back({r.compile_id, r.key});
    CoverageRow& row = c.rows[it->second];
    ++row.calls;
    ++c.calls;
    if (r.outcome == "eager") {
      ++row.dynamo_eager;
    } else if (r.runtime == "replay") {
      ++row.replayed;
    } else if (r.runtime == "capture") {
      ++row.captured;
    } else if (r.runtime == "recapture") {
      ++row.recaptured;
    } else if (r.runtime == "eager") {
      ++row.eager_fallback;
    } else if (r.runtime == "failed") {
      ++row.failed;
    } else {
      ++row.compiled_only;
    }
    row.wall_ns += r.wall_ns;
    row.time_lower_bound = row.time_lower_bound || r.time_lower_bound;
  }
  for (const CoverageRow& row : c.rows) {
    c.graphed += row.replayed + row.captured + row.recaptured;
    c.wall_ns += row.wall_ns;
    c.time_lower_bound = c.time_lower_bound || row.time_lower_bound;
  }
  c.truncated = state.frame && state.frame->calls() > state.calls.size();
  if (c.truncated) return c;  // the counters count calls the log no longer holds
  // The AclGraph counters, summed over the frame's entries, must say the same.
  uint64_t hits = 0, captures = 0, recaptures = 0, eager = 0;
  for (const CacheState::EntryRuntime& runtime : state.runtimes) {
    if (!runtime.graph) continue;
    const AclGraphStats& s = runtime.graph->stats();
    hits += s.hits;
    captures += s.captures;
    recaptures += s.recaptures();
    eager += s.eager_runs;
  }
  size_t replayed = 0, captured = 0, recaptured = 0, fallback = 0;
  for (const CoverageRow& row : c.rows) {
    replayed += row.replayed;
    captured += row.captured;
    recaptured += row.recaptured;
    fallback += row.eager_fallback;
  }
  auto check = [&c](std::string_view what, uint64_t counter, size_t ledger) {
    if (counter != ledger)
      c.mismatches.push_back(fmt::format("{}: AclGraph counters {}, ledger {}", what, counter, ledger));
  };
  check("replays of a found key", hits, replayed);
  check("captures (recaptures included)", captures, captured + recaptured);
  check("recaptures", recaptures, recaptured);
  check("eager runs after the fallback", eager, fallback);
  return c;
}

Coverage LogCoverage(const TorchLogs& logs) {
  Coverage c;
  std::map<std::pair<std::string, std::string>, size_t> index;
  std::map<std::pair<std::string, std::string>, size_t> pending_recaptures;
  auto row = [&](const TorchAirEvent& e, const std::string& key) -> CoverageRow& {
    auto [it, added] = index.emplace(std::make_pair(e.fx_graph, key), c.rows.size());
    if (added) c.rows.push_back({e.fx_graph, key});
    return c.rows[it->second];
  };
  for (const TorchAirEvent& e : logs.events) {
    if (e.kind == "hit") {
      CoverageRow& r = row(e, e.key);
      ++r.replayed;
      ++r.calls;
    } else if (e.kind == "recapture") {
      ++pending_recaptures[{e.fx_graph, e.key}];
    } else if (e.kind == "captured") {
      CoverageRow& r = row(e, e.key);
      size_t& pending = pending_recaptures[{e.fx_graph, e.key}];
      if (pending > 0) {
        --pending;
        ++r.recaptured;
      } else {
        ++r.captured;
      }
      ++r.calls;
    } else if (e.kind == "limit_reached") {
      CoverageRow& r = row(e, "fallback_to_eager");
      ++r.eager_fallback;
      ++r.calls;
    }
  }
  for (const CoverageRow& r : c.rows) {
    c.calls += r.calls;
    c.graphed += r.replayed + r.captured + r.recaptured;
  }
  return c;
}

}  // namespace airscope

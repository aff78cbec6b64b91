// Advise: which setting would have avoided a history's recompiles, eager
// fallbacks, captures and recaptures, answered by replaying the history
// (repl/call_history.h) under each candidate setting, never by a rule.
//
// Contract: every number Advise returns is what running the history's
// `call` lines under those settings produced, in-process: the current
// graph's compile cache set aside for a fresh one, the session's settings
// copied, the device a fresh one with the session's device spec; all of it
// put back afterwards, whatever the lines did. A log's history runs on a
// graph of placeholders (HistoryGraphText) registered as NAME_history. The
// baseline is the history replayed as it happened (the session's settings
// and mark_dynamic/gears lines; for a log, airscope's defaults with the
// log's recompile limit, else `set dynamic false` when only that reproduces
// the log); `baseline_matches` says whether it reproduced what the log or
// the session counted. A candidate is suggested only when its replay ran
// every call and did better than the baseline: fewer eager calls, else as
// many and fewer compiles, else as many of both and fewer captures (what it
// costs on the later counts is reported with it).
// Candidates: mark_dynamic of each varying dim (and of all at once),
// dynamic true/none, gears of the sizes seen, a recompile limit that holds
// every compile, a float constant passed as a tensor; in reduce-overhead
// mode also static_capture_size_limit, frozen_parameter, clone_input and
// mempool reuse.
#pragma once

#include <string>
#include <vector>

#include "core/status.h"
#include "repl/call_history.h"
#include "repl/interpreter.h"

namespace airscope {

enum class AdviseScope : uint8_t { kRecompiles, kCaptures, kAll };

struct ReplayCounts {
  size_t calls = 0;         // calls the replay ran (all of them unless `error`)
  size_t compiles = 0;      // cache entries compiled
  size_t dynamo_eager = 0;  // calls past the recompile limit (no compiled graph)
  size_t captures = 0;      // AclGraph captures, recaptures included
  size_t recaptures = 0;
  size_t replays = 0;
  size_t aclgraph_eager = 0;  // calls after TorchAir's static_capture_size_limit fallback
  size_t symbolic_dims = 0;   // dims compiled as symbols, over the entries
  // Per graph key still captured at the end: its captures (recaptures included), as `cache` shows them.
  std::vector<std::pair<std::string, size_t>> key_captures;
  std::string error;  // the first call that failed, and why ("" when none)
  size_t eager() const { return dynamo_eager + aclgraph_eager; }
};

struct AdviseCandidate {
  std::string name;                // "mark_dynamic x 0", "set dynamic true"
  std::vector<std::string> setup;  // lines run before the calls
  // Changes the calls themselves (a float passed as a tensor): input -> its tensor spec.
  std::vector<std::pair<std::string, std::string>> as_tensor;
  std::string change;  // what the user changes in their code, for a candidate that is no setting
  // A limit (its one setup line sets it to an upper bound): the count the
  // replay needed is tried as the limit too, and kept when it does as well.
  std::string limit_setting;
  size_t ReplayCounts::*limit_counts = nullptr;
};

struct AdviseRow {
  AdviseCandidate candidate;
  ReplayCounts counts;
  bool better = false;  // suggested: see the contract
};

struct AdviseResult {
  CallHistory history;
  // The session's settings that differ from airscope's defaults (`set NAME VALUE`): every replay ran under them.
  std::vector<std::string> session_settings;
  std::vector<std::string> baseline;  // the lines the baseline ran before the calls
  std::string baseline_note;          // how the baseline was chosen
  ReplayCounts baseline_counts;
  bool baseline_matches = false;
  std::vector<AdviseRow> rows;  // best first; those with an error last
  std::string graph_name;       // the graph replayed on
  std::string graph_text;       // its print_readable text (for --write)
};

// Replays `history` (whose graph_name is set for a session history) from
// the current graph.
Result<AdviseResult> Advise(Interpreter& interpreter, CallHistory history, AdviseScope scope);

// The lines of a script that replays the history under `row`'s candidate
// (or the baseline when `row` is null) and asserts the counts it predicts;
// `graph_file` is what it loads.
std::vector<std::string> AdviseScript(const AdviseResult& result, const AdviseRow* row, const std::string& graph_file);

// The calls of the history with a candidate's changes made.
std::vector<std::string> CandidateCalls(const CallHistory& history, const AdviseCandidate& candidate);

}  // namespace airscope

// CallHistory: the sequence of calls of one compiled frame that a log
// implies, or that this session made, as `call` lines to replay (`advise`).
//
// From TORCH_LOGS text (HistoryFromLogs) or a TORCH_TRACE log (HistoryFromTrace), per frame F (the F of its compile
// ids; a log without ids: the function the messages name):
//   - a cache entry K was compiled for one call whose values are the ones
//     entry K's guards expect, which any later failure `F/K: ...` prints;
//   - a recompile message listing N failures is a call that missed N
//     entries: compile F/N, or an eager call once N reaches the recompile
//     limit (the log's `hit config.cache_size_limit (L)` line gives L);
//     its failures print what the call passed where they say `actual`;
//   - a cache-limit warning is one eager call (the warning is printed once:
//     how many more calls ran eager the log does not say);
//   - `create_symbol s0 = 3 for L['x'].size()[0]` (TORCH_LOGS=dynamic) in
//     compile F/K: entry K's call passed x.size(0) = 3, a dim that varied.
// Each value the log does not print is assumed and said so: a size or
// constant that differs between the printed calls is given a value no
// printed call has (the smallest integer >= 2 unused, or a float past the
// largest) wherever a call must have differed; dims the log never names are
// one size in every call (8), a tensor's rank is its highest named dim + 1,
// its dtype float32. Guards no dynamism setting changes (object identity,
// type, global state, dtype, device, grad mode, rank, container length) and
// guards airscope does not read are replayed as a string constant per call
// (a pseudo input named after the source): a new value exactly where the
// log shows the guard failing. Stride failures are among them: which
// setting would relax a stride guard is not modelled; and a parameter's size
// (UnfixableGuard::parameter).
//
// From the session (HistoryFromSession): the `call` lines of the current
// graph as typed, in order, with what each did.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dynamo/guard_failure.h"
#include "core/status.h"
#include "formats/torch_logs.h"
#include "formats/torch_trace.h"

namespace airscope {

struct CacheState;

struct HistoryInput {
  enum class Kind : uint8_t { kTensor, kScalar, kPseudo };
  Kind kind = Kind::kTensor;
  std::string name;    // the placeholder of the replay graph
  std::string source;  // as the log prints it: L['x'], self._modules['attn'].processor
  size_t rank = 0;     // kTensor
  GuardFailure::Kind guard = GuardFailure::Kind::kSize;  // kPseudo: what it stands for
};

struct HistoryCall {
  std::string spec;      // the words after `call`
  std::string observed;  // what the log or session says it did: "compiled 0/3", "eager (recompile limit)", "hit 0/1"
  std::string evidence;  // where: "log line 12", "call 4"
  std::vector<std::string> assumed;  // values the log did not print: "x.size(0)=2"
  bool eager = false;
};

// A guard no dynamism setting fixes (or airscope does not replay), by source.
struct UnfixableGuard {
  GuardFailure::Kind kind = GuardFailure::Kind::kOther;
  std::string source;
  size_t failures = 0;  // lines of the log that show it failing
  std::string example;  // one such failure as printed
  size_t line = 0;      // its log line
  // A parameter's size (torch's hint "Guard failed on a parameter"): Dynamo
  // keeps parameters static (config.force_parameter_static_shapes, True by
  // default), so a dynamic-shape setting does not reach it; setting that
  // config False is torch's advice, which airscope does not model.
  bool parameter = false;
};

struct CallHistory {
  std::string origin;    // "TORCH_LOGS text FILE", "this session's calls"
  std::string frame;     // "0"; for a log without compile ids the function's name
  std::string function;  // as the log names it: "fn in /data/playground.py:3"
  bool from_log = false;
  std::vector<HistoryInput> inputs;
  std::vector<HistoryCall> calls;
  std::vector<std::string> assumptions;  // about the whole history
  std::vector<UnfixableGuard> unfixable;
  // What the log says happened, for checking a replay of the history.
  size_t logged_compiles = 0;
  size_t logged_eager = 0;  // eager calls the log shows (a lower bound); the session's, AclGraph's included
  std::optional<size_t> logged_captures;  // the session's AclGraph captures (recaptures included)
  std::optional<size_t> logged_limit;     // the recompile limit the log prints
  std::vector<std::string> other_frames;  // "6 (3 recompile messages)", for a hint
  std::string graph_name;                 // the session graph the calls run on
  std::vector<std::string> setup;         // lines the session ran before its calls (mark_dynamic, gears)
};

// `frame`: the frame to reconstruct ("" for the one with the most recompile
// messages; ties: the first in the log). Errors: the log shows no recompile
// or cache-limit message (nothing to replay), or `frame` is not in it.
Result<CallHistory> HistoryFromLogs(const TorchLogs& logs, const std::string& frame);
// The same from a TORCH_TRACE log's recompile_reasons records (a TORCH_TRACE
// log has no recompile-limit warning: its eager calls are not seen).
Result<CallHistory> HistoryFromTrace(const TraceLog& trace, const std::string& frame);

// The current graph's calls in this session (the newest CacheState::kCallLogLimit).
// Error when it has made none.
Result<CallHistory> HistoryFromSession(const CacheState& state, const std::string& graph_name);

// The print_readable text of the graph a log history replays on: one
// placeholder per input (tensors annotated at their first call's sizes),
// returning the tensors. Guards are all the replay exercises: the log holds
// no graph for the frame.
std::string HistoryGraphText(const CallHistory& history);

}  // namespace airscope

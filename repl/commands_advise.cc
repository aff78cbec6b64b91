// advise: which setting would have avoided the current graph's recompiles,
// eager fallbacks and captures, by replaying its call history (from the
// log it was loaded with, or the session's calls) under each candidate
// (repl/advise.h); coverage: how much of the calls ran as captured graphs
// (repl/coverage.h).
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/file_util.h"
#include "core/fx/readable.h"
#include "core/scanner.h"
#include "repl/advise.h"
#include "repl/cache_state.h"
#include "repl/command_output.h"
#include "repl/command_table.h"
#include "repl/coverage.h"
#include "repl/interpreter.h"

namespace airscope {
namespace {

constexpr const char* kAdviseUsage = "advise [recompiles|captures|all] [--history] [--frame F] [--write DIR]";

std::string Delta(size_t value, size_t base) {
  if (value == base) return fmt::format("{}", value);
  return fmt::format("{} ({}{})", value, value > base ? "+" : "-", value > base ? value - base : base - value);
}

// The calls a log's TorchAir lines show, per fx graph and key: listed, not replayed (the log does not
// say which Dynamo entry a fx graph is, nor the sizes behind a key).
void PrintTorchAirCalls(const Coverage& c, CommandOutput& out) {
  if (c.rows.empty()) return;
  out.Styled(Style::kHeading,
             "TorchAir's AclGraph lines in the log (not replayed: they do not say which cache entry a "
             "fx graph is, nor the sizes behind a key; `coverage` tabulates them):");
  for (const CoverageRow& r : c.rows) {
    out.Print("  {} {}: {} capture(s), {} recapture(s), {} replay(s){}", r.compile_id,
              r.key.empty() ? "(no key printed)" : "{" + r.key + "}", r.captured, r.recaptured, r.replayed,
              r.eager_fallback ? fmt::format(", {} fallback(s) to eager", r.eager_fallback) : "");
  }
}

void PrintHistory(const CallHistory& h, CommandOutput& out) {
  out.Styled(Style::kHeading, "history: {} call(s) of frame {} ({}), from {}", h.calls.size(), h.frame, h.function,
             h.origin);
  for (size_t i = 0; i < h.calls.size(); ++i) {
    const HistoryCall& c = h.calls[i];
    out.Print("  {:>3}. call {}", i + 1, c.spec);
    out.Styled(Style::kDim, "       {} ({}){}", c.observed, c.evidence,
               c.assumed.empty() ? "" : fmt::format("; assumed, not in the log: {}", fmt::join(c.assumed, ", ")));
  }
  for (const std::string& a : h.assumptions) out.Styled(Style::kDim, "  assumed: {}", a);
  if (!h.other_frames.empty()) {
    out.Styled(Style::kDim, "  other frames in the log: {} (--frame F)", fmt::join(h.other_frames, ", "));
  }
}

std::string KeyCaptures(const ReplayCounts& c) {
  std::vector<std::string> parts;
  for (const auto& [key, n] : c.key_captures) parts.push_back(fmt::format("{{{}}} {}", key, n));
  return fmt::format("{}", fmt::join(parts, ", "));
}

std::string Counted(const CallHistory& h) {
  return fmt::format("{} compile(s), {} eager call(s){}", h.logged_compiles, h.logged_eager,
                     h.logged_captures ? fmt::format(", {} capture(s)", *h.logged_captures) : "");
}

void PrintCounts(std::string_view label, const ReplayCounts& c, bool captures, CommandOutput& out) {
  out.Print(
      "  {}: {} compile(s), {} eager call(s){}{}", label, c.compiles, c.eager(),
      captures ? fmt::format(", {} capture(s) ({} recaptures), {} replay(s)", c.captures, c.recaptures, c.replays) : "",
      c.error.empty() ? "" : fmt::format("; stopped at {}", c.error));
  if (captures && !c.key_captures.empty()) out.Print("    captures per graph key: {}", KeyCaptures(c));
}

Status WriteAdvice(CommandContext& ctx, const AdviseResult& r, const std::string& dir) {
  const Session::Entry* entry = ctx.session.Find(r.graph_name);
  if (!entry) return Status::Errorf("advise --write: the graph '{}' is gone", r.graph_name);
  std::string graph_file = r.graph_name + ".readable.py";
  std::string graph_text = r.history.from_log ? r.graph_text : PrintReadable(*entry->loaded.graph);
  std::vector<std::pair<std::string, std::string>> files = {{graph_file, graph_text}};
  auto script = [](const std::vector<std::string>& lines) { return fmt::format("{}\n", fmt::join(lines, "\n")); };
  files.emplace_back("baseline.airscript", script(AdviseScript(r, nullptr, graph_file)));
  // The top suggestion as advise.airscript, every other one as suggestion_N.airscript (N its rank).
  size_t rank = 0;
  for (const AdviseRow& row : r.rows) {
    if (!row.better) continue;
    ++rank;
    files.emplace_back(rank == 1 ? "advise.airscript" : fmt::format("suggestion_{}.airscript", rank),
                       script(AdviseScript(r, &row, graph_file)));
  }
  const bool top = rank > 0;
  std::vector<std::string> written;
  for (const auto& [name, text] : files) {
    std::string path = fmt::format("{}/{}", dir, name);
    AIRSCOPE_RETURN_IF_ERROR(WriteFile(path, text));
    written.push_back(path);
  }
  ctx.out.Print("wrote {}{}", fmt::join(written, ", "), top ? "" : " (no suggestion: advise.airscript not written)");
  return Status::Ok();
}

Status AdviseCommand(CommandContext& ctx) {
  AdviseScope scope = AdviseScope::kAll;
  if (ctx.args.size() > 1) return UsageError(kAdviseUsage);
  if (ctx.args.size() == 1) {
    const std::string& word = ctx.args[0].text;
    if (word == "recompiles") {
      scope = AdviseScope::kRecompiles;
    } else if (word == "captures") {
      scope = AdviseScope::kCaptures;
    } else if (word != "all") {
      return ColumnErrorf(ctx.args[0].column, "advise takes recompiles, captures or all, not '{}'", word);
    }
  }
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  const CacheState* state = entry->cache.get();
  std::string frame = ctx.flags.Value("--frame") ? *ctx.flags.Value("--frame") : "";
  Result<CallHistory> history = Status::Error("");
  if (state && state->frame && !state->calls.empty()) {
    if (!frame.empty()) return Status::Error("--frame picks a frame of a log; this graph's calls are one frame");
    history = HistoryFromSession(*state, entry->name);
  } else if (state && state->logs) {
    history = HistoryFromLogs(*state->logs, frame);
  } else if (state && state->trace) {
    history = HistoryFromTrace(*state->trace, frame);
  } else {
    return Status::Errorf(
        "'{}' has no calls to replay: make some with `call`, or load a TORCH_LOGS text or TORCH_TRACE log with "
        "recompile messages",
        entry->name);
  }
  if (!history.ok()) {
    // --history of a log without recompile messages still lists what its TorchAir lines show.
    Coverage torchair = ctx.flags.Has("--history") && state && state->logs ? LogCoverage(*state->logs) : Coverage{};
    if (!torchair.rows.empty()) {
      ctx.out.Print("{}", history.status().message());
      PrintTorchAirCalls(torchair, ctx.out);
      return Status::Ok();
    }
    return history.status();
  }
  if (ctx.flags.Has("--history")) {
    PrintHistory(*history, ctx.out);
    if (history->from_log && state->logs) PrintTorchAirCalls(LogCoverage(*state->logs), ctx.out);
    return Status::Ok();
  }
  AIRSCOPE_ASSIGN_OR_RETURN(AdviseResult r, Advise(ctx.interpreter, std::move(history).value(), scope));
  const CallHistory& h = r.history;
  bool captures = ctx.session.settings().CapturesAclGraphs();
  ctx.out.Styled(Style::kHeading, "advise: frame {} ({}), {} call(s) from {}", h.frame, h.function, h.calls.size(),
                 h.origin);
  if (h.from_log) {
    size_t assumed = 0;
    for (const HistoryCall& c : h.calls) assumed += !c.assumed.empty();
    ctx.out.Print(
        "  replayed on '{}', a graph of placeholders: the log holds the guards' failures, not the graph, so only "
        "Dynamo's guards are replayed{}",
        r.graph_name,
        assumed ? fmt::format("; {} call(s) carry values the log does not print (advise --history)", assumed) : "");
  }
  ctx.out.Print("  baseline: {}", r.baseline_note);
  PrintCounts("replayed", r.baseline_counts, captures, ctx.out);
  if (r.baseline_matches) {
    ctx.out.Styled(Style::kGood, "  the replay reproduces what the {} counted: {}", h.from_log ? "log" : "session",
                   Counted(h));
  } else {
    ctx.out.Styled(Style::kBad,
                   "  the replay does NOT reproduce what the {} counted ({}): the numbers below are about the "
                   "reconstructed history, not your run",
                   h.from_log ? "log" : "session", Counted(h));
  }
  if (!h.unfixable.empty()) {
    ctx.out.Styled(Style::kHeading,
                   "not fixable by dynamism, or not replayed (no setting below changes these guards):");
    for (const UnfixableGuard& u : h.unfixable) {
      ctx.out.Print("  {} on {}: fails {} time(s), e.g. log line {}: {}",
                    u.parameter ? "a parameter's size" : GuardFailureClass(u.kind), u.source, u.failures, u.line,
                    u.example);
      ctx.out.Styled(Style::kDim, "    {}",
                     u.parameter ? "Dynamo keeps a parameter's sizes static (config.force_parameter_static_shapes, "
                                   "True by default), so no dynamic-shape setting here reaches it; torch's hint is to "
                                   "set that config False, which airscope does not model: not replayed"
                                 : UnfixableAdvice(u.kind));
    }
  }
  const ReplayCounts& base = r.baseline_counts;
  std::vector<const AdviseRow*> better, same, refused;
  for (const AdviseRow& row : r.rows) {
    (row.better ? better : row.counts.error.empty() ? same : refused).push_back(&row);
  }
  if (better.empty()) {
    ctx.out.Styled(Style::kBad, "no candidate setting does better than the baseline in its replay");
  } else {
    ctx.out.Styled(Style::kHeading, "suggestions, best first (each replayed; the counts are its replay's):");
    for (size_t i = 0; i < better.size(); ++i) {
      const AdviseRow& row = *better[i];
      const ReplayCounts& c = row.counts;
      ctx.out.Styled(i == 0 ? Style::kGood : Style::kPlain, "  {}. {}", i + 1, row.candidate.name);
      ctx.out.Print("     compiles {}, eager calls {}{}; symbolic dims {}", Delta(c.compiles, base.compiles),
                    Delta(c.eager(), base.eager()),
                    captures ? fmt::format(", captures {}, recaptures {}", Delta(c.captures, base.captures),
                                           Delta(c.recaptures, base.recaptures))
                             : "",
                    Delta(c.symbolic_dims, base.symbolic_dims));
      if (captures && !c.key_captures.empty()) ctx.out.Print("     captures per graph key: {}", KeyCaptures(c));
      if (!row.candidate.change.empty()) ctx.out.Styled(Style::kDim, "     a code change: {}", row.candidate.change);
    }
  }
  if (!same.empty()) {
    std::vector<std::string> names;
    for (const AdviseRow* row : same) names.push_back(row->candidate.name);
    ctx.out.Styled(Style::kDim, "no gain in replay: {}", fmt::join(names, "; "));
  }
  for (const AdviseRow* row : refused) {
    ctx.out.Styled(Style::kDim, "refused in replay: {}: {}", row->candidate.name, row->counts.error);
  }
  if (const std::string* dir = ctx.flags.Value("--write")) {
    AIRSCOPE_RETURN_IF_ERROR(WriteAdvice(ctx, r, Interpreter::ExpandHome(*dir)));
  }
  return Status::Ok();
}

Status CoverageCommand(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("coverage");
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  const CacheState* state = entry->cache.get();
  const bool has_calls = state && !state->calls.empty();
  Coverage c = has_calls ? BuildCoverage(*state) : state && state->logs ? LogCoverage(*state->logs) : Coverage{};
  const bool from_log = !has_calls && !c.rows.empty();
  if (!has_calls && !from_log) {
    ctx.out.Print("graph '{}': no calls yet (use call NAME=SPEC ...), and no TorchAir AclGraph log lines", entry->name);
    return Status::Ok();
  }
  if (from_log) {
    ctx.out.Styled(Style::kHeading,
                   "coverage from TorchAir's AclGraph lines in {}: {} of {} counted call(s) ran as a captured graph",
                   state->logs->path, c.graphed, c.calls);
    ctx.out.Styled(Style::kDim,
                   "  only the calls the log's level printed are counted (a replay is INFO, a capture's start DEBUG); "
                   "after the static_capture_size_limit fallback TorchAir prints nothing per call; no time is logged");
  } else {
    ctx.out.Styled(Style::kHeading, "coverage of '{}': {} of {} call(s) ran as a captured graph{}", entry->name,
                   c.graphed, c.calls, c.truncated ? " (the newest calls only: older ones are not kept)" : "");
  }
  size_t key_width = 9, id_width = 8;
  for (const CoverageRow& row : c.rows) {
    key_width = std::max(key_width, row.key.size() + 2);
    id_width = std::max(id_width, row.compile_id.size());
  }
  ctx.out.Print("  {:<{}} {:<{}} {:>6} {:>8} {:>8} {:>10} {:>6} {:>7} {:>9} {:>6}  {}",
                from_log ? "fx graph" : "compile", id_width, "graph key", key_width, "calls", "replayed", "captured",
                "recaptured", "eager", "limit", "no graph", "failed", "simulated time");
  for (const CoverageRow& row : c.rows) {
    std::string time = "-";
    if (row.wall_ns > 0 && c.wall_ns > 0) {
      time = fmt::format("{:.1f} us ({:.0f}%){}", row.wall_ns / 1e3, 100.0 * row.wall_ns / c.wall_ns,
                         row.time_lower_bound ? " at least" : "");
    }
    ctx.out.Print("  {:<{}} {:<{}} {:>6} {:>8} {:>8} {:>10} {:>6} {:>7} {:>9} {:>6}  {}",
                  row.compile_id.empty() ? "-" : row.compile_id, id_width, row.key.empty() ? "-" : "{" + row.key + "}",
                  key_width, row.calls, row.replayed, row.captured, row.recaptured, row.eager_fallback,
                  row.dynamo_eager, row.compiled_only, row.failed, time);
  }
  ctx.out.Styled(Style::kDim,
                 "  eager: TorchAir ran the graph op by op after static_capture_size_limit; limit: Dynamo ran the "
                 "call without a compiled graph (recompile limit; not simulated); no graph: mode default, no AclGraph");
  for (const std::string& m : c.mismatches) ctx.out.Styled(Style::kBad, "  the ledger disagrees with {}", m);
  return Status::Ok();
}

}  // namespace

void RegisterAdviseCommands(CommandTable& table) {
  table.Add({"advise",
             kAdviseUsage,
             "which setting would have avoided the recompiles, eager fallbacks and captures: replayed, not guessed",
             "Replays the current graph's call history under candidate settings and ranks those that did better.\n"
             "The history: the session's `call`s of the current graph; or, for a graph loaded from TORCH_LOGS text\n"
             "or a TORCH_TRACE log, the calls its recompile messages (recompile_reasons records) and recompile-limit\n"
             "warnings imply. --history lists them, every value the log does not print marked as assumed; --frame F\n"
             "picks a frame of the log (by default the one with the most messages). A log's calls run on a graph of\n"
             "placeholders, NAME_history: the log holds the guards' failures, not the graph, so only Dynamo's guards\n"
             "are replayed. A `create_symbol` line (TORCH_LOGS=dynamic) gives the size the compiling call passed;\n"
             "TorchAir's AclGraph log lines are not read into a history (`coverage` reads them).\n"
             "Every replay runs in-process on a fresh compile cache of the graph and a fresh device of the session's\n"
             "spec, under the session's settings; all of it is put back after. The baseline is the history as it\n"
             "ran (for a log: airscope's defaults with the log's recompile limit, or `set dynamic false` when only\n"
             "that reproduces the log); advise says whether it reproduces the counts the log or the session shows.\n"
             "Candidates: mark_dynamic of each dim whose size varies (and of all of them at once), gears of the\n"
             "sizes seen, set dynamic true (or none after false), a recompile limit that holds every compile, a\n"
             "float constant passed as a tensor (a code change); in reduce-overhead mode also\n"
             "static_capture_size_limit, frozen_parameter, clone_input and disable_mempool_reuse_in_same_fx. A limit\n"
             "is suggested at the smallest value its replay needed. A candidate is suggested only when its replay ran\n"
             "every call and did better: fewer eager calls, else fewer compiles, else fewer captures; its cost on\n"
             "the other counts is shown with it (+N). Guards no dynamism setting changes (object identity\n"
             "___check_obj_id, type, global state, dtype, device, requires_grad, rank, list length) are named by\n"
             "source with what to do; a stride failure is listed there too: which setting relaxes a stride guard is\n"
             "not modelled.\n"
             "--write DIR writes the replay graph, baseline.airscript, advise.airscript (the top suggestion applied)\n"
             "and suggestion_N.airscript for the others, each ending in expect lines with the predicted counts\n"
             "(compiles, eager calls, captures, recaptures, captures per graph key): running one (as a session of\n"
             "its own) checks the claim.\n"
             "Simplified: a log's history is reconstructed (so a replay that does not reproduce the log says so);\n"
             "Dynamo's specialize_float and force_parameter_static_shapes configs are not modelled.",
             AdviseCommand,
             [](const std::vector<std::string>& before) {
               return before.empty() ? CompletionRule{CompletionKind::kFixed, {"all", "captures", "recompiles"}}
                                     : CompletionRule{};
             },
             {{"--history", "", {}}, {"--frame", "F", {}}, {"--write", "DIR", {CompletionKind::kFile, {}}}}});
  table.Add({"coverage",
             "coverage",
             "how much of the current graph's calls ran as a captured graph, per compile and graph key",
             "The coverage ledger of the current graph's calls in this session: per cache entry (compile id)\n"
             "and TorchAir graph key, how many calls replayed a captured graph, captured, recaptured, ran eager\n"
             "after TorchAir's static_capture_size_limit fallback, ran without any compiled graph (Dynamo's\n"
             "recompile limit), ran compiled without an AclGraph (mode default) or failed in the runtime, and\n"
             "the share of the simulated time each took (a lower bound where kernels had no cost model). The\n"
             "counts are checked against the AclGraph counters `cache` shows; a disagreement is printed.\n"
             "A graph loaded from TORCH_LOGS text, with no calls of its own: the same ledger from the real run's\n"
             "TorchAir lines (acl_graph.py: `Find captured AclGraph` a replay, `Success to capture` a capture, a\n"
             "recapture after `needs to be recaptured`, `static_capture_size_limit reached` the fallback), per fx\n"
             "graph and key; only what the log's level printed is counted, and no time.",
             CoverageCommand,
             {}});
}

}  // namespace airscope

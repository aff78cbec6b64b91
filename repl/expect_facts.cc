#include "repl/expect_facts.h"

#include <set>
#include <string>

#include <fmt/format.h>

#include "core/glob.h"
#include "core/scanner.h"
#include "repl/cache_state.h"
#include "repl/compile_index.h"
#include "repl/session.h"

namespace airscope {
namespace {

std::string Text(size_t value) { return fmt::format("{}", value); }

Result<const PipelineRun*> CurrentRun(CommandContext& ctx) {
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  if (!entry->pipeline) return Status::Errorf("no pipeline has run on '{}' yet (step or run first)", entry->name);
  return entry->pipeline.get();
}

// The record of PASS's latest stage, or of its failure at the cursor.
struct StageFact {
  const StageRecord* stage = nullptr;
  const StageRecord* failure = nullptr;
};

Result<StageFact> FindStageFact(CommandContext& ctx, const Word& pass) {
  AIRSCOPE_ASSIGN_OR_RETURN(const PipelineRun* run, CurrentRun(ctx));
  std::string name = ctx.session.CanonicalPassName(pass.text);
  StageFact fact;
  if (run->failure() && run->failure()->pass == name) fact.failure = &*run->failure();
  Result<size_t> stage = run->FindStage(name);
  if (stage.ok()) fact.stage = &run->stages()[*stage];
  if (!fact.stage && !fact.failure) {
    if (!run->Contains(name)) return stage.status();
    return ColumnErrorf(pass.column, "pass '{}' has not run yet (the cursor is at stage {})", name, run->cursor());
  }
  return fact;
}

std::string StageState(const StageFact& fact) {
  if (fact.failure && !fact.stage) return "failed";
  const StageRecord& s = *fact.stage;
  if (s.status == StageStatus::kSkipped) return "skipped";
  return s.changed ? "changed" : "unchanged";
}

const CacheState* StateOrNull(CommandContext& ctx) { return FindCacheState(ctx.session); }

// Every AclGraph of the current graph's cache entries (reduce-overhead calls).
std::vector<const AclGraph*> RuntimeGraphs(CommandContext& ctx) {
  std::vector<const AclGraph*> graphs;
  if (const CacheState* state = StateOrNull(ctx)) {
    for (const CacheState::EntryRuntime& runtime : state->runtimes) {
      if (runtime.graph) graphs.push_back(runtime.graph.get());
    }
  }
  return graphs;
}

// A key as `cache` prints it ("{[4]}") or as TorchAir computes it ("[4]").
std::string BareKey(std::string_view key) {
  if (key.size() >= 2 && key.front() == '{' && key.back() == '}') key = key.substr(1, key.size() - 2);
  return std::string(key);
}

Result<uint32_t> TrackOf(const Trace& trace, const Word& stream) {
  for (uint32_t i = 0; i < trace.tracks.size(); ++i) {
    if (trace.tracks[i] == stream.text) return i;
  }
  return ColumnErrorf(stream.column, "no stream '{}' in the last run ({})", stream.text,
                      trace.tracks.empty() ? "no run yet" : fmt::format("tracks: {}", fmt::join(trace.tracks, ", ")));
}

}  // namespace

Status ExpectMismatch(std::string_view what, std::string_view expected, std::string_view actual) {
  return Status::Errorf("expect failed: {}: expected {}, actual {}", what, expected, actual);
}

Result<size_t> ParseExpectCount(const Word& word) {
  std::optional<int64_t> value = WordAsInt(word);
  if (!value || *value < 0) return ColumnErrorf(word.column, "expected a count, got '{}'", word.text);
  return static_cast<size_t>(*value);
}

Status ExpectStage(CommandContext& ctx, const std::vector<Word>& args) {
  static const std::set<std::string, std::less<>> kStates = {"changed", "unchanged", "skipped", "failed"};
  bool nodes = args.size() == 3 && args[1].text == "nodes";
  if (!nodes && (args.size() != 2 || !kStates.count(args[1].text))) {
    return Status::Error("usage: expect stage PASS changed|unchanged|skipped|failed | expect stage PASS nodes N");
  }
  AIRSCOPE_ASSIGN_OR_RETURN(StageFact fact, FindStageFact(ctx, args[0]));
  std::string what = fmt::format("stage of {}", args[0].text);
  if (nodes) {
    AIRSCOPE_ASSIGN_OR_RETURN(size_t want, ParseExpectCount(args[2]));
    if (!fact.stage) return ExpectMismatch(what, fmt::format("{} nodes", want), "the pass failed, no stage");
    if (fact.stage->nodes == want) return Status::Ok();
    return ExpectMismatch(what, fmt::format("{} nodes", want), fmt::format("{} nodes", fact.stage->nodes));
  }
  // A pass that failed at the cursor after an earlier run of it made a stage: the failure is its news.
  std::string actual = fact.failure ? "failed" : StageState(fact);
  if (actual == args[1].text) return Status::Ok();
  if (fact.failure) actual += fmt::format(" ({})", ErrorHeadline(fact.failure->error));
  return ExpectMismatch(what, args[1].text, actual);
}

Status ExpectRemark(CommandContext& ctx, const std::vector<Word>& args) {
  if (args.size() != 3 || (args[1].text != "contains" && args[1].text != "lacks")) {
    return Status::Error("usage: expect remark PASS contains|lacks \"TEXT\"");
  }
  AIRSCOPE_ASSIGN_OR_RETURN(StageFact fact, FindStageFact(ctx, args[0]));
  std::vector<std::string> remarks;
  for (const StageRecord* record : {fact.stage, fact.failure}) {
    if (!record) continue;
    remarks.insert(remarks.end(), record->remarks.begin(), record->remarks.end());
    if (!record->effects_changed.empty()) remarks.push_back(record->effects_changed);
    if (!record->error.empty()) remarks.push_back(record->error);
  }
  bool found = false;
  for (const std::string& remark : remarks) found = found || remark.find(args[2].text) != std::string::npos;
  bool want = args[1].text == "contains";
  if (found == want) return Status::Ok();
  std::string actual = remarks.empty() ? "no remarks" : fmt::format("remarks: {}", fmt::join(remarks, " | "));
  return ExpectMismatch(fmt::format("remarks of {}", args[0].text),
                        fmt::format("{} \"{}\"", want ? "one to contain" : "none to contain", args[2].text), actual);
}

Status ExpectGuards(CommandContext& ctx, const std::vector<Word>& args) {
  if (args.empty() || args.size() > 2) return Status::Error("usage: expect guards N [ENTRY|ID]");
  AIRSCOPE_ASSIGN_OR_RETURN(size_t want, ParseExpectCount(args[0]));
  const CacheState* state = StateOrNull(ctx);
  const Word* which = args.size() == 2 ? &args[1] : nullptr;
  size_t actual = 0;
  std::string what;
  if (state && state->bundle && (state->trace || state->logs)) {
    // A log's compile: the guard count the compile index gathered from every log of the load.
    if (!which) return Status::Error("usage: expect guards N ID (a compile id of the log)");
    CompileIndex index = BuildCompileIndex(*state->bundle, ctx.session);
    const IndexCompile* compile = nullptr;
    for (const IndexCompile& c : index.compiles) compile = c.id == which->text ? &c : compile;
    if (!compile) return ColumnErrorf(which->column, "no compile '{}' in the loaded log", which->text);
    if (compile->guard_count < 0)
      return ExpectMismatch(fmt::format("guards of {}", which->text), Text(want), "none logged");
    actual = static_cast<size_t>(compile->guard_count);
    what = fmt::format("guards of {}", which->text);
  } else {
    if (!state || !state->frame || state->frame->entries().empty()) {
      return ExpectMismatch("guards", Text(want), "no cache entries (call the graph first)");
    }
    const auto& entries = state->frame->entries();
    if (!which && entries.size() > 1)
      return Status::Error("usage: expect guards N ENTRY (the frame has several entries)");
    size_t picked = 0;
    if (which) {
      bool found = false;
      for (size_t i = 0; i < entries.size() && !found; ++i) {
        found = entries[i]->compile_id == which->text || Text(i) == which->text;
        if (found) picked = i;
      }
      if (!found) return ColumnErrorf(which->column, "no cache entry '{}'", which->text);
    }
    actual = entries[picked]->guards.count();
    what = fmt::format("guards of entry {} [{}]", picked, entries[picked]->compile_id);
  }
  if (actual == want) return Status::Ok();
  return ExpectMismatch(what, Text(want), Text(actual));
}

Status ExpectRecompiles(CommandContext& ctx, const std::vector<Word>& args) {
  if (args.size() != 1) return Status::Error("usage: expect recompiles N");
  AIRSCOPE_ASSIGN_OR_RETURN(size_t want, ParseExpectCount(args[0]));
  const CacheState* state = StateOrNull(ctx);
  size_t actual = 0;
  if (state && state->logs) {
    actual = state->logs->recompiles.size();
  } else if (state && state->trace) {
    actual = state->trace->recompiles.size();
  } else if (state) {
    actual = state->recompiles.size();
  }
  if (actual == want) return Status::Ok();
  return ExpectMismatch("recompiles", Text(want), Text(actual));
}

Status ExpectEager(CommandContext& ctx, const std::vector<Word>& args) {
  if (args.size() != 1) return Status::Error("usage: expect eager N");
  AIRSCOPE_ASSIGN_OR_RETURN(size_t want, ParseExpectCount(args[0]));
  const CacheState* state = StateOrNull(ctx);
  size_t actual = state && state->frame ? state->frame->eager_calls() : 0;
  for (const AclGraph* graph : RuntimeGraphs(ctx)) actual += graph->stats().eager_runs;
  if (actual == want) return Status::Ok();
  return ExpectMismatch("eager calls", Text(want), Text(actual));
}

Status ExpectRuntimeCount(CommandContext& ctx, std::string_view form, const std::vector<Word>& args) {
  bool keyed = args.size() == 3 && args[1].text == "key";
  if (args.size() != 1 && !keyed) return Status::Errorf("usage: expect {} N [key KEY]", form);
  AIRSCOPE_ASSIGN_OR_RETURN(size_t want, ParseExpectCount(args[0]));
  std::vector<const AclGraph*> graphs = RuntimeGraphs(ctx);
  size_t actual = 0;
  std::string what(form);
  if (keyed) {
    // Per key: its captured graph now (a recapture replaced the one before).
    std::string key = BareKey(args[2].text);
    const GraphMeta* meta = nullptr;
    for (const AclGraph* graph : graphs) {
      for (const GraphMeta& m : graph->graphs_meta()) meta = m.key == key ? &m : meta;
    }
    if (!meta)
      return ExpectMismatch(fmt::format("{} of key {{{}}}", form, key), Text(want), "no captured graph of that key");
    size_t captures = static_cast<size_t>(meta->capture);
    actual = form == "captures" ? captures : form == "recaptures" ? captures - 1 : meta->replays;
    what = fmt::format("{} of key {{{}}}", form, key);
  } else {
    for (const AclGraph* graph : graphs) {
      const AclGraphStats& s = graph->stats();
      actual += form == "captures" ? s.captures : form == "recaptures" ? s.recaptures() : s.replays;
    }
  }
  if (actual == want) return Status::Ok();
  return ExpectMismatch(what, Text(want), Text(actual));
}

Status ExpectTasks(CommandContext& ctx, const std::vector<Word>& args) {
  if (args.size() != 3 || args[1].text != "on") return Status::Error("usage: expect tasks N on STREAM");
  AIRSCOPE_ASSIGN_OR_RETURN(size_t want, ParseExpectCount(args[0]));
  const Trace& trace = ctx.session.device().sim.last_trace();
  AIRSCOPE_ASSIGN_OR_RETURN(uint32_t track, TrackOf(trace, args[2]));
  std::set<int64_t> tasks;
  for (const Slice& slice : trace.slices) {
    if (slice.track == track && slice.task >= 0) tasks.insert(slice.task);
  }
  if (tasks.size() == want) return Status::Ok();
  return ExpectMismatch(fmt::format("tasks on stream '{}' in '{}'", args[2].text, trace.title), Text(want),
                        Text(tasks.size()));
}

Status ExpectSlice(CommandContext& ctx, const std::vector<Word>& args, bool want) {
  bool on = args.size() == 3 && args[1].text == "on";
  if (args.size() != 1 && !on) return Status::Errorf("usage: expect {}slice NAME [on STREAM]", want ? "" : "no ");
  const Trace& trace = ctx.session.device().sim.last_trace();
  std::optional<uint32_t> track;
  if (on) {
    AIRSCOPE_ASSIGN_OR_RETURN(track, TrackOf(trace, args[2]));
  }
  size_t found = 0;
  for (const Slice& slice : trace.slices) {
    if (track && slice.track != *track) continue;
    found += slice.name == args[0].text || GlobMatch(args[0].text, slice.name);
  }
  if ((found > 0) == want) return Status::Ok();
  std::string where = on ? fmt::format(" on stream '{}'", args[2].text) : "";
  return ExpectMismatch(fmt::format("slices named '{}'{} in '{}'", args[0].text, where, trace.title),
                        want ? "at least one" : "none", Text(found));
}

Status ExpectGraphLoaded(CommandContext& ctx, const Word& name) {
  if (ctx.session.Find(name.text)) return Status::Ok();
  return ExpectMismatch(fmt::format("graph '{}'", name.text), "it to be loaded",
                        fmt::format("no such graph ({} loaded)", ctx.session.graphs().size()));
}

}  // namespace airscope

// Pipeline commands: pipeline, step, next, run, break, skip, back, reset,
// stages, diff, bisect. They drive the current graph's PipelineRun (created
// on first use from the loaded graph); once it exists, the stage at its
// cursor is the graph every other command sees (Session::CurrentGraph).
#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/fx/fx_text.h"
#include "core/interrupt.h"
#include "core/pass/graph_diff.h"
#include "core/scanner.h"
#include "core/text.h"
#include "repl/command_table.h"
#include "repl/condition.h"
#include "repl/dump_instrumentation.h"
#include "repl/folded_diff.h"
#include "repl/graph_text.h"
#include "repl/interpreter.h"
#include "repl/stage_graph.h"

namespace airscope {
namespace {

bool ShowTimes(const Session& session) { return session.settings().Get("show-times") == "on"; }

// Everything one run borrows: the pass context, the dumps, the env.
class Runner {
 public:
  explicit Runner(Session& session)
      : context_(session.MakePassContext()), dumps_(DumpInstrumentation::FromSettings(session.settings())) {
    env_.passes = &session.passes();
    env_.context = &context_;
    dumps_.Attach(env_);
  }
  PipelineEnv& env() { return env_; }
  const DumpInstrumentation& dumps() const { return dumps_; }

 private:
  PassContext context_;
  DumpInstrumentation dumps_;
  PipelineEnv env_;
};

std::string Millis(double seconds) { return fmt::format("{:.2f}", seconds * 1000); }

// TorchAir's pass names run long (apply_event_closure_with_multi_stream): the
// pass column is as wide as the longest (and `minimum`), so the columns
// after it stay aligned.
size_t PassColumn(const PipelineRun& run, size_t minimum) {
  size_t width = minimum;
  for (const std::string& pass : run.passes()) width = std::max(width, pass.size());
  for (const StageRecord& stage : run.stages()) width = std::max(width, stage.pass.size());
  return width;
}

void PrintStage(CommandContext& ctx, const PipelineRun& run, size_t k) {
  const StageRecord& stage = run.stages()[k];
  size_t before = run.stages()[k - 1].nodes;
  std::string what = stage.status == StageStatus::kSkipped ? "skipped" : stage.changed ? "changed" : "unchanged";
  std::string time =
      ShowTimes(ctx.session) && stage.status == StageStatus::kRan ? fmt::format("  {} ms", Millis(stage.seconds)) : "";
  ctx.out.Print("stage {:>2}  {:<{}} {:<9}  {} -> {} nodes{}", k, stage.pass, PassColumn(run, 24), what, before,
                stage.nodes, time);
  for (const std::string& remark : stage.remarks) ctx.out.Styled(Style::kDim, "          note: {}", remark);
  if (!stage.effects_changed.empty()) {
    ctx.out.Styled(Style::kBad,
                   "          warning: this TorchAir pass changes what the graph computes: {}; airscope keeps its "
                   "result, as TorchAir does (help pass {})",
                   stage.effects_changed, stage.pass);
  }
}

// Prints what a run did and where it stopped; a failed pass fails the command.
Status PrintRunReport(CommandContext& ctx, PipelineRun& run, const RunReport& report, const Runner& runner) {
  for (size_t k = report.first_stage; k <= report.last_stage; ++k) PrintStage(ctx, run, k);
  const DumpInstrumentation& dumps = runner.dumps();
  if (!dumps.written().empty()) {
    ctx.out.Styled(Style::kDim, "dumped {} file(s) to {}", dumps.written().size(),
                   ctx.session.settings().Get("dump.dir"));
  }
  // A dump the user asked for that could not be written fails the command
  // (a script stops, exit 1), after the stages it ran are shown; the stages
  // stay. The first few errors are listed, the rest counted.
  const std::vector<std::string>& dump_errors = dumps.errors();
  constexpr size_t kShownDumpErrors = 3;
  for (size_t i = 0; i < std::min(dump_errors.size(), kShownDumpErrors); ++i) {
    ctx.out.Styled(Style::kBad, "dump: {}", dump_errors[i]);
  }
  if (dump_errors.size() > kShownDumpErrors) {
    ctx.out.Styled(Style::kBad, "dump: ... and {} more", dump_errors.size() - kShownDumpErrors);
  }
  Status dump_failure;
  if (!dump_errors.empty()) {
    dump_failure =
        Status::Errorf("{} automatic dump(s) failed (set dump.when off to run without them)", dump_errors.size());
  }
  size_t cursor = run.cursor();
  switch (report.stop) {
    case RunReport::Stop::kFailed: {
      const std::string& pass = run.passes()[cursor];
      return Status::Errorf("{} (still at stage {}, graph unchanged; `skip {}` steps over it)", report.error.message(),
                            cursor, pass);
    }
    case RunReport::Stop::kInterrupted: {
      // Like every interrupted command, it is undone: the stages it ran (shown
      // above) are dropped and the cursor is where the command found it.
      size_t before = report.first_stage - 1;
      if (Status undone = run.TruncateTo(before); !undone.ok()) {
        return Status::Errorf("{} before '{}', at stage {}; going back to stage {} failed: {}", report.error.message(),
                              run.passes()[cursor], cursor, before, undone.message());
      }
      return Status::Errorf("{} before '{}': the stages this command ran are dropped; back at stage {}, as before it",
                            report.error.message(), run.passes()[cursor], before);
    }
    case RunReport::Stop::kBreakpoint:
      ctx.out.Styled(Style::kAccent, "breakpoint: stopped before '{}' (at stage {})", run.passes()[cursor], cursor);
      break;
    case RunReport::Stop::kTarget:
      ctx.out.Styled(Style::kAccent, "stopped after '{}' (at stage {})", run.stages()[cursor].pass, cursor);
      break;
    case RunReport::Stop::kEnd:
      ctx.out.Styled(Style::kGood, "end of the pipeline: stage {}, {} nodes", cursor, run.Current().size());
      break;
    case RunReport::Stop::kCount: ctx.out.Print("at stage {}; next pass: '{}'", cursor, run.passes()[cursor]); break;
  }
  return dump_failure;
}

Result<PipelineRun*> Pipeline(CommandContext& ctx) { return ctx.session.CurrentPipeline(); }

// Stepping past the end is not an error: says so and returns true.
bool SayIfAtEnd(CommandContext& ctx, const PipelineRun& run) {
  if (!run.at_end()) return false;
  ctx.out.Print("already at the end of the pipeline (stage {}); use back or reset", run.cursor());
  return true;
}

Status ListPipeline(CommandContext& ctx, const PipelineRun& run) {
  const Session::Entry* entry = ctx.session.current();
  ctx.out.Styled(Style::kHeading, "pipeline of '{}': {} passes, at stage {} (-> marks the next pass; b break, s skip)",
                 entry->name, run.passes().size(), run.cursor());
  const size_t width = PassColumn(run, 4);
  ctx.out.Print("       #  {:<{}} {:<2}  {:<9} {:>9} {:>7}", "pass", width, "", "status", "ms", "nodes");
  bool times = ShowTimes(ctx.session);
  for (size_t i = 0; i < run.passes().size(); ++i) {
    const std::string& pass = run.passes()[i];
    std::string marks = fmt::format("{}{}", run.HasBreakpoint(pass) ? "b" : " ", run.IsSkipped(pass) ? "s" : " ");
    std::string status = "pending", ms = "-", nodes = "-";
    if (i < run.cursor()) {
      const StageRecord& stage = run.stages()[i + 1];
      status = stage.status == StageStatus::kSkipped ? "skipped" : stage.changed ? "changed" : "unchanged";
      if (stage.status == StageStatus::kRan && times) ms = Millis(stage.seconds);
      nodes = fmt::format("{}", stage.nodes);
    } else if (i == run.cursor() && run.failure()) {
      status = "failed";
    }
    ctx.out.Print("  {} {:>3}  {:<{}} {}  {:<9} {:>9} {:>7}", i == run.cursor() ? "->" : "  ", i + 1, pass, width,
                  marks, status, ms, nodes);
    if (i == run.cursor() && run.failure()) ctx.out.Styled(Style::kBad, "          error: {}", run.failure()->error);
  }
  if (run.at_end()) ctx.out.Print("  -> (end)");
  return Status::Ok();
}

Status PipelineCommand(CommandContext& ctx) {
  constexpr std::string_view kSyntax =
      "pipeline [insert PASS [before|after PASS] | remove PASS | set PASS,PASS,... | default]";
  AIRSCOPE_ASSIGN_OR_RETURN(PipelineRun * run, Pipeline(ctx));
  const auto& args = ctx.args;
  if (args.empty()) return ListPipeline(ctx, *run);
  size_t cursor = run->cursor();
  if (args[0].text == "insert" &&
      (args.size() == 2 || (args.size() == 4 && (args[2].text == "before" || args[2].text == "after")))) {
    const PassInfo* pass = ctx.session.passes().Find(args[1].text);
    if (!pass) return Status::Errorf("pass '{}' is not registered", args[1].text);
    if (args.size() == 2) {
      run->AppendPass(pass->name);
      ctx.out.Print("appended '{}'", pass->name);
    } else {
      std::string anchor = ctx.session.CanonicalPassName(args[3].text);
      AIRSCOPE_RETURN_IF_ERROR(run->InsertPass(pass->name, anchor, args[2].text == "after"));
      ctx.out.Print("inserted '{}' {} '{}'", pass->name, args[2].text, anchor);
    }
  } else if ((args[0].text == "set" && args.size() == 2) || (args[0].text == "default" && args.size() == 1)) {
    std::vector<std::string> passes;
    if (args[0].text == "default") {
      passes = ctx.session.settings().DefaultPasses();
    } else {
      for (size_t start = 0; start <= args[1].text.size();) {
        size_t end = std::min(args[1].text.find(',', start), args[1].text.size());
        std::string name = ctx.session.CanonicalPassName(args[1].text.substr(start, end - start));
        if (!ctx.session.passes().Find(name) &&
            std::find(DefaultPipeline().begin(), DefaultPipeline().end(), name) == DefaultPipeline().end()) {
          return Status::Errorf("pass '{}' is not registered", name);
        }
        passes.push_back(std::move(name));
        start = end + 1;
      }
    }
    AIRSCOPE_RETURN_IF_ERROR(run->SetPasses(std::move(passes)));
    ctx.out.Print("pipeline: {}", fmt::join(run->passes(), ", "));
  } else if (args[0].text == "remove" && args.size() == 2) {
    std::string name = ctx.session.CanonicalPassName(args[1].text);
    AIRSCOPE_RETURN_IF_ERROR(run->RemovePass(name));
    ctx.out.Print("removed '{}'", name);
  } else {
    return UsageError(kSyntax);
  }
  if (run->cursor() != cursor) {
    ctx.out.Styled(Style::kAccent, "the edit was before the cursor: back to stage {}", run->cursor());
  }
  return Status::Ok();
}

Result<size_t> ParsePassCount(const Word& word) {
  std::optional<int64_t> value = WordAsInt(word);
  if (!value || *value < 1) {
    return ColumnErrorf(word.column, "expected a number of passes (1 or more), got '{}'", word.text);
  }
  return static_cast<size_t>(*value);
}

Status StepN(CommandContext& ctx, size_t n) {
  AIRSCOPE_ASSIGN_OR_RETURN(PipelineRun * run, Pipeline(ctx));
  if (SayIfAtEnd(ctx, *run)) return Status::Ok();
  Runner runner(ctx.session);
  RunReport report = run->Step(n, runner.env());
  return PrintRunReport(ctx, *run, report, runner);
}

Status Step(CommandContext& ctx) {
  if (ctx.args.size() > 1) return UsageError("step [N]");
  size_t n = 1;
  if (ctx.args.size() == 1) {
    AIRSCOPE_ASSIGN_OR_RETURN(size_t parsed, ParsePassCount(ctx.args[0]));
    n = parsed;
  }
  return StepN(ctx, n);
}

Status Next(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("next");
  return StepN(ctx, 1);
}

Status Run(CommandContext& ctx) {
  const auto& args = ctx.args;
  if (!(args.empty() || (args.size() == 2 && args[0].text == "until"))) return UsageError("run [until PASS]");
  AIRSCOPE_ASSIGN_OR_RETURN(PipelineRun * run, Pipeline(ctx));
  // With a target, RunUntil's own answer is the precise one, at the end too
  // (no such pass, or it already ran).
  if (args.empty() && SayIfAtEnd(ctx, *run)) return Status::Ok();
  Runner runner(ctx.session);
  std::optional<std::string_view> target;
  std::string until;
  if (args.size() == 2) target = until = ctx.session.CanonicalPassName(args[1].text);
  AIRSCOPE_ASSIGN_OR_RETURN(RunReport report, run->RunUntil(target, runner.env()));
  return PrintRunReport(ctx, *run, report, runner);
}

// break / skip share their shape: list, set, or clear with `off`.
Status Flag(CommandContext& ctx, std::string_view command) {
  const auto& args = ctx.args;
  std::string syntax = fmt::format("{} [PASS [off]]", command);
  if (args.size() > 2 || (args.size() == 2 && args[1].text != "off")) return UsageError(syntax);
  AIRSCOPE_ASSIGN_OR_RETURN(PipelineRun * run, Pipeline(ctx));
  bool is_break = command == "break";
  if (args.empty()) {
    const std::set<std::string>& set = is_break ? run->breakpoints() : run->skips();
    if (set.empty()) {
      ctx.out.Add(is_break ? "no breakpoints" : "no passes skipped");
    } else {
      ctx.out.Print("{}: {}", is_break ? "breakpoints" : "skipped", fmt::join(set, ", "));
    }
    return Status::Ok();
  }
  bool on = args.size() == 1;
  std::string pass = ctx.session.CanonicalPassName(args[0].text);
  AIRSCOPE_RETURN_IF_ERROR(is_break ? run->SetBreakpoint(pass, on) : run->SetSkip(pass, on));
  if (is_break) {
    ctx.out.Print("breakpoint before '{}'{}", pass, on ? "" : " removed");
  } else {
    ctx.out.Print("'{}' will {}", pass, on ? "be skipped" : "run again");
  }
  return Status::Ok();
}

Status Break(CommandContext& ctx) { return Flag(ctx, "break"); }
Status Skip(CommandContext& ctx) { return Flag(ctx, "skip"); }

Status Back(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("back");
  AIRSCOPE_ASSIGN_OR_RETURN(PipelineRun * run, Pipeline(ctx));
  std::string undone = run->cursor() > 0 ? run->stages().back().pass : "";
  AIRSCOPE_RETURN_IF_ERROR(run->Back());
  ctx.out.Print("undid '{}': at {}, {} nodes", undone, StageLabel(*run, run->cursor()), run->Current().size());
  return Status::Ok();
}

Status Reset(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("reset");
  AIRSCOPE_ASSIGN_OR_RETURN(PipelineRun * run, Pipeline(ctx));
  run->Reset();
  ctx.out.Print("back at the input (stage 0), {} nodes", run->Current().size());
  return Status::Ok();
}

std::string Bytes(uint64_t bytes) {
  if (bytes >= (uint64_t{1} << 30)) return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1 << 30));
  if (bytes >= (uint64_t{1} << 20)) return fmt::format("{:.1f} MiB", static_cast<double>(bytes) / (1 << 20));
  if (bytes >= 1024) return fmt::format("{:.1f} KiB", static_cast<double>(bytes) / 1024);
  return fmt::format("{} B", bytes);
}

// The FX text of the last graph StageChanges printed: the next changed
// stage's "before" is usually that very graph (stages a pass left alone
// share it), and a million-node graph's text takes a quarter second.
struct LastFxText {
  std::shared_ptr<const Graph> graph;
  std::string text;
};
// Defined below, with diff.
Result<std::string> StageChanges(Session& session, size_t k, LastFxText& last);

Status Stages(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("stages [--changes]");
  AIRSCOPE_ASSIGN_OR_RETURN(PipelineRun * run, Pipeline(ctx));
  const PipelineRun& r = *run;
  ctx.out.Styled(Style::kHeading, "stages of '{}': cursor at stage {}; snapshots ~{} of a {} budget",
                 ctx.session.current()->name, r.cursor(), Bytes(r.KeptBytes()), Bytes(r.options().memory_budget));
  const size_t width = PassColumn(r, 24);
  ctx.out.Print("  {:>5}  {:<{}} {:<9} {:<8} {:>7}  {}", "stage", "pass", width, "status", "changed", "nodes",
                "snapshot");
  LastFxText last;
  for (size_t k = 0; k <= r.cursor(); ++k) {
    const StageRecord& stage = r.stages()[k];
    size_t owner = r.OwnerOf(k);
    std::string snapshot = owner == k ? "" : fmt::format("= stage {}, ", owner);
    snapshot += r.IsKept(k) ? "kept" : "dropped (recomputed on demand)";
    ctx.out.Print("  {:>5}  {:<{}} {:<9} {:<8} {:>7}  {}", k, stage.pass, width, StageStatusName(stage.status),
                  k == 0          ? "-"
                  : stage.changed ? "yes"
                                  : "no",
                  stage.nodes, snapshot);
    if (ctx.flags.Has("--changes") && k > 0 && stage.changed) {
      AIRSCOPE_ASSIGN_OR_RETURN(std::string changes, StageChanges(ctx.session, k, last));
      ctx.out.Styled(Style::kDim, "         {}", changes);
    }
  }
  return Status::Ok();
}

void PrintNames(CommandContext& ctx, std::string_view what, const std::vector<std::string>& names) {
  if (names.empty()) return;
  ctx.out.Print("  {:<8} {}", what, JoinAtMost(names, 20));
}

// `diff --stats`: TorchAir's DEBUG record for the passes from stage a to b
// (one pass when b = a + 1), cost = their measured time when show-times is on.
void PrintPassStats(CommandContext& ctx, const PipelineRun& run, const StageGraph& a, const StageGraph& b) {
  std::vector<std::string> passes;
  double seconds = 0;
  for (size_t k = a.stage + 1; k <= b.stage && k < run.stages().size(); ++k) {
    passes.push_back(run.stages()[k].pass);
    if (run.stages()[k].status == StageStatus::kRan) seconds += run.stages()[k].seconds;
  }
  std::string name = passes.empty() ? std::string("none") : fmt::format("{}", fmt::join(passes, ", "));
  ctx.out.Print("{}", PassStatsTable(*a.graph, *b.graph, name, ShowTimes(ctx.session) ? seconds : 0.0));
}

// The diff of two stages' texts without context lines, alike hunks folded:
// alike changes are told apart without context lines (with them, changes a
// few lines apart merge into one hunk that nothing else is alike to).
FoldedDiff FoldedChanges(const std::string& text_a, const std::string& text_b, const StageGraph& a, const StageGraph& b,
                         std::string_view format) {
  std::string bare = UnifiedDiff(text_a, text_b, a.label, b.label, 0);
  return FoldAlikeHunks(bare, *a.graph, *b.graph, format, kMinAlikeHunks);
}

// `stages --changes`: what stage k's pass changed in FX text, one line.
Result<std::string> StageChanges(Session& session, size_t k, LastFxText& last) {
  AIRSCOPE_ASSIGN_OR_RETURN(StageGraph a, ResolveStageGraph(session, fmt::format("{}", k - 1)));
  AIRSCOPE_ASSIGN_OR_RETURN(StageGraph b, ResolveStageGraph(session, fmt::format("{}", k)));
  std::string text_a;
  if (last.graph == a.graph) {
    text_a = std::move(last.text);
  } else {
    AIRSCOPE_ASSIGN_OR_RETURN(text_a, GraphText(*a.graph, "fx"));
  }
  AIRSCOPE_ASSIGN_OR_RETURN(std::string text_b, GraphText(*b.graph, "fx"));
  FoldedDiff changes = FoldedChanges(text_a, text_b, a, b, "fx");
  last = {b.graph, std::move(text_b)};
  if (changes.hunks == 0) return std::string("the FX text is the same (the change is in what FX text does not print)");
  std::string line = fmt::format("{} hunk(s), +{} -{} lines", changes.hunks, changes.added, changes.removed);
  // Groups in the same repeats say so once: "x 6, x 6, x 6 alike hunks in repeats 0-1 of ...".
  std::vector<std::pair<std::string, std::vector<std::string>>> by_where;
  size_t alike = 0;  // hunks in the groups
  for (const FoldedDiff::Group& group : changes.groups) {
    auto it = std::find_if(by_where.begin(), by_where.end(), [&](const auto& w) { return w.first == group.where; });
    if (it == by_where.end()) it = by_where.insert(by_where.end(), {group.where, {}});
    it->second.push_back(fmt::format("x {}", group.hunks));
    alike += group.hunks;
  }
  for (const auto& [where, counts] : by_where)
    line += fmt::format("; {} alike hunks{}", fmt::join(counts, ", "), where);
  if (alike > 0 && alike < changes.hunks) line += fmt::format("; {} other(s)", changes.hunks - alike);
  return line + fmt::format(" (diff {})", k);
}

Status Diff(CommandContext& ctx) {
  constexpr std::string_view kSyntax = "diff [A] [B] [--format FORMAT] [--stats] [--all]";
  std::vector<std::string> stages;
  for (const Word& w : ctx.args) stages.push_back(w.text);
  const std::string format = ctx.flags.Value("--format") ? *ctx.flags.Value("--format") : "fx";
  const bool stats = ctx.flags.Has("--stats");
  if (stages.size() > 2) return UsageError(kSyntax);
  AIRSCOPE_ASSIGN_OR_RETURN(PipelineRun * run, Pipeline(ctx));
  if (stages.size() == 1) {  // `diff PASS`: what that one pass did, the stage before it to its stage
    AIRSCOPE_ASSIGN_OR_RETURN(StageGraph s, ResolveStageGraph(ctx.session, stages[0]));
    if (s.stage == 0) {
      return Status::Error("stage 0 is the input; no pass made it (diff 0 last compares it with the current stage)");
    }
    stages = {fmt::format("{}", s.stage - 1), fmt::format("{}", s.stage)};
  }
  if (stages.empty()) {
    if (run->cursor() == 0) {
      return Status::Error("no pass has run yet: nothing to diff (step first, or diff A B to compare two stages)");
    }
    stages = {fmt::format("{}", run->cursor() - 1), "last"};
  }
  AIRSCOPE_ASSIGN_OR_RETURN(StageGraph a, ResolveStageGraph(ctx.session, stages[0]));
  AIRSCOPE_ASSIGN_OR_RETURN(StageGraph b, ResolveStageGraph(ctx.session, stages[1]));
  if (stats) {
    if (a.stage > b.stage) return Status::Errorf("diff --stats: stage {} comes after stage {}", a.stage, b.stage);
    PrintPassStats(ctx, *run, a, b);
    return Status::Ok();
  }
  AIRSCOPE_ASSIGN_OR_RETURN(std::string text_a, GraphText(*a.graph, format));
  AIRSCOPE_ASSIGN_OR_RETURN(std::string text_b, GraphText(*b.graph, format));
  GraphDiff diff = DiffGraphs(*a.graph, *b.graph);
  std::string unified = UnifiedDiff(text_a, text_b, a.label, b.label);
  if (diff.empty() && unified.empty()) {
    ctx.out.Print("{} -> {}: no differences", a.label, b.label);
    return Status::Ok();
  }
  ctx.out.Styled(Style::kHeading, "{} -> {}: {} added, {} removed, {} changed", a.label, b.label, diff.added.size(),
                 diff.removed.size(), diff.changed.size());
  PrintNames(ctx, "added:", diff.added);
  PrintNames(ctx, "removed:", diff.removed);
  std::vector<std::string> changed;
  for (const NodeChange& c : diff.changed) changed.push_back(fmt::format("{} ({})", c.name, fmt::join(c.fields, ", ")));
  PrintNames(ctx, "changed:", changed);
  if (!ctx.flags.Has("--all")) {
    FoldedDiff folded = FoldedChanges(text_a, text_b, a, b, format);
    if (folded.folded > 0) {
      unified = std::move(folded.text);
      ctx.out.Styled(Style::kDim,
                     "  {} of {} changes are alike to one printed and fold; without context lines (--all prints the "
                     "whole diff)",
                     folded.folded, folded.hunks);
    }
  }
  for (std::string_view line : std::vector<std::string>{unified}) {
    size_t start = 0;
    while (start < line.size()) {
      size_t end = std::min(line.find('\n', start), line.size());
      std::string_view text = line.substr(start, end - start);
      Style style = text.starts_with("+") && !text.starts_with("+++")   ? Style::kGood
                    : text.starts_with("-") && !text.starts_with("---") ? Style::kBad
                    : text.starts_with("@@")                            ? Style::kAccent
                                                                        : Style::kPlain;
      ctx.out.Add(text, style);
      start = end + 1;
    }
  }
  return Status::Ok();
}

// Makes `graph` the current graph for commands while alive.
class GraphOverride {
 public:
  GraphOverride(Session& session, const Graph* graph) : session_(session) { session_.set_graph_override(graph); }
  ~GraphOverride() { session_.set_graph_override(nullptr); }
  GraphOverride(const GraphOverride&) = delete;
  GraphOverride& operator=(const GraphOverride&) = delete;

 private:
  Session& session_;
};

Status Bisect(CommandContext& ctx) {
  if (ctx.args.size() != 1) return UsageError("bisect \"COMMAND\"");
  const std::string& condition = ctx.args[0].text;
  if (ctx.interpreter.bisecting()) {
    ctx.interpreter.RefuseNestedBisect();
    return Status::Error(
        "bisect inside a bisect's condition (a script that sources itself?): refused, since every level would "
        "run its condition at each stage it checks");
  }
  Interpreter::BisectScope scope(ctx.interpreter);
  AIRSCOPE_ASSIGN_OR_RETURN(PipelineRun * run, Pipeline(ctx));
  // A copy shares the snapshots; running it to the end leaves the user's cursor alone.
  PipelineRun probe = *run;
  Runner runner(ctx.session);
  runner.env().on_stage = nullptr;  // bisect explores; it does not dump
  runner.env().ignore_breakpoints = true;
  AIRSCOPE_ASSIGN_OR_RETURN(RunReport report, probe.RunUntil(std::nullopt, runner.env()));
  if (report.stop == RunReport::Stop::kInterrupted) return report.error;
  if (report.stop == RunReport::Stop::kFailed) {
    ctx.out.Styled(Style::kBad, "note: the pipeline stops at stage {}: {}", probe.cursor(), report.error.message());
  }
  size_t last = probe.cursor();
  size_t checks = 0;
  std::string last_error;
  auto good = [&](size_t stage) -> Result<bool> {
    AIRSCOPE_ASSIGN_OR_RETURN(std::shared_ptr<const Graph> graph, probe.GraphAt(stage));
    GraphOverride scope(ctx.session, graph.get());
    AIRSCOPE_ASSIGN_OR_RETURN(ConditionVerdict verdict, RunCondition(ctx.interpreter, condition, "bisect"));
    const Status& status = verdict.status;
    ++checks;
    ctx.out.Styled(Style::kDim, "  {}: {}", StageLabel(probe, stage), status.ok() ? "good" : "bad");
    if (!status.ok()) last_error = status.message();
    return status.ok();
  };
  AIRSCOPE_ASSIGN_OR_RETURN(bool first, good(0));
  if (!first) {
    ctx.out.Print("the condition already fails on the input (stage 0): {}", last_error);
    return Status::Ok();
  }
  AIRSCOPE_ASSIGN_OR_RETURN(bool end, good(last));
  if (end) {
    ctx.out.Print("the condition holds at every stage (0..{}): no bad pass", last);
    return Status::Ok();
  }
  size_t lo = 0, hi = last;  // lo good, hi bad
  std::string hi_error = last_error;
  while (hi - lo > 1) {
    size_t mid = lo + (hi - lo) / 2;
    AIRSCOPE_ASSIGN_OR_RETURN(bool ok, good(mid));
    if (ok) {
      lo = mid;
    } else {
      hi = mid;
      hi_error = last_error;
    }
  }
  ctx.out.Styled(Style::kAccent, "first bad pass: {} (stage {}); last good: {} (stage {})", probe.stages()[hi].pass, hi,
                 probe.stages()[lo].pass, lo);
  ctx.out.Print("  at stage {}: {}", hi, hi_error);
  ctx.out.Styled(Style::kDim,
                 "  (binary search: {} of {} stages checked, assuming the condition stays false once it fails; "
                 "the cursor stays at stage {})",
                 checks, last + 1, run->cursor());
  return Status::Ok();
}

CompletionRule PassRule() { return CompletionRule{CompletionKind::kPass, {}}; }

}  // namespace

void RegisterPipelineCommands(CommandTable& table) {
  table.Add({"pipeline", "pipeline [insert|remove|set|default ...]",
             "the passes: cursor, breakpoints, skips, status, time, nodes (or edit the list)",
             "Lists the current graph's pipeline (the TorchAir reduce-overhead passes by default): `->` marks\n"
             "the next pass, `b` a breakpoint, `s` a skipped pass; status is changed, unchanged, skipped,\n"
             "failed (the last attempt at the cursor) or pending; then the pass's time in ms and the node\n"
             "count after it. Passes go by TorchAir's names; airscope's older short names (dce, remove_noop,\n"
             "reinplace, custom_pre, ...) find them too. Editing: `pipeline insert cse after\n"
             "eliminate_dead_code` adds a registered pass (without before/after: at the end); `pipeline remove\n"
             "eliminate_dead_code` drops one; `pipeline set aot,optimize_noop_ops` replaces the list; `pipeline "
             "default` restores TorchAir's. Editing before the cursor drops the\n"
             "stages after the edit (the cursor moves back).",
             PipelineCommand, [](const std::vector<std::string>& before) {
               if (before.empty())
                 return CompletionRule{CompletionKind::kFixed, {"insert", "remove", "set", "default"}};
               if (before[0] == "insert" && before.size() == 2) {
                 return CompletionRule{CompletionKind::kFixed, {"before", "after"}};
               }
               if (before.size() <= 3) return PassRule();
               return CompletionRule{};
             }});
  table.Add({"step", "step [N]", "run the next N passes (default 1)",
             "Runs the next N passes of the pipeline from the cursor, printing a line per stage (changed or\n"
             "not, node counts, time). Breakpoints do not stop a step. A pass that fails, throws or breaks\n"
             "lint is rolled back: the cursor and the graph stay as they were and the error names the pass.\n"
             "A pass that is not registered is reported the same way (skip it to go on).",
             Step, nullptr});
  table.Add({"next", "next", "run the next pass (step 1)", "Same as `step 1`.", Next, nullptr});
  table.Add({"run", "run [until PASS]", "run the pipeline to the end, a breakpoint, or until PASS has run",
             "Runs passes from the cursor until the end of the pipeline, or until the next breakpoint (it\n"
             "stops before that pass; a breakpoint at the cursor itself does not stop the run), or, with\n"
             "`until PASS`, until PASS has run (so `diff` shows what it did). Stops at a failing pass.",
             Run, [](const std::vector<std::string>& before) {
               if (before.empty()) return CompletionRule{CompletionKind::kFixed, {"until"}};
               return before.size() == 1 ? PassRule() : CompletionRule{};
             }});
  table.Add({"break", "break [PASS [off]]", "stop `run` before PASS (off: remove); list breakpoints",
             "`break eliminate_dead_code` makes `run` stop before it runs; `break eliminate_dead_code off`\n"
             "removes it; `break` lists them.",
             Break, [](const std::vector<std::string>& before) {
               if (before.empty()) return PassRule();
               return before.size() == 1 ? CompletionRule{CompletionKind::kFixed, {"off"}} : CompletionRule{};
             }});
  table.Add({"skip", "skip [PASS [off]]", "do not run PASS (off: run it again); list skipped passes",
             "A skipped pass still makes a stage (the graph unchanged), so stage numbers keep following the\n"
             "pass list. `skip decompose off` runs it again; `skip` lists the skipped passes.",
             Skip, [](const std::vector<std::string>& before) {
               if (before.empty()) return PassRule();
               return before.size() == 1 ? CompletionRule{CompletionKind::kFixed, {"off"}} : CompletionRule{};
             }});
  table.Add({"back", "back", "undo the last stage (the cursor moves back one pass)",
             "Returns to the previous stage: the current graph becomes what it was before the last pass, and\n"
             "that pass is next again. A stage whose snapshot was dropped for memory is recomputed.",
             Back, nullptr});
  table.Add({"reset", "reset", "back to the input graph (stage 0)",
             "Drops every stage but the input; the cursor goes back to the first pass. Breakpoints, skips\n"
             "and the pass list stay.",
             Reset, nullptr});
  table.Add({"stages",
             "stages [--changes]",
             "every stage so far: pass, status, nodes, and whether its snapshot is kept",
             "Lists stage 0 (the input) to the cursor. A pass that did not change the graph shares the\n"
             "snapshot of the stage before it (`= stage N`). Snapshots above pipeline.memory-budget (bytes,\n"
             "estimated from node counts) are dropped oldest first, never the input or the current stage;\n"
             "a dropped stage is recomputed on demand by replaying the passes from the nearest kept one.\n"
             "Stages are named by number, by pass name (its latest stage), `input` or `last` in\n"
             "show --stage, dump ... --stage, diff and bisect.\n"
             "--changes adds a line under each stage that changed the graph: its FX text diff's hunks and lines,\n"
             "and each group of 3 or more alike hunks (the same change under other node names) with the\n"
             "repeats of a repeated block it falls in, as `diff` folds them: a pass that rewrites each of 94\n"
             "layers the same way says `x 94 alike hunks in repeats 0-93 of ...`. It diffs every changed stage,\n"
             "recomputing dropped ones: seconds on a million-node graph.",
             Stages,
             nullptr,
             {{"--changes", "", {}}}});
  table.Add(
      {"diff",
       "diff [A] [B] [--format F] [--stats] [--all]",
       "what changed between two stages (default: what the last pass did)",
       "Compares stage A with stage B (default: the stage before the cursor with the current one; with\n"
       "one stage S, what S's pass did: stage S-1 with S): the nodes added, removed and changed (matched by\n"
       "name, saying whether op, target, args, kwargs, stream or meta changed), then a unified diff\n"
       "(diff -u style) of the two graphs' FX text, or of another text format with --format.\n"
       "--stats prints instead TorchAir's DEBUG record for the pass (graph_utils.py _compare_fx_graphs,\n"
       "logged after each FX pass): \"After fx graph pass(NAME) optimization:\", the cost line (the\n"
       "pass's measured time; only with show-times on), node counts before and after, removed and\n"
       "added node names, and the operations and targets tables in TorchAir's layout. NAME is the\n"
       "pass between A and B (several, comma separated, when B is more than one stage after A); with\n"
       "one stage S, the pass that made S. TorchAir\n"
       "orders names and rows by Python set order, which varies; airscope uses graph order.\n"
       "Hunks that make the same change under other node names (a pass rewriting every layer) print\n"
       "once when there are 3 or more of them, followed by a line with how many, where they start and,\n"
       "in FX text, which repeats of the graph's repeated block (`repeats`) they fall in; a layer changed\n"
       "in another way keeps its own hunk. --all prints every hunk.\n"
       "Example: diff input last   diff optimize_noop_ops   diff 3 5   diff --stats view_to_reshape",
       Diff,
       [](const std::vector<std::string>&) {
         return CompletionRule{CompletionKind::kStage, {}};
       },
       {{"--format", "F", {CompletionKind::kFixed, GraphFormatNames(true)}}, {"--stats", "", {}}, {"--all", "", {}}}});
  table.Add({"bisect", "bisect \"COMMAND\"", "find the first pass after which COMMAND (e.g. an expect) fails",
             "Runs the whole pipeline (from stage 0, ignoring breakpoints, on a copy: the cursor stays where\n"
             "it is) and binary-searches its stages for the first one at which COMMAND fails, running COMMAND\n"
             "with that stage as the current graph. Like LLVM's opt-bisect-limit, it assumes the condition,\n"
             "once false, stays false. Prints \"first bad pass: NAME (stage N); last good: NAME\".\n"
             "COMMAND may not run bisect itself (a script that sources itself would multiply the checks at\n"
             "every level): such a bisect is refused and the outer one gives no verdict.\n"
             "Example: bisect \"expect node mm stream stream_1\"",
             Bisect, nullptr});
}

}  // namespace airscope

// `compare`: airscope's pipeline against the stages a real TorchAir run
// recorded (repl/recorded_compare.h), for the recorded runs of the log or
// TORCH_COMPILE_DEBUG tree the current graph came from.
#include <algorithm>

#include <fmt/format.h>

#include "core/pass/graph_diff.h"
#include "core/scanner.h"
#include "repl/cache_state.h"
#include "repl/graph_text.h"
#include "repl/interpreter.h"
#include "repl/log_commands.h"
#include "repl/recorded_compare.h"

namespace airscope {
namespace {

constexpr const char* kCompareSyntax = "compare [RUN|all] [--isolated]";

// The run named `which` (a run's name, or any graph of it), or the run the
// current graph belongs to.
Result<const RecordedRun*> FindRun(const LogBundle& bundle, const Session& session, const Word* which) {
  auto holds = [](const RecordedRun& r, std::string_view name) {
    if (r.name == name || r.input.graph_name == name) return true;
    if (r.dynamo && r.dynamo->graph_name == name) return true;
    return std::any_of(r.stages.begin(), r.stages.end(), [&](const RecordedStage& s) { return s.graph_name == name; });
  };
  std::string name = which ? which->text : (session.current() ? session.current()->name : "");
  for (const RecordedRun& r : bundle.recorded) {
    if (holds(r, name)) return &r;
  }
  if (!which && bundle.recorded.size() == 1) return &bundle.recorded.front();
  std::vector<std::string> names;
  for (const RecordedRun& r : bundle.recorded) names.push_back(r.name);
  if (which) {
    return ColumnErrorf(which->column, "no recorded run '{}' (runs: {})", which->text, fmt::join(names, ", "));
  }
  return Status::Errorf("the current graph is in no recorded run: compare RUN, one of {} (or compare all)",
                        fmt::join(names, ", "));
}

// The recorded stages are TorchAir's output for the whole recorded input.
// When the current graph is one of the run's but no longer the graph the
// recording holds (minify tries a cut copy in its place), comparing would set
// a cut graph against an uncut record: refused, since what TorchAir would
// have made of a part of its input is not in the recording.
Status CheckCurrentIsRecorded(const Session& session, const RecordedRun& run) {
  const Session::Entry* entry = session.current();
  if (!entry) return Status::Ok();
  auto check = [&](const RecordedStage& stage) -> Status {
    if (stage.graph_name != entry->name || entry->loaded.graph == stage.graph) return Status::Ok();
    return Status::Errorf(
        "compare: '{}' is not the graph the recording holds (a copy in its place, as minify tries): run {}'s "
        "recorded stages are TorchAir's output for the whole recorded input, and what TorchAir would make of "
        "another graph is not recorded, so it is not compared with them",
        entry->name, run.name);
  };
  AIRSCOPE_RETURN_IF_ERROR(check(run.input));
  if (run.dynamo) AIRSCOPE_RETURN_IF_ERROR(check(*run.dynamo));
  for (const RecordedStage& stage : run.stages) AIRSCOPE_RETURN_IF_ERROR(check(stage));
  return Status::Ok();
}

std::string Changed(const CompareRow& row) {
  if (row.verdict == CompareRow::Verdict::kNotModelled || row.verdict == CompareRow::Verdict::kOutOfOrder) return "";
  if (!row.actual) return "";
  return row.changed ? "changed" : "same";
}

Style VerdictStyle(CompareRow::Verdict v) {
  switch (v) {
    case CompareRow::Verdict::kMatch: return Style::kGood;
    case CompareRow::Verdict::kDiffer:
    case CompareRow::Verdict::kFailed: return Style::kBad;
    default: return Style::kDim;
  }
}

std::string CompareSummary(const CompareReport& report) {
  size_t compared = report.matched + report.differed;
  if (compared == 0) return "no recorded stage could be compared";
  if (!report.first_divergence) {
    return compared == 1 ? std::string("the one compared stage matches")
                         : fmt::format("all {} compared stages match", compared);
  }
  const CompareRow& first = report.rows[*report.first_divergence];
  return fmt::format("{} of {} compared stages match; the first divergence is after {}", report.matched, compared,
                     first.pass);
}

void PrintReport(CommandContext& ctx, const CompareReport& report) {
  ctx.out.Styled(Style::kHeading, "compare {} ({}, {}): airscope's pipeline on the recorded input {}", report.run,
                 report.source,
                 report.isolated ? "isolated: each stretch of passes from the recorded graph before it"
                                 : "chained: airscope's graph carried from stage to stage",
                 report.input);
  ctx.out.Print("  {:<38} {:<13} {:<8} {}", "after pass", "verdict", "airscope", "recorded");
  for (const CompareRow& row : report.rows) {
    ctx.out.Styled(VerdictStyle(row.verdict), "  {:<38} {:<13} {:<8} {}", row.pass, CompareVerdictName(row.verdict),
                   Changed(row), row.label.empty() ? "-" : row.label);
    if (!row.why.empty() && row.verdict != CompareRow::Verdict::kMatch) ctx.out.Print("      {}", row.why);
    for (const std::string& note : row.notes) ctx.out.Styled(Style::kDim, "      note: {}", note);
  }
  for (const std::string& note : report.notes) ctx.out.Styled(Style::kDim, "  note: {}", note);
  ctx.out.Styled(report.first_divergence ? Style::kBad : Style::kGood, "result: {}", CompareSummary(report));
  if (!report.first_divergence) return;
  const CompareRow& first = report.rows[*report.first_divergence];
  Result<std::string> expected = GraphText(*first.expected, "fx");
  Result<std::string> actual = GraphText(*first.actual, "fx");
  if (!expected.ok() || !actual.ok()) return;
  ctx.out.Print("first divergence, as FX text (node names may differ where the graphs do not):");
  ctx.out.AddBlock(UnifiedDiff(*expected, *actual, fmt::format("recorded {}", first.recorded),
                               fmt::format("airscope after {}", first.pass)));
}

Status Compare(CommandContext& ctx) {
  if (ctx.args.size() > 1) return UsageError(kCompareSyntax);
  const bool isolated = ctx.flags.Has("--isolated");
  const Word* which = ctx.args.empty() ? nullptr : &ctx.args[0];
  const CacheState* state = FindCacheState(ctx.session);
  const LogBundle* bundle = state && state->bundle ? state->bundle.get() : nullptr;
  if (!bundle || bundle->recorded.empty()) {
    AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
    return Status::Errorf(
        "no recorded TorchAir stages for '{}': compare needs what a real run recorded between TorchAir's passes: a "
        "TORCH_COMPILE_DEBUG tree (model__K/forward/NNN_aot_forward_graph*.txt), TorchAir's graph_dump files "
        "(dynamo_original_graph_N and dynamo_optimized_graph_N), or TorchAir's DEBUG log lines printing a graph after "
        "a pass; load one of those",
        entry->name);
  }
  PassContext context = ctx.session.MakePassContext();
  if (which && which->text == "all") {
    ctx.out.Styled(Style::kHeading, "compare all: {} recorded run(s) of {} ({})", bundle->recorded.size(), bundle->path,
                   isolated ? "isolated" : "chained");
    for (const RecordedRun& run : bundle->recorded) {
      if (Status recorded = CheckCurrentIsRecorded(ctx.session, run); !recorded.ok()) {
        ctx.out.Styled(Style::kBad, "  {}: {}", run.name, recorded.message());
        continue;
      }
      Result<CompareReport> report = CompareRecorded(run, ctx.session.passes(), context, isolated);
      if (!report.ok()) {
        ctx.out.Styled(Style::kBad, "  {}: {}", run.name, report.status().message());
        continue;
      }
      ctx.out.Styled(report->first_divergence ? Style::kBad : Style::kGood, "  {:<36} {}", run.name,
                     CompareSummary(*report));
    }
    return Status::Ok();
  }
  AIRSCOPE_ASSIGN_OR_RETURN(const RecordedRun* run, FindRun(*bundle, ctx.session, which));
  AIRSCOPE_RETURN_IF_ERROR(CheckCurrentIsRecorded(ctx.session, *run));
  AIRSCOPE_ASSIGN_OR_RETURN(CompareReport report, CompareRecorded(*run, ctx.session.passes(), context, isolated));
  PrintReport(ctx, report);
  return Status::Ok();
}

}  // namespace

void RegisterCompareCommand(CommandTable& table) {
  table.Add({"compare",
             kCompareSyntax,
             "airscope's pipeline against the stages a real TorchAir run recorded, stage by stage",
             "Runs airscope's pipeline on the input a real TorchAir run recorded and compares, after each pass the\n"
             "run recorded, airscope's graph with the recorded one, up to node names (what `expect graph matches`\n"
             "compares: op kinds, targets, args, kwargs, output; not names, shapes or streams). Lists every\n"
             "recorded stage with its verdict and shows the first divergence as a unified diff of the FX texts.\n"
             "Recorded runs come from what the current graph was loaded with:\n"
             "  - a TORCH_COMPILE_DEBUG tree: model__K/<phase>/000_aot_<phase>_graph.txt is the input (the graph\n"
             "    TorchAir's compiler received, npu_fx_compiler.py:617-618), each NNN_..._graph_after_<pass>.txt a\n"
             "    stage (graph_transform_observer.py:37-88). TorchAir dumps after every pass it calls, so a pass\n"
             "    airscope runs under the session's config that has no dump is named: TorchAir did not call it\n"
             "    (set config.* as that run had it). With dynamo_out_graph.txt and no backward phase, an `aot` row\n"
             "    compares airscope's aot on the Dynamo graph with the 000 graph.\n"
             "  - graph_dump files: dynamo_original_graph_N (after _optimize_fx, npu_fx_compiler.py:689-690) is the\n"
             "    input, dynamo_optimized_graph_N (after every AclConcreteGraph pass, fx2acl_converter.py:310-311)\n"
             "    the one stage.\n"
             "  - TorchAir's DEBUG log lines: `compiler inputs ... graph:` is the input; `[forward] after\n"
             "    [post_grad_custom_pre_pass] execution, graph is`, `after fx graph optimization, graph is`, `after\n"
             "    graph optimization, graph is` and the like are stages (repl/recorded_runs.h lists them).\n"
             "Chained (the default), airscope carries its own graph from stage to stage, so a divergence shows in\n"
             "every later stage; --isolated starts each stretch of passes from the recorded graph before it, so each\n"
             "row judges those passes alone. A user pass the recording ran (post_grad_custom_*_pass) that the\n"
             "session has not defined (pass add pre|post) is Python airscope cannot run: it continues from the\n"
             "recorded graph after it (re-synced). The fx graph name in event tags is taken from the recording.\n"
             "`compare RUN` names a run (or any of its graphs); `compare all` gives one line per run.",
             Compare,
             nullptr,
             {{"--isolated", "", {}}}});
}

}  // namespace airscope

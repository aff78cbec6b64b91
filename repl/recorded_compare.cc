#include "repl/recorded_compare.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/ir/graph_match.h"
#include "core/pass/pipeline_run.h"

namespace airscope {
namespace {

bool IsUserPass(std::string_view pass) {
  return pass == "post_grad_custom_pre_pass" || pass == "post_grad_custom_post_pass";
}

// Whether TorchAir calls (and so dumps after) `pass` under `gate`.
bool TorchAirDumps(std::string_view pass, const TorchAirDumpGate& gate) {
  StageRecord stage;
  stage.pass = std::string(pass);
  stage.status = StageStatus::kRan;
  return TorchAirDumpName(stage, gate).has_value();
}

// The switch that decides whether TorchAir calls `pass`, for notes.
std::string SwitchOf(std::string_view pass) {
  if (pass == "optimize_noop_ops") return "config.experimental_config.remove_noop_ops";
  if (pass == "apply_pattern_passes") return "config.experimental_config.pattern_fusion_pass";
  if (pass == "remove_cat_ops") return "config.debug.aclgraph.remove_cat_ops";
  if (pass == "reinplace_inplaceable_ops_pass") return "config.debug.aclgraph.disable_reinplace_inplaceable_ops_pass";
  if (pass == "reinplace_input_mutated_ops" || pass == "decompose_auto_functionalized") {
    return "config.debug.aclgraph.disable_reinplace_input_mutated_ops_pass";
  }
  if (pass == "post_grad_custom_pre_pass") return "pass add pre";
  if (pass == "post_grad_custom_post_pass") return "pass add post";
  return "";
}

// One stretch of passes run on `input`.
struct Segment {
  Status error;  // a pass failed (then `graph` is the graph before it)
  std::string failed_pass;
  std::shared_ptr<const Graph> graph;  // after the last pass
  bool changed = false;
  struct Ran {
    std::string pass;
    bool changed = false;
    std::shared_ptr<const Graph> graph;
    std::vector<std::string> remarks;
  };
  std::vector<Ran> ran;
};

Segment RunSegment(const std::shared_ptr<const Graph>& input, std::vector<std::string> list, const PassRegistry& passes,
                   const PassContext& context) {
  Segment out;
  out.graph = input;
  if (list.empty()) return out;
  PassContext local = context;
  PipelineEnv env;
  env.passes = &passes;
  env.context = &local;
  env.ignore_breakpoints = true;
  PipelineRun run(input, std::move(list));
  Result<RunReport> report = run.RunUntil(std::nullopt, env);
  if (!report.ok()) {
    out.error = report.status();
  } else if (report->stopped_early()) {
    out.error = report->error;
    out.failed_pass = run.passes()[run.cursor()];
  }
  for (const StageRecord& stage : run.stages()) {
    if (stage.number == 0) continue;
    Result<std::shared_ptr<const Graph>> at = run.GraphAt(stage.number);
    std::vector<std::string> remarks = stage.remarks;
    if (!stage.effects_changed.empty()) {
      remarks.push_back(fmt::format("it changes what the graph computes: {}", stage.effects_changed));
    }
    out.ran.push_back({stage.pass, stage.changed, at.ok() ? *at : nullptr, std::move(remarks)});
    out.changed = out.changed || stage.changed;
  }
  out.graph = run.CurrentShared();
  return out;
}

}  // namespace

std::string_view CompareVerdictName(CompareRow::Verdict verdict) {
  switch (verdict) {
    case CompareRow::Verdict::kMatch: return "matches";
    case CompareRow::Verdict::kDiffer: return "differs";
    case CompareRow::Verdict::kResynced: return "re-synced";
    case CompareRow::Verdict::kNotRecorded: return "not recorded";
    case CompareRow::Verdict::kNotModelled: return "not modelled";
    case CompareRow::Verdict::kOutOfOrder: return "out of order";
    case CompareRow::Verdict::kFailed: return "failed";
    case CompareRow::Verdict::kNotCompared: return "not compared";
  }
  return "?";
}

Result<CompareReport> CompareRecorded(const RecordedRun& run, const PassRegistry& passes, const PassContext& context,
                                      bool isolated) {
  if (!run.input.graph) return Status::Errorf("recorded run {} has no input graph", run.name);
  CompareReport report;
  report.run = run.name;
  report.input = run.input.graph_name;
  report.source = run.source;
  report.isolated = isolated;
  PassContext ctx = context;
  if (!run.fx_graph_name.empty()) {
    ctx.fx_graph_name = run.fx_graph_name;
    report.notes.push_back(
        fmt::format("fx graph name {} (AclConcreteGraph's, as the recording shows it)", run.fx_graph_name));
  }
  if (run.dynamo_graph_counter >= 0) ctx.dynamo_graph_counter = run.dynamo_graph_counter;
  TorchAirDumpGate gate;
  gate.config = ctx.config;
  gate.custom_pre = !ctx.custom_pre.empty();
  gate.custom_post = !ctx.custom_post.empty();

  // airscope's passes after the one the input was recorded after, up to lower.
  const std::vector<std::string>& all = DefaultPipeline();
  auto from = std::find(all.begin(), all.end(), run.input_after);
  auto to = std::find(all.begin(), all.end(), "lower");
  std::vector<std::string> order(from == all.end() ? all.begin() : from + 1, to);

  auto add_row = [&report](CompareRow row) {
    if (row.verdict == CompareRow::Verdict::kMatch) ++report.matched;
    if (row.verdict == CompareRow::Verdict::kDiffer) {
      ++report.differed;
      if (!report.first_divergence) report.first_divergence = report.rows.size();
    }
    report.rows.push_back(std::move(row));
  };

  // The aot row: airscope's aot on dynamo_out_graph.txt against the recorded input.
  if (run.dynamo && run.input_after == "aot") {
    CompareRow row;
    row.pass = "aot";
    row.recorded = run.input.graph_name;
    row.label = fmt::format("{} -> {}", run.dynamo->label, run.input.label);
    row.expected = run.input.graph;
    if (run.training) {
      row.verdict = CompareRow::Verdict::kNotCompared;
      row.why =
          "a training graph (the model has a backward phase): AOT partitioned the joint graph, and airscope's "
          "aot makes inference graphs only";
      add_row(std::move(row));
    } else {
      Segment seg = RunSegment(run.dynamo->graph, {"replace_stream_event_pass", "aot"}, passes, ctx);
      row.actual = seg.graph;
      row.changed = seg.changed;
      if (!seg.error.ok()) {
        row.verdict = CompareRow::Verdict::kFailed;
        row.why = seg.error.message();
      } else {
        std::string why;
        row.verdict = MatchGraphs(*run.input.graph, *seg.graph, &why) ? CompareRow::Verdict::kMatch
                                                                      : CompareRow::Verdict::kDiffer;
        row.why = why;
      }
      add_row(std::move(row));
    }
  }

  std::shared_ptr<const Graph> current = run.input.graph;
  size_t cursor = 0;  // index into `order` of the next pass to run
  std::string last_compared = run.input_after;
  std::vector<std::string> undumped;  // unchanged passes TorchAir would have dumped after
  int last_count = run.input.count;   // NNN of the last recorded stage (-1: not numbered)
  for (const RecordedStage& stage : run.stages) {
    CompareRow row;
    row.pass = stage.after_pass;
    row.recorded = stage.graph_name;
    row.label = stage.label;
    row.expected = stage.graph;
    auto at = std::find(order.begin() + static_cast<std::ptrdiff_t>(cursor), order.end(), stage.after_pass);
    if (at == order.end()) {
      bool earlier = std::find(order.begin(), order.end(), stage.after_pass) != order.end();
      row.verdict = earlier ? CompareRow::Verdict::kOutOfOrder : CompareRow::Verdict::kNotModelled;
      row.why = earlier
                    ? fmt::format("recorded after {}, which TorchAir runs before {}", stage.after_pass, last_compared)
                    : fmt::format(
                          "'{}' is not a pass of airscope's pipeline: airscope continues from the recorded "
                          "graph after it",
                          stage.after_pass);
      if (!earlier) current = stage.graph;
      add_row(std::move(row));
      continue;
    }
    size_t target = static_cast<size_t>(at - order.begin());
    std::vector<std::string> stretch(order.begin() + static_cast<std::ptrdiff_t>(cursor), at + 1);
    Segment seg = RunSegment(current, stretch, passes, ctx);
    cursor = target + 1;
    last_compared = stage.after_pass;
    // Passes of the stretch TorchAir would have dumped after (under this
    // session's config) with no dump in a recording that has every dump.
    std::vector<std::string> predicted;
    for (const Segment::Ran& ran : seg.ran) {
      if (ran.pass != stage.after_pass && TorchAirDumps(ran.pass, gate)) predicted.push_back(ran.pass);
    }
    // TorchAir numbers a phase's dumps: a gap is files the tree lost, not passes TorchAir skipped.
    int lost = stage.count >= 0 && last_count >= 0 ? stage.count - last_count - 1 : 0;
    last_count = stage.count;
    if (run.every_pass_dumped && lost > 0) {
      if (static_cast<size_t>(lost) == predicted.size()) {
        report.notes.push_back(
            fmt::format("the tree lacks dump{} {:03}{} (after {}, by TorchAir's order under this "
                        "session's config): a partial tree, those stages are not compared",
                        lost == 1 ? "" : "s", stage.count - lost,
                        lost == 1 ? "" : fmt::format(" to {:03}", stage.count - 1), fmt::join(predicted, ", ")));
      } else {
        report.notes.push_back(
            fmt::format("before {:03} the tree lacks {} dump(s) TorchAir wrote, and this session's "
                        "config predicts {} ({}): the config differs, or the tree is partial",
                        stage.count, lost, predicted.size(), fmt::join(predicted, ", ")));
      }
      predicted.clear();
    }
    for (const Segment::Ran& ran : seg.ran) {
      if (ran.pass == stage.after_pass || !run.every_pass_dumped ||
          std::find(predicted.begin(), predicted.end(), ran.pass) == predicted.end()) {
        continue;
      }
      if (!ran.changed) {
        undumped.push_back(ran.pass);
        continue;
      }
      CompareRow missing;
      missing.verdict = CompareRow::Verdict::kNotRecorded;
      missing.pass = ran.pass;
      missing.changed = true;
      missing.actual = ran.graph;
      missing.why = fmt::format(
          "airscope's {} changed the graph, but the recording has no dump after it: TorchAir did "
          "not call it in that run{}",
          ran.pass, SwitchOf(ran.pass).empty() ? "" : fmt::format(" ({} differs?)", SwitchOf(ran.pass)));
      add_row(std::move(missing));
    }
    row.changed = seg.changed;
    row.actual = seg.graph;
    if (!seg.error.ok()) {
      row.verdict = CompareRow::Verdict::kFailed;
      row.why = fmt::format("{}: {}", seg.failed_pass, seg.error.message());
      row.notes.push_back("airscope continues from the recorded graph");
      current = stage.graph;
      add_row(std::move(row));
      continue;
    }
    if (!IsUserPass(stage.after_pass) && !TorchAirDumps(stage.after_pass, gate)) {
      std::string sw = SwitchOf(stage.after_pass);
      row.notes.push_back(
          fmt::format("under this session's config TorchAir would not call {}{}; the recording shows it "
                      "ran",
                      stage.after_pass, sw.empty() ? "" : fmt::format(" (see {})", sw)));
    }
    std::string why;
    bool match = MatchGraphs(*stage.graph, *seg.graph, &why);
    bool session_has_it = stage.after_pass == "post_grad_custom_pre_pass"    ? !ctx.custom_pre.empty()
                          : stage.after_pass == "post_grad_custom_post_pass" ? !ctx.custom_post.empty()
                                                                             : true;
    if (!match && stage.user_pass && !session_has_it) {
      row.verdict = CompareRow::Verdict::kResynced;
      row.why = fmt::format(
          "the recorded run had a {} (user code airscope cannot run; `{}` defines one): airscope "
          "continues from the recorded graph after it",
          stage.after_pass, SwitchOf(stage.after_pass));
      current = stage.graph;
      add_row(std::move(row));
      continue;
    }
    row.verdict = match ? CompareRow::Verdict::kMatch : CompareRow::Verdict::kDiffer;
    row.why = why;
    if (!match && (isolated || !report.first_divergence) && !seg.ran.empty() &&
        seg.ran.back().pass == stage.after_pass) {
      // What airscope's pass said of itself (a skip and its reason, what it matched),
      // where the pass is to blame: the first divergence, or any row when isolated.
      for (const std::string& remark : seg.ran.back().remarks) row.notes.push_back("airscope's pass: " + remark);
    }
    current = isolated ? stage.graph : seg.graph;
    add_row(std::move(row));
  }
  if (!undumped.empty()) {
    std::vector<std::string> named;
    for (const std::string& pass : undumped) {
      std::string sw = SwitchOf(pass);
      named.push_back(sw.empty() ? pass : fmt::format("{} ({})", pass, sw));
    }
    report.notes.push_back(
        fmt::format("the recording has no dump after {}: TorchAir did not call {} in that run, airscope "
                    "did (and changed nothing there); set the config as that run had it",
                    fmt::join(named, ", "), undumped.size() == 1 ? "it" : "them"));
  }
  for (const std::string& file : run.unloaded) {
    report.notes.push_back(fmt::format("not compared: {} did not load (the load's warning says why)", file));
  }
  if (run.every_pass_dumped && cursor < order.size()) {
    std::vector<std::string> next;
    for (size_t i = cursor; i < order.size(); ++i) {
      if (TorchAirDumps(order[i], gate)) next.push_back(order[i]);
    }
    if (!next.empty()) {
      report.notes.push_back(fmt::format(
          "the recorded stages end after {}; under this session's config TorchAir dumps after {} more pass{} ({}{}): "
          "did that compile stop there, was it another TorchAir version, or is the tree partial?",
          last_compared, next.size(), next.size() == 1 ? "" : "es", next.front(),
          next.size() == 1 ? "" : fmt::format(" ... {}", next.back())));
    }
  }
  return report;
}

}  // namespace airscope

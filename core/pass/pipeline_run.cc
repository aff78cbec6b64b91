#include "core/pass/pipeline_run.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/interrupt.h"
#include "core/ops/op_registry.h"
#include "core/pass/decomposition.h"
#include "core/suggest.h"

namespace airscope {

std::string_view StageStatusName(StageStatus status) {
  switch (status) {
    case StageStatus::kInput: return "input";
    case StageStatus::kRan: return "ran";
    case StageStatus::kSkipped: return "skipped";
    case StageStatus::kFailed: return "failed";
  }
  return "?";
}

PipelineRun::PipelineRun(std::shared_ptr<const Graph> input, std::vector<std::string> passes, PipelineOptions options)
    : passes_(std::move(passes)), options_(options) {
  StageRecord record;
  record.pass = "input";
  record.nodes = input->size();
  stages_.push_back(std::move(record));
  snapshots_.push_back(std::move(input));
  recipes_.emplace_back();
}

bool PipelineRun::Contains(std::string_view pass) const {
  return std::find(passes_.begin(), passes_.end(), pass) != passes_.end();
}

PipelineRun::StageRecipe PipelineRun::RecipeFor(const PipelineEnv& env) {
  StageRecipe recipe;
  recipe.passes = env.passes;
  PassContext context = *env.context;  // a few strings and switches: a copy per stage is cheap
  context.remarks.clear();
  recipe.context = std::make_shared<const PassContext>(std::move(context));
  if (env.passes) recipe.passes_version = env.passes->version();
  if (env.context->decompositions) recipe.decompositions_version = env.context->decompositions->version();
  if (env.context->registry) recipe.ops_version = env.context->registry->version();
  return recipe;
}

std::string PipelineRun::ChangedSince(const StageRecipe& recipe) {
  const PassContext* context = recipe.context.get();
  if (recipe.passes && recipe.passes->version() != recipe.passes_version) {
    return "the pass registry (pass define, plugin load)";
  }
  if (context && context->decompositions && context->decompositions->version() != recipe.decompositions_version) {
    return "the decomposition table (decomp add)";
  }
  if (context && context->registry && context->registry->version() != recipe.ops_version) return "the op registry";
  return "";
}

Status PipelineRun::NotInPipeline(std::string_view pass) const {
  return Status::Errorf("no pass '{}' in the pipeline{}", pass, DidYouMean(pass, passes_));
}

Status PipelineRun::InsertPass(std::string pass, std::string_view anchor, bool after) {
  auto it = std::find(passes_.begin(), passes_.end(), anchor);
  if (it == passes_.end()) return NotInPipeline(anchor);
  size_t position = static_cast<size_t>(it - passes_.begin()) + (after ? 1 : 0);
  // Stages after the insertion point no longer follow the pass list.
  if (position < cursor()) AIRSCOPE_RETURN_IF_ERROR(TruncateTo(position));
  if (position == cursor()) failure_.reset();
  passes_.insert(passes_.begin() + static_cast<std::ptrdiff_t>(position), std::move(pass));
  return Status::Ok();
}

Status PipelineRun::SetPasses(std::vector<std::string> passes) {
  size_t same = 0;
  while (same < passes.size() && same < passes_.size() && passes[same] == passes_[same]) ++same;
  if (same < cursor()) AIRSCOPE_RETURN_IF_ERROR(TruncateTo(same));
  if (same <= cursor()) failure_.reset();
  passes_ = std::move(passes);
  return Status::Ok();
}

Status PipelineRun::RemovePass(std::string_view pass) {
  auto it = std::find(passes_.begin(), passes_.end(), pass);
  if (it == passes_.end()) return NotInPipeline(pass);
  size_t position = static_cast<size_t>(it - passes_.begin());
  if (position < cursor()) AIRSCOPE_RETURN_IF_ERROR(TruncateTo(position));
  if (position == cursor()) failure_.reset();
  passes_.erase(it);
  return Status::Ok();
}

Status PipelineRun::SetBreakpoint(std::string_view pass, bool on) {
  std::string name(pass);
  if (on) {
    if (!Contains(pass)) return NotInPipeline(pass);
    breakpoints_.insert(name);
  } else if (breakpoints_.erase(name) == 0) {
    return Status::Errorf("no breakpoint on '{}'", pass);
  }
  return Status::Ok();
}

Status PipelineRun::SetSkip(std::string_view pass, bool on) {
  std::string name(pass);
  if (on) {
    if (!Contains(pass)) return NotInPipeline(pass);
    skips_.insert(name);
  } else if (skips_.erase(name) == 0) {
    return Status::Errorf("pass '{}' is not skipped", pass);
  }
  return Status::Ok();
}

Status PipelineRun::RunOne(const PipelineEnv& env) {
  const std::string& name = passes_[cursor()];
  StageRecord record;
  record.number = cursor() + 1;
  record.pass = name;
  if (IsSkipped(name)) {
    record.status = StageStatus::kSkipped;
    record.nodes = Current().size();
    stages_.push_back(std::move(record));
    snapshots_.push_back(snapshots_.back());
    recipes_.emplace_back();  // a skipped pass changes nothing: nothing to replay
    failure_.reset();
    AnnounceStage(env);
    return Status::Ok();
  }
  auto fail = [&](Status error) {
    record.status = StageStatus::kFailed;
    record.error = error.message();
    record.nodes = Current().size();
    failure_ = std::move(record);
    return error;
  };
  if (!env.passes || !env.context) return fail(Status::Error("no pass registry to run passes with"));
  const PassInfo* info = env.passes->Find(name);
  if (!info) return fail(Status::Errorf("pass '{}' is not registered", name));
  PassManager manager;
  for (PassInstrumentation* inst : env.instrumentations) manager.AddInstrumentation(inst);
  std::shared_ptr<const Graph> base = snapshots_.back();
  if (env.context->check_effects && !effects_.Holds(base)) {
    // The registry and schemas outlive the run's call, and the call waits for the summary.
    effects_.Start(base, RegistryOf(*env.context), EffectTablesOf(*env.context));
  }
  if (!work_.graph || work_.base != base || work_.graph->version() != work_.version) {
    work_.graph = base->Clone();
    work_.base = base;
    work_.version = work_.graph->version();
  }
  Graph& graph = *work_.graph;
  // Trust the graph, not the pass's word: an untouched graph, or a touched one
  // that compares equal, shares the snapshot. A changed graph becomes the
  // snapshot, and the next pass will want a copy of it: both the comparison
  // and that copy are made while the manager's effect check runs.
  // The working copy is never counted against the budget (the next pass
  // makes it anyway); made early, it lives beside the snapshots that Evict
  // would drop once the new one is kept, and would raise the peak by them.
  // So it is made early only when Evict will drop nothing. Evict cannot run
  // first: until the check passes, the old snapshot is the rollback point.
  bool same = true;
  std::unique_ptr<Graph> next_work;
  bool more_passes = cursor() + 1 < passes_.size();
  auto compare_and_copy = [&](const Graph& after) {
    same = SameGraph(after, *base);
    bool nothing_to_evict = KeptBytes() + EstimateBytes(after.size()) <= options_.memory_budget;
    if (!same && more_passes && nothing_to_evict) next_work = after.Clone();
  };
  // The current snapshot is the rollback point: no second copy.
  Result<PassOutcome> outcome =
      manager.Run(*info, graph, *env.context, base.get(), effects_.For(base), compare_and_copy);
  if (!outcome.ok()) {
    work_.version = graph.version();  // the manager restored it to equal `base`
    return fail(outcome.status());
  }
  bool touched = graph.version() != work_.version;
  bool changed = touched && !same;
  std::unique_ptr<Graph> work;
  if (touched) {
    // Changed: it becomes the snapshot. Touched but equal: dropped, since it
    // may differ where SameGraph does not look (e.g. names it reserved).
    work = std::move(work_.graph);
    work_ = WorkingCopy();
  }
  record.status = StageStatus::kRan;
  record.changed = changed;
  record.seconds = outcome->seconds;
  record.remarks = std::move(outcome->remarks);
  record.effects_changed = std::move(outcome->effects_changed);
  if (changed != outcome->changed) {
    record.remarks.push_back(changed ? "the pass said it changed nothing, but the graph differs"
                                     : "the pass said it changed the graph, but it is the same");
  }
  record.nodes = changed ? work->size() : base->size();
  stages_.push_back(std::move(record));
  snapshots_.push_back(changed ? std::shared_ptr<const Graph>(std::move(work)) : snapshots_.back());
  if (changed && next_work) {
    work_.version = next_work->version();
    work_.graph = std::move(next_work);
    work_.base = snapshots_.back();
  }
  recipes_.push_back(RecipeFor(env));
  if (changed && outcome->effects) effects_.Set(snapshots_.back(), std::move(outcome->effects));
  failure_.reset();
  // A pass the check skips (EffectPolicy::kUnchecked) never waited for the
  // old snapshot's summary, which may still be reading it: Evict may drop it.
  if (changed) effects_.Wait();
  Evict();
  AnnounceStage(env);
  return Status::Ok();
}

void PipelineRun::AnnounceStage(const PipelineEnv& env) const {
  if (!env.on_stage) return;
  // A dump may fork a child to lay out a drawing. A child forked while the
  // summary's thread holds a lock (the allocator's, under the sanitizers)
  // inherits it held and waits for ever: the thread must be done first.
  effects_.Wait();
  env.on_stage(stages_.back(), Current());
}

RunReport PipelineRun::Step(size_t n, const PipelineEnv& env) {
  RunReport report;
  report.first_stage = cursor() + 1;
  if (cursor() == 0 && n > 0 && !at_end() && env.on_stage) env.on_stage(stages_[0], Input());
  report.stop = RunReport::Stop::kCount;
  for (size_t i = 0; i < n; ++i) {
    if (at_end()) {
      report.stop = RunReport::Stop::kEnd;
      break;
    }
    if (InterruptRequested()) {
      report.stop = RunReport::Stop::kInterrupted;
      report.error = InterruptedStatus();
      break;
    }
    if (Status status = RunOne(env); !status.ok()) {
      report.stop = RunReport::Stop::kFailed;
      report.error = status;
      break;
    }
  }
  if (report.stop == RunReport::Stop::kCount && at_end()) report.stop = RunReport::Stop::kEnd;
  effects_.Wait();
  report.last_stage = cursor();
  return report;
}

Result<RunReport> PipelineRun::RunUntil(std::optional<std::string_view> target, const PipelineEnv& env) {
  std::optional<size_t> target_index;
  if (target) {
    auto it = std::find(passes_.begin() + static_cast<std::ptrdiff_t>(cursor()), passes_.end(), *target);
    if (it == passes_.end()) {
      if (Contains(*target)) {
        return Status::Errorf("pass '{}' already ran (the cursor is at stage {}; use back or reset)", *target,
                              cursor());
      }
      return NotInPipeline(*target);
    }
    target_index = static_cast<size_t>(it - passes_.begin());
  }
  RunReport report;
  report.first_stage = cursor() + 1;
  report.stop = RunReport::Stop::kEnd;
  if (cursor() == 0 && !at_end() && env.on_stage) env.on_stage(stages_[0], Input());
  size_t start = cursor();
  while (!at_end()) {
    bool is_target = target_index && cursor() == *target_index;
    if (cursor() != start && !env.ignore_breakpoints && !is_target && HasBreakpoint(passes_[cursor()])) {
      report.stop = RunReport::Stop::kBreakpoint;
      break;
    }
    if (InterruptRequested()) {
      report.stop = RunReport::Stop::kInterrupted;
      report.error = InterruptedStatus();
      break;
    }
    if (Status status = RunOne(env); !status.ok()) {
      report.stop = RunReport::Stop::kFailed;
      report.error = status;
      break;
    }
    if (is_target) {
      report.stop = RunReport::Stop::kTarget;
      break;
    }
  }
  effects_.Wait();
  report.last_stage = cursor();
  return report;
}

Status PipelineRun::Back() {
  if (cursor() == 0) return Status::Error("already at the input (stage 0)");
  return TruncateTo(cursor() - 1);
}

void PipelineRun::Reset() {
  stages_.resize(1);
  snapshots_.resize(1);
  recipes_.resize(1);
  failure_.reset();
}

Status PipelineRun::TruncateTo(size_t stage) {
  if (stage >= cursor()) return Status::Ok();
  AIRSCOPE_ASSIGN_OR_RETURN(std::shared_ptr<const Graph> graph, GraphAt(stage));
  stages_.resize(stage + 1);
  snapshots_.resize(stage + 1);
  recipes_.resize(stage + 1);
  // The new current stage keeps its (possibly recomputed) snapshot, and so do
  // the unchanged stages just before it that share it.
  for (size_t k = stage; !snapshots_[k]; --k) {
    snapshots_[k] = graph;
    if (stages_[k].changed) break;
  }
  failure_.reset();
  Evict();
  return Status::Ok();
}

Result<size_t> PipelineRun::FindStage(std::string_view spec) const {
  if (spec == "input") return size_t{0};
  if (spec == "last" || spec == "current") return cursor();
  size_t number = 0;
  auto [ptr, ec] = std::from_chars(spec.data(), spec.data() + spec.size(), number);
  if (!spec.empty() && ec == std::errc() && ptr == spec.data() + spec.size()) {
    if (number > cursor()) {
      return Status::Errorf("stage {} has not run yet (the cursor is at stage {})", number, cursor());
    }
    return number;
  }
  for (size_t k = cursor(); k > 0; --k) {
    if (stages_[k].pass == spec) return k;
  }
  if (Contains(spec)) return Status::Errorf("pass '{}' has not run yet (the cursor is at stage {})", spec, cursor());
  return Status::Errorf("no stage '{}': give a stage number, a pass of the pipeline, input or last", spec);
}

size_t PipelineRun::OwnerOf(size_t stage) const {
  while (stage > 0 && !stages_[stage].changed) --stage;
  return stage;
}

Result<std::shared_ptr<const Graph>> PipelineRun::GraphAt(size_t stage) const {
  if (stage > cursor()) return Status::Errorf("stage {} has not run yet (the cursor is at stage {})", stage, cursor());
  if (snapshots_[stage]) return snapshots_[stage];
  size_t base = stage;
  while (!snapshots_[base]) --base;  // stage 0 is always kept
  // Sound or not at all: every pass to replay must find the tables it read
  // as they were when it ran.
  for (size_t k = base + 1; k <= stage; ++k) {
    if (stages_[k].status != StageStatus::kRan || !stages_[k].changed) continue;
    if (std::string changed = ChangedSince(recipes_[k]); !changed.empty()) {
      return Status::Errorf(
          "cannot recompute stage {}: its snapshot was dropped for memory (pipeline.memory-budget) "
          "and {} changed since stage {} ({}) ran, so a replay would show a stage that never "
          "happened; `back` or `reset` and run again, or raise the budget",
          stage, changed, k, stages_[k].pass);
    }
  }
  std::unique_ptr<Graph> graph = snapshots_[base]->Clone();
  // Replays run the passes bare: each already ran on this very input and
  // passed lint, so no rollback copy and no lint per pass (a copy of a 1M-node
  // graph per replayed pass made recomputing a late stage take minutes). One
  // lint at the end catches a pass that turned out not to be deterministic.
  for (size_t k = base + 1; k <= stage; ++k) {
    if (stages_[k].status != StageStatus::kRan || !stages_[k].changed) continue;
    const StageRecipe& recipe = recipes_[k];
    const PassInfo* info = recipe.passes ? recipe.passes->Find(stages_[k].pass) : nullptr;
    if (!info || !info->run || !recipe.context) {
      return Status::Errorf("cannot recompute stage {}: pass '{}' is no longer registered", stage, stages_[k].pass);
    }
    PassContext context = *recipe.context;
    Result<bool> changed = RunGuarded(*info, *graph, context);
    if (!changed.ok()) {
      return Status::Errorf("cannot recompute stage {}: replaying stage {}: pass '{}' failed: {}", stage, k,
                            stages_[k].pass, changed.status().message());
    }
  }
  if (Status lint = graph->Lint(); !lint.ok()) {
    return Status::Errorf(
        "cannot recompute stage {}: the replayed graph does not lint (a pass is not deterministic?): {}", stage,
        lint.message());
  }
  return std::shared_ptr<const Graph>(std::move(graph));
}

uint64_t PipelineRun::KeptBytes() const {
  uint64_t bytes = 0;
  for (size_t k = 0; k < snapshots_.size(); ++k) {
    if (snapshots_[k] && (k == 0 || snapshots_[k] != snapshots_[k - 1])) bytes += EstimateBytes(stages_[k].nodes);
  }
  return bytes;
}

void PipelineRun::set_memory_budget(uint64_t bytes) {
  options_.memory_budget = bytes;
  Evict();
}

void PipelineRun::Evict() {
  while (KeptBytes() > options_.memory_budget) {
    // The oldest snapshot that is neither the input nor the current graph.
    size_t victim = 0;
    for (size_t k = 1; k < snapshots_.size(); ++k) {
      if (snapshots_[k] && stages_[k].changed && snapshots_[k] != snapshots_.back()) {
        victim = k;
        break;
      }
    }
    if (victim == 0) return;
    std::shared_ptr<const Graph> dropped = snapshots_[victim];
    for (size_t k = victim; k < snapshots_.size() && snapshots_[k] == dropped; ++k) snapshots_[k] = nullptr;
  }
}

}  // namespace airscope

#include "core/pass/pass_manager.h"

#include <fmt/format.h>

#include <exception>
#include <future>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/analysis/node_util.h"

namespace airscope {

namespace {

// A pass that notes why it skipped a match notes it once per match; on a
// 100k-node model that is thousands of identical lines. Each distinct remark
// is kept once, where it first appeared, with how often it was made.
std::vector<std::string> FoldRepeatedRemarks(std::vector<std::string> remarks) {
  std::unordered_map<std::string_view, size_t> count;
  for (const std::string& remark : remarks) ++count[remark];
  if (count.size() == remarks.size()) return remarks;
  std::vector<std::string> folded;
  for (const std::string& remark : remarks) {
    auto it = count.find(remark);
    if (it == count.end()) continue;  // already emitted
    folded.push_back(it->second > 1 ? fmt::format("{} ({} times)", remark, it->second) : remark);
    count.erase(it);
  }
  return folded;
}

}  // namespace

PendingEffects ReadyEffects(std::shared_ptr<const EffectSummary> summary) {
  std::promise<std::shared_ptr<const EffectSummary>> made;
  made.set_value(std::move(summary));
  return made.get_future().share();
}

PendingEffects SummarizeEffectsLater(const Graph& graph, const OpRegistry& registry, std::shared_ptr<ValueTable> table,
                                     EffectTables tables) {
  graph.PrepareConcurrentReads();
  return std::async(std::launch::async | std::launch::deferred,
                    [&graph, &registry, table = std::move(table), tables] {
                      return SummarizeEffects(graph, registry, table, tables);
                    })
      .share();
}

Result<bool> RunGuarded(const PassInfo& pass, Graph& graph, PassContext& context) {
  if (!pass.run) return Status::Errorf("pass '{}' has no implementation", pass.name);
  try {
    return pass.run(graph, context);
  } catch (const std::exception& e) {
    return Status::Errorf("exception: {}", e.what());
  } catch (...) {
    return Status::Error("unknown exception");
  }
}

Result<PassOutcome> PassManager::Run(const PassInfo& pass, Graph& graph, PassContext& context, const Graph* pristine,
                                     const PendingEffects& pristine_effects, const Alongside& alongside) {
  for (PassInstrumentation* inst : instrumentations_) inst->BeforePass(pass, graph);
  // The copy is the rollback point: a pass may fail half way through.
  std::unique_ptr<Graph> before;
  if (!pristine) before = graph.Clone();
  context.remarks.clear();
  uint64_t version = graph.version();
  auto start = std::chrono::steady_clock::now();
  Result<bool> changed = RunGuarded(pass, graph, context);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  Status failure;
  std::shared_ptr<const EffectSummary> effects;
  std::string effects_changed;
  auto broke = [&](const Status& lint) {
    return Status::Errorf("pass '{}' broke the graph: lint: {}", pass.name, lint.message());
  };
  bool touched = graph.version() != version;
  bool checked = context.check_effects && pass.effects != EffectPolicy::kUnchecked;
  if (!changed.ok()) {
    failure = Status::Errorf("pass '{}' failed: {}", pass.name, changed.status().message());
  } else if (Status list = graph.LintList(); !list.ok()) {
    failure = broke(list);
  } else if (!touched || !checked) {
    // Untouched (nothing to check, nothing for `alongside`; lint is free
    // unless the graph was never linted), or a change the check skips.
    if (Status uses = graph.LintUses(); !uses.ok()) {
      failure = broke(uses);
    } else if (touched && alongside) {
      alongside(graph);
    }
  } else {
    const OpRegistry& registry = RegistryOf(context);
    std::shared_ptr<const EffectSummary> before_effects = pristine_effects.valid() ? pristine_effects.get() : nullptr;
    if (!before_effects) {
      before_effects = SummarizeEffects(pristine ? *pristine : *before, registry, nullptr, EffectTablesOf(context));
    }
    // Summarizing, the rest of lint and `alongside` only read the graph (and
    // the summary writes only its own table), so they run side by side. The
    // node list is sound (LintList), and the summary takes what LintUses may
    // yet reject (a use of another graph's node, or of one defined later)
    // for a value it cannot know; `alongside` waits for LintUses.
    PendingEffects summary = SummarizeEffectsLater(graph, registry, before_effects->table, EffectTablesOf(context));
    Status uses = graph.LintUses();
    if (uses.ok() && alongside) alongside(graph);
    effects = summary.get();
    if (!uses.ok()) {
      failure = broke(uses);
    } else if (Status check = CheckEffects(*before_effects, *effects, pass.effects); !check.ok()) {
      // A difference the check's own model may have made (effect_check.h,
      // EffectSummary::unmodelled) does not roll a pass back: it is said.
      std::vector<std::string> rough = before_effects->unmodelled;
      rough.insert(rough.end(), effects->unmodelled.begin(), effects->unmodelled.end());
      if (!rough.empty()) {
        context.remarks.push_back(
            fmt::format("the effect check could not verify this pass: it finds \"{}\", but its model is rough "
                        "here: {}",
                        check.message(), fmt::join(rough, "; ")));
      } else if (pass.origin == PassOrigin::kTorchAir) {
        effects_changed = check.message();
      } else {
        failure = Status::Errorf("pass '{}' changed the graph's effects: {}", pass.name, check.message());
      }
    }
  }
  for (PassInstrumentation* inst : instrumentations_) inst->PassTimed(pass, seconds);
  if (!failure.ok()) {
    if (!before) before = pristine->Clone();
    graph = std::move(*before);
    context.remarks.clear();
    for (PassInstrumentation* inst : instrumentations_) inst->AfterPassFailed(pass, graph, failure);
    return failure;
  }
  for (PassInstrumentation* inst : instrumentations_) inst->AfterPass(pass, graph, *changed);
  PassOutcome outcome;
  outcome.changed = *changed;
  outcome.seconds = seconds;
  outcome.remarks = FoldRepeatedRemarks(std::move(context.remarks));
  outcome.effects = std::move(effects);
  outcome.effects_changed = std::move(effects_changed);
  context.remarks.clear();
  return outcome;
}

}  // namespace airscope

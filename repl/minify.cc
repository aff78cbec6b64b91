#include "repl/minify.h"

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>
#include <utility>

#include <fmt/format.h>

#include "core/analysis/graph_shrink.h"
#include "core/ddmin.h"
#include "repl/cache_state.h"
#include "repl/condition.h"
#include "repl/failure_match.h"

namespace airscope {
namespace {

// Runs LINE with a candidate graph as the current entry's loaded graph, and
// puts the session back afterwards (see the contract in minify.h).
class CandidateTrial {
 public:
  CandidateTrial(Interpreter& interpreter, std::string line, std::string entry_name)
      : interpreter_(interpreter),
        session_(interpreter.session()),
        line_(std::move(line)),
        entry_name_(std::move(entry_name)),
        settings_(session_.settings()),
        device_(session_.device()),
        graph_count_(session_.graphs().size()) {}

  // The outer error: no verdict (Ctrl-C, a nested bisect/minify, LINE broke
  // the session's shape); the inner status is LINE's own result.
  // With `settings`, LINE runs under them instead of the session's; with
  // `passes`, the current graph's pipeline has that pass list.
  Result<ConditionVerdict> Run(std::shared_ptr<const Graph> candidate, const Settings* settings = nullptr,
                               const std::vector<std::string>* passes = nullptr) {
    AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, Entry());
    if (settings) session_.settings() = *settings;
    std::shared_ptr<const Graph> loaded = std::exchange(entry->loaded.graph, std::move(candidate));
    std::shared_ptr<CacheState> cache = std::move(entry->cache);
    std::unique_ptr<PipelineRun> pipeline = std::move(entry->pipeline);
    entry->cache = nullptr;
    // A fresh pipeline, but with the user's pass list, breakpoints and skips
    // (`pipeline remove P`, `skip P`): the failure may depend on them.
    if (pipeline || passes) {
      auto fresh = std::make_unique<PipelineRun>(entry->loaded.graph,
                                                 passes     ? *passes
                                                 : pipeline ? pipeline->passes()
                                                            : DefaultPipeline(),
                                                 pipeline ? pipeline->options() : PipelineOptions{});
      if (pipeline) {
        for (const std::string& pass : pipeline->breakpoints()) (void)fresh->SetBreakpoint(pass, true);
        for (const std::string& pass : pipeline->skips()) (void)fresh->SetSkip(pass, true);
      }
      entry->pipeline = std::move(fresh);
    }
    Result<ConditionVerdict> verdict = RunCondition(interpreter_, line_, "minify");
    // Whether LINE stepped the current graph's pipeline (else its pass list cannot matter).
    Result<Session::Entry*> after = Entry();
    stepped_pipeline_ = after.ok() && (*after)->pipeline && (*after)->pipeline->cursor() > 0;
    // Put everything back, whatever LINE did: the current graph is ours
    // again, and settings and device are as before.
    bool loaded_more = session_.graphs().size() != graph_count_;
    (void)session_.Use(entry_name_);
    session_.settings() = settings_;
    session_.device() = device_;
    Result<Session::Entry*> back = Entry();
    if (!back.ok()) return back.status();
    (*back)->loaded.graph = std::move(loaded);
    (*back)->cache = std::move(cache);
    (*back)->pipeline = std::move(pipeline);
    if (loaded_more) {
      return Status::Errorf(
          "minify: \"{}\" loads a graph; minify shrinks the current graph ('{}'), so the command must act on it "
          "(load it first, then minify)",
          line_, entry_name_);
    }
    return verdict;
  }

  bool stepped_pipeline() const { return stepped_pipeline_; }
  // The pass list the current graph's pipeline has (the default when it has none yet).
  std::vector<std::string> passes() {
    const Session::Entry* entry = session_.Find(entry_name_);
    return entry && entry->pipeline ? entry->pipeline->passes() : DefaultPipeline();
  }

 private:
  Result<Session::Entry*> Entry() {
    for (const Session::Entry& e : session_.graphs()) {
      if (e.name == entry_name_) {
        AIRSCOPE_RETURN_IF_ERROR(session_.Use(entry_name_));
        return session_.Current();
      }
    }
    return Status::Errorf("minify: the graph '{}' is gone", entry_name_);
  }

  Interpreter& interpreter_;
  Session& session_;
  std::string line_;
  std::string entry_name_;
  const Settings settings_;
  const DeviceState device_;
  const size_t graph_count_;
  bool stepped_pipeline_ = false;
};

IsNodeName NamesOf(const Graph& a, const Graph& b) {
  return [&a, &b](std::string_view word) { return a.Find(word) != nullptr || b.Find(word) != nullptr; };
}

}  // namespace

Result<MinifyResult> Minify(Interpreter& interpreter, const MinifyOptions& options) {
  Session& session = interpreter.session();
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, session.Current());
  if (!entry->loaded.graph) return Status::Errorf("minify: '{}' has no graph to shrink", entry->name);
  MinifyResult result;
  result.graph_name = entry->name;
  result.original = entry->loaded.graph;
  const Graph& original = *result.original;
  std::vector<const Node*> shrinkable = ShrinkableNodes(original);
  if (shrinkable.size() < 2) {
    return Status::Errorf(
        "minify: nothing to remove: '{}' has {} node(s) besides its inputs and output, and a graph that fails "
        "must keep one",
        entry->name, shrinkable.size());
  }
  const auto start = std::chrono::steady_clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  CandidateTrial trial(interpreter, options.line, entry->name);
  // LINE must fail now, and fail the same way again: a flaky condition would
  // send ddmin after noise (torch's minifier's "did not fail the tester").
  AIRSCOPE_ASSIGN_OR_RETURN(ConditionVerdict first_try, trial.Run(result.original));
  const Status& first = first_try.status;
  if (first.ok()) {
    return Status::Errorf("minify: \"{}\" does not fail on '{}' now (it passed): there is no failure to keep",
                          options.line, result.graph_name);
  }
  IsNodeName original_names = NamesOf(original, original);
  FailureMatcher matcher = FailureMatcher::SameAs(first.message(), original_names);
  if (options.match) {
    AIRSCOPE_ASSIGN_OR_RETURN(matcher, FailureMatcher::Matching(*options.match));
    if (!matcher.Matches(first, original_names)) {
      return Status::Errorf("minify: \"{}\" fails on '{}', but not with {}: {}", options.line, result.graph_name,
                            matcher.Describe(), first.message());
    }
  }
  AIRSCOPE_ASSIGN_OR_RETURN(ConditionVerdict second_try, trial.Run(result.original));
  const Status& again = second_try.status;
  if (!matcher.Matches(again, original_names)) {
    return Status::Errorf("minify: \"{}\" is flaky on '{}': it failed with \"{}\", then on a retry {}", options.line,
                          result.graph_name, first.message(),
                          again.ok() ? std::string("passed") : fmt::format("failed with \"{}\"", again.message()));
  }
  result.matched = matcher.Describe();
  result.failure = first.message();
  result.minimal = result.original;
  result.original_nodes = result.minimal_nodes = ComputeNodeCount(original);

  std::vector<size_t> items(shrinkable.size());
  for (size_t i = 0; i < items.size(); ++i) items[i] = i;
  size_t tries = 0;
  // --max-time: checked before every try of every step (nodes, settings, passes).
  auto time_limit = [&]() -> Status {
    if (options.max_seconds > 0 && elapsed() >= options.max_seconds) {
      return Status::Errorf("the time limit (--max-time {}) was reached", options.max_seconds);
    }
    return Status::Ok();
  };
  auto test = [&](const std::vector<size_t>& subset) -> Result<bool> {
    AIRSCOPE_RETURN_IF_ERROR(time_limit());
    std::vector<uint32_t> keep;
    keep.reserve(subset.size());
    for (size_t i : subset) keep.push_back(original.PositionOf(shrinkable[i]));
    std::shared_ptr<const Graph> candidate = KeepOnly(original, keep);
    AIRSCOPE_ASSIGN_OR_RETURN(ConditionVerdict verdict, trial.Run(candidate));
    const Status& status = verdict.status;
    ++tries;
    bool same = matcher.Matches(status, NamesOf(original, *candidate));
    if (same) {
      result.minimal = candidate;
      result.failure = status.message();
      result.minimal_nodes = ComputeNodeCount(*candidate);
    }
    if (options.progress) options.progress({result.minimal_nodes, tries, elapsed()});
    return same;
  };
  DdminResult shrunk = Ddmin(std::move(items), test);
  result.tries = shrunk.tries;
  result.stopped = shrunk.stopped;
  result.settings = session.settings();
  if (result.stopped.ok()) {
    // Then the settings: each one that differs from airscope's default goes
    // back to the default, and stays there when LINE still fails the same way.
    const Settings defaults;
    for (const SettingSpec& spec : defaults.specs()) {
      // A copy: result.settings is replaced below, and the remark names the old value.
      const std::string value = result.settings.Get(spec.name);
      if (value == defaults.Get(spec.name)) continue;
      if (Status limit = time_limit(); !limit.ok()) {
        result.stopped = limit;
        break;
      }
      Settings candidate = result.settings;
      if (!candidate.Set(spec.name, defaults.Get(spec.name)).ok()) continue;
      Result<ConditionVerdict> verdict = trial.Run(result.minimal, &candidate);
      if (!verdict.ok()) {
        result.stopped = verdict.status();
        break;
      }
      ++result.tries;
      if (matcher.Matches(verdict->status, NamesOf(original, *result.minimal))) {
        result.settings = std::move(candidate);
        result.failure = verdict->status.message();
        result.dropped_settings.push_back(fmt::format("{} {}", spec.name, value));
      } else {
        result.needed_settings.push_back(fmt::format("{} {}", spec.name, value));
      }
    }
  }
  // Then the pass list, when LINE steps the pipeline: each pass whose removal
  // leaves the same failure is dropped, one at a time, in pipeline order.
  result.passes = trial.passes();
  bool steps_pipeline = false;
  if (result.stopped.ok()) {
    Result<ConditionVerdict> probe = trial.Run(result.minimal, &result.settings);
    if (probe.ok()) {
      ++result.tries;
      steps_pipeline = trial.stepped_pipeline();
    } else {
      result.stopped = probe.status();
    }
  }
  if (result.stopped.ok() && steps_pipeline) {
    for (size_t i = 0; i < result.passes.size() && result.passes.size() > 1;) {
      if (Status limit = time_limit(); !limit.ok()) {
        result.stopped = limit;
        break;
      }
      std::vector<std::string> candidate = result.passes;
      candidate.erase(candidate.begin() + static_cast<std::ptrdiff_t>(i));
      Result<ConditionVerdict> verdict = trial.Run(result.minimal, &result.settings, &candidate);
      if (!verdict.ok()) {
        result.stopped = verdict.status();
        break;
      }
      ++result.tries;
      if (matcher.Matches(verdict->status, NamesOf(original, *result.minimal))) {
        result.dropped_passes.push_back(result.passes[i]);
        result.passes = std::move(candidate);
        result.failure = verdict->status.message();
      } else {
        ++i;
      }
    }
  }
  result.seconds = elapsed();
  return result;
}

}  // namespace airscope

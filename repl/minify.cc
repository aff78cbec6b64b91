#include "repl/minify.h"

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <vector>
#include <utility>

#include <fmt/format.h>

#include "core/analysis/graph_shrink.h"
#include "core/ddmin.h"
#include "repl/cache_state.h"
#include "repl/condition.h"
#include "repl/failure_match.h"
#include "repl/minify_sizes.h"
#include "repl/tokenizer.h"

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
  // With `script`, `source` of the script set by set_script runs those lines instead of the file's.
  Result<ConditionVerdict> Run(std::shared_ptr<const Graph> candidate, const Settings* settings = nullptr,
                               const std::vector<std::string>* passes = nullptr,
                               const std::vector<std::string>* script = nullptr) {
    AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, Entry());
    if (settings) session_.settings() = *settings;
    std::shared_ptr<const Graph> loaded = std::exchange(entry->loaded.graph, std::move(candidate));
    std::shared_ptr<CacheState> cache = std::move(entry->cache);
    std::unique_ptr<PipelineRun> pipeline = std::move(entry->pipeline);
    // The logs the graph was loaded with are what it is, not the calls' state:
    // a try keeps them (compare, compiles and guards read them).
    entry->cache = OnlyTheLogs(cache.get());
    // A fresh pipeline, but with the user's pass list, breakpoints and skips
    // (`pipeline remove P`, `skip P`): the failure may depend on them.
    if (pipeline || passes) {
      auto fresh = std::make_unique<PipelineRun>(entry->loaded.graph,
                                                 passes     ? *passes
                                                 : pipeline ? pipeline->passes()
                                                            : session_.settings().DefaultPasses(),
                                                 pipeline ? pipeline->options() : PipelineOptions{});
      if (pipeline) {
        for (const std::string& pass : pipeline->breakpoints()) (void)fresh->SetBreakpoint(pass, true);
        for (const std::string& pass : pipeline->skips()) (void)fresh->SetSkip(pass, true);
      }
      entry->pipeline = std::move(fresh);
    }
    if (script) interpreter_.set_script_override(Interpreter::ScriptOverride{script_path_, *script});
    Result<ConditionVerdict> verdict = RunCondition(interpreter_, line_, "minify");
    interpreter_.set_script_override(std::nullopt);
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
  void set_script(std::string path) { script_path_ = std::move(path); }
  // The pass list the current graph's pipeline has (the default when it has none yet).
  std::vector<std::string> passes() {
    const Session::Entry* entry = session_.Find(entry_name_);
    return entry && entry->pipeline ? entry->pipeline->passes() : session_.settings().DefaultPasses();
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
  std::string script_path_;
};

IsNodeName NamesOf(const Graph& a, const Graph& b) {
  return [&a, &b](std::string_view word) { return a.Find(word) != nullptr || b.Find(word) != nullptr; };
}

// The file LINE sources, resolved as `source` resolves it; "" when LINE is no `source FILE`.
std::string SourcedScript(Interpreter& interpreter, const std::string& line) {
  Result<std::vector<Word>> words = Tokenize(line);
  if (!words.ok() || words->size() != 2) return "";
  Result<const CommandSpec*> spec = interpreter.table().Lookup((*words)[0].text);
  if (!spec.ok() || (*spec)->name != "source") return "";
  return interpreter.ResolvePath((*words)[1].text);
}

// Minify's last two steps (see minify.h): the calls of the script LINE
// sources, then the graph's input sizes. Returns why it stopped early, or OK.
Status ShrinkSizes(Interpreter& interpreter, const MinifyOptions& options, const FailureMatcher& matcher,
                   CandidateTrial& trial, const std::function<Status()>& time_limit,
                   const std::function<double()>& elapsed, MinifyResult& result) {
  const Graph& original = *result.original;
  const std::vector<std::string>* passes = result.dropped_passes.empty() ? nullptr : &result.passes;
  // One try with `graph` and, when given, the script's lines in place of the file's.
  auto fails = [&](const std::shared_ptr<const Graph>& graph, const std::vector<std::string>* script) -> Result<bool> {
    AIRSCOPE_RETURN_IF_ERROR(time_limit());
    AIRSCOPE_ASSIGN_OR_RETURN(ConditionVerdict verdict, trial.Run(graph, &result.settings, passes, script));
    ++result.tries;
    bool same = matcher.Matches(verdict.status, NamesOf(original, *graph));
    if (same) result.failure = verdict.status.message();
    if (options.progress) options.progress({result.minimal_nodes, result.tries, elapsed()});
    return same;
  };

  // The calls: which the failure needs, then their sizes.
  std::vector<ScriptCall> calls;
  std::vector<std::string> all;  // the script's lines as read
  if (std::string path = SourcedScript(interpreter, options.line); !path.empty()) {
    if (Result<std::vector<std::string>> lines = interpreter.ReadScriptLines(path); lines.ok()) {
      calls = ScriptCalls(*lines, interpreter.table());
      all = std::move(*lines);
      if (!calls.empty()) {
        result.script_path = path;
        trial.set_script(path);
      }
    }
  }
  std::vector<bool> kept_call(calls.size(), true);
  std::vector<std::string> current = all;  // the lines tries run: a dropped call is a blank line
  auto keeping = [&](const std::vector<size_t>& kept) {
    std::vector<std::string> lines = current;
    std::vector<bool> keep(calls.size(), false);
    for (size_t k : kept) keep[k] = true;
    for (size_t c = 0; c < calls.size(); ++c) {
      if (!keep[c]) lines[calls[c].line].clear();
    }
    return lines;
  };
  // What the result says of the calls, however the search ends.
  auto finish = [&](Status stopped) {
    result.script_lines.clear();
    std::vector<bool> dropped_line(all.size(), false);
    for (size_t c = 0; c < calls.size(); ++c) {
      const std::string& was = all[calls[c].line];
      if (!kept_call[c]) {
        dropped_line[calls[c].line] = true;
        result.dropped_calls.push_back(was);
      } else if (current[calls[c].line] != was) {
        result.shrunk_calls.push_back(fmt::format("{} -> {}", was, current[calls[c].line]));
      }
    }
    for (size_t i = 0; i < all.size() && !calls.empty(); ++i) {
      if (!dropped_line[i]) result.script_lines.push_back(current[i]);
    }
    return stopped;
  };
  if (!calls.empty()) {
    std::vector<std::string> none = keeping({});
    Result<bool> needs_none = fails(result.minimal, &none);
    if (!needs_none.ok()) return finish(needs_none.status());
    std::vector<size_t> kept;
    if (!*needs_none) {
      std::vector<size_t> items(calls.size());
      for (size_t i = 0; i < items.size(); ++i) items[i] = i;
      DdminResult shrunk = Ddmin(std::move(items), [&](const std::vector<size_t>& subset) -> Result<bool> {
        std::vector<std::string> lines = keeping(subset);
        return fails(result.minimal, &lines);
      });
      kept = std::move(shrunk.kept);
      if (!shrunk.stopped.ok()) {
        kept_call.assign(calls.size(), false);
        for (size_t k : kept) kept_call[k] = true;
        current = keeping(kept);
        return finish(shrunk.stopped);
      }
    }
    kept_call.assign(calls.size(), false);
    for (size_t k : kept) kept_call[k] = true;
    current = keeping(kept);
    for (size_t k : kept) {
      ScriptCall& call = calls[k];
      for (size_t i = 0; i < call.spec.inputs.size(); ++i) {
        if (!ResizableInput(call.spec.inputs[i])) continue;
        for (size_t d = 0; d < call.spec.inputs[i].sizes.size(); ++d) {
          auto fails_at = [&](int64_t size) -> Result<bool> {
            CallSpec spec = call.spec;
            spec.inputs[i] = Resized(spec.inputs[i], d, size);
            std::vector<std::string> lines = current;
            lines[call.line] = CallLine(spec);
            AIRSCOPE_ASSIGN_OR_RETURN(bool failed, fails(result.minimal, &lines));
            if (failed) {
              call.spec = std::move(spec);
              current = std::move(lines);
            }
            return failed;
          };
          Result<int64_t> smallest = SmallestFailingSize(call.spec.inputs[i].sizes[d], fails_at);
          if (!smallest.ok()) return finish(smallest.status());
        }
      }
    }
  }
  AIRSCOPE_RETURN_IF_ERROR(finish(Status::Ok()));

  // The graph's input sizes, each candidate inferred again by the registry.
  const std::vector<std::string>* script = calls.empty() ? nullptr : &current;
  const OpRegistry& registry = interpreter.session().registry();
  const std::shared_ptr<const Graph> before = result.minimal;
  const size_t inputs = before->Placeholders().size();
  Status stopped;
  // Rounds over every dim of every input, while one shrinks: a size that
  // must agree with another input's (a broadcast, mm's inner dim) may go
  // down once the other did.
  constexpr int kMaxRounds = 4;
  bool shrank = true;
  for (int round = 0; round < kMaxRounds && shrank && stopped.ok(); ++round) {
    shrank = false;
    for (size_t i = 0; i < inputs && stopped.ok(); ++i) {
      const TensorMeta* tensor = before->Placeholders()[i]->tensor();
      for (size_t d = 0; tensor && d < tensor->sizes.size() && stopped.ok(); ++d) {
        const Dim& dim = result.minimal->Placeholders()[i]->tensor()->sizes[d];
        if (!dim.is_static()) continue;
        const int64_t size = dim.value();
        auto fails_at = [&](int64_t smaller) -> Result<bool> {
          Result<std::shared_ptr<const Graph>> resized = WithInputSize(*result.minimal, i, d, smaller, registry);
          if (!resized.ok()) return false;  // the graph cannot be inferred at this size: no candidate
          AIRSCOPE_ASSIGN_OR_RETURN(bool failed, fails(*resized, script));
          if (failed) result.minimal = *resized;
          return failed;
        };
        Result<int64_t> smallest = SmallestFailingSize(size, fails_at);
        stopped = smallest.status();
        shrank |= smallest.ok() && *smallest < size;
      }
    }
  }
  for (size_t i = 0; i < inputs; ++i) {
    const Node* was = before->Placeholders()[i];
    const Node* now = result.minimal->Placeholders()[i];
    if (was->tensor() && now->tensor() && was->tensor()->sizes != now->tensor()->sizes) {
      result.shrunk_inputs.push_back(
          fmt::format("{} {} -> {}", was->name(), was->tensor()->ShapeString(), now->tensor()->ShapeString()));
    }
  }
  return stopped;
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
  // And on an identical copy in its place: a LINE that fails otherwise reads
  // something else than the graph minify hands it (compare reads the recorded
  // stages, which exist for the whole recorded graph only), and shrinking the
  // copy would tell nothing about that failure.
  std::shared_ptr<const Graph> copy = original.Clone();
  AIRSCOPE_ASSIGN_OR_RETURN(ConditionVerdict copy_try, trial.Run(copy));
  if (!matcher.Matches(copy_try.status, original_names)) {
    return Status::Errorf(
        "minify: \"{}\" fails on '{}' but {} on an identical copy of it put in its place, as minify's tries are: "
        "it does not depend on the graph alone, so there is nothing minify could shrink",
        options.line, result.graph_name,
        copy_try.status.ok() ? std::string("passes")
                             : fmt::format("fails differently (\"{}\")", copy_try.status.message()));
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
  if (result.stopped.ok())
    result.stopped = ShrinkSizes(interpreter, options, matcher, trial, time_limit, elapsed, result);
  result.seconds = elapsed();
  return result;
}

}  // namespace airscope

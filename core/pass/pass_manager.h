// PassManager: runs one pass with instrumentation around it, and guarantees
// that a failed pass leaves the graph exactly as it was.
//
// For each pass: BeforePass hooks; the pass runs on the graph; the graph is
// linted; PassTimed hooks get the pass's own run time (success or failure);
// when the pass touched the graph (Graph::version) and context.check_effects
// is on, the effect check (core/pass/effect_check.h) compares the graph's
// effects before and after against PassInfo::effects;
// on success AfterPass hooks (with `changed`); on an error, an exception
// escaping the pass, a lint failure or an effect change the graph is restored from the copy
// taken before the pass, and AfterPassFailed hooks run with the error, which
// names the pass and, for a lint failure, what lint found. Timing and dumping
// are instrumentation too (TimingInstrumentation; the dump hook in repl).
#pragma once

#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "core/pass/effect_check.h"
#include "core/pass/pass.h"

namespace airscope {

// Runs the pass bare (no hooks, lint or rollback). Passes are plain
// functions and may be user code: an exception escaping one is returned as
// its failure ("exception: ..."), never a failure of the debugger.
Result<bool> RunGuarded(const PassInfo& pass, Graph& graph, PassContext& context);

class PassInstrumentation {
 public:
  virtual ~PassInstrumentation() = default;
  virtual void BeforePass(const PassInfo& /*pass*/, const Graph& /*graph*/) {}
  // The manager's measurement of the pass itself (not lint), called once per
  // run, before AfterPass / AfterPassFailed. The only clock: hooks that want
  // time read it here instead of timing again.
  virtual void PassTimed(const PassInfo& /*pass*/, double /*seconds*/) {}
  virtual void AfterPass(const PassInfo& /*pass*/, const Graph& /*graph*/, bool /*changed*/) {}
  virtual void AfterPassFailed(const PassInfo& /*pass*/, const Graph& /*restored*/, const Status& /*error*/) {}
};

struct PassOutcome {
  bool changed = false;
  double seconds = 0;                // wall time of the pass itself (not lint)
  std::vector<std::string> remarks;  // what the pass noted
  // The effect summary of the graph after the pass, when the check made one
  // (the pass touched the graph); a caller may give it back as the next
  // run's `pristine_effects`.
  std::shared_ptr<const EffectSummary> effects;
  // What the effect check found a TorchAir pass (PassOrigin::kTorchAir) to
  // change beyond its EffectPolicy ("output 0 now holds a different value:
  // ..."): the result is kept, as TorchAir keeps it. "" when nothing.
  std::string effects_changed;
};

// An effect summary that may still be in the making on another thread
// (PipelineRun starts the current snapshot's while the passes that leave the
// graph alone run); get() waits for it.
using PendingEffects = std::shared_future<std::shared_ptr<const EffectSummary>>;
// A summary already made, as a PendingEffects.
PendingEffects ReadyEffects(std::shared_ptr<const EffectSummary> summary);
// SummarizeEffects(graph, ...) on another thread (or, when no thread can be
// started, in get()). Calls graph.PrepareConcurrentReads(); `graph` must not
// change, and it, `registry` and `tables` must live, until the summary is done.
PendingEffects SummarizeEffectsLater(const Graph& graph, const OpRegistry& registry, std::shared_ptr<ValueTable> table,
                                     EffectTables tables);

// The effect summary of one snapshot, given to the next pass's effect check
// so it is not made again for every pass; perhaps still in the making on
// another thread. The cache is that thread's one owner: whatever replaces
// the summary, and the cache's end, waits for the thread first, so no thread
// outlives the cache's say on which snapshot it reads (a dropped snapshot, a
// fork beside it). Holds the snapshot weakly: it never keeps one alive.
class EffectsCache {
 public:
  EffectsCache() = default;
  EffectsCache(const EffectsCache&) = default;
  EffectsCache& operator=(const EffectsCache& other) {
    if (this != &other) {
      Wait();
      of_ = other.of_;
      effects_ = other.effects_;
    }
    return *this;
  }
  ~EffectsCache() { Wait(); }

  // The summary of `snapshot`, or an invalid one when the cache holds another's.
  PendingEffects For(const std::shared_ptr<const Graph>& snapshot) const {
    return Holds(snapshot) ? effects_ : PendingEffects();
  }
  bool Holds(const std::shared_ptr<const Graph>& snapshot) const { return of_.lock() == snapshot; }
  // Starts summarizing `snapshot` on another thread; `registry` and `tables` must outlive it.
  void Start(const std::shared_ptr<const Graph>& snapshot, const OpRegistry& registry, EffectTables tables) {
    Wait();
    of_ = snapshot;
    effects_ = SummarizeEffectsLater(*snapshot, registry, nullptr, tables);
  }
  // A summary already made (a pass's effect check made it of the graph it left).
  void Set(const std::shared_ptr<const Graph>& snapshot, std::shared_ptr<const EffectSummary> summary) {
    Wait();
    of_ = snapshot;
    effects_ = ReadyEffects(std::move(summary));
  }
  // Joins the thread, if one runs.
  void Wait() const {
    if (effects_.valid()) effects_.wait();
  }

 private:
  std::weak_ptr<const Graph> of_;
  PendingEffects effects_;
};

class PassManager {
 public:
  // Instrumentation is not owned and must outlive the manager's use.
  void AddInstrumentation(PassInstrumentation* instrumentation) { instrumentations_.push_back(instrumentation); }

  // Runs `pass` on `graph`. On error the graph is unchanged and the Status
  // reads "pass 'NAME' failed: ...", "pass 'NAME' broke the graph: lint: ..."
  // or "pass 'NAME' changed the graph's effects: ..." (never for a TorchAir
  // pass: its change of effects is kept and put in PassOutcome::effects_changed).
  //
  // `pristine`, when given, must be SameGraph as `graph` and outlive the call:
  // the manager restores from it on failure instead of copying `graph` before
  // every pass (a caller that keeps snapshots already has that copy).
  // `pristine_effects`, when valid, is the effect summary of the graph as it
  // is now (a caller that keeps snapshots may cache it, or have it made in
  // the background); it is waited for only if the pass touches the graph,
  // and computed then if it is not valid.
  //
  // `alongside`, when given, is called once on the calling thread when the
  // pass touched the graph and lint passed, before the effect check decides
  // (the call may still fail after it). It may only read the graph: it runs
  // while another thread summarizes the graph's effects, so a caller's own
  // work on the result (comparing it, copying it) costs no extra time on a
  // second core.
  using Alongside = std::function<void(const Graph&)>;
  Result<PassOutcome> Run(const PassInfo& pass, Graph& graph, PassContext& context, const Graph* pristine = nullptr,
                          const PendingEffects& pristine_effects = {}, const Alongside& alongside = nullptr);

 private:
  std::vector<PassInstrumentation*> instrumentations_;
};

}  // namespace airscope

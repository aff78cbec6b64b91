// PipelineRun: one graph stepping through an ordered list of passes, with a
// cursor, breakpoints, skip flags and a snapshot of the graph after every
// stage, so any stage can be shown, diffed, dumped or returned to.
//
// Stages: stage 0 is the input graph; stage k (1 <= k <= cursor) is the
// graph after passes()[k-1] ran (or was skipped). The cursor is the number of
// the current stage, which is also the index of the next pass to run. A pass
// that fails leaves no stage: the cursor stays, the failure is remembered for
// `pipeline` until the cursor moves.
//
// Snapshots are immutable (shared_ptr<const Graph>). A stage whose pass did
// not change the graph (checked with Graph::version() and then SameGraph,
// not only the pass's word) shares the previous stage's snapshot; a changed
// one keeps its own. Passes run on a private working copy of the current
// snapshot that is kept from pass to pass while passes leave it untouched,
// so a pass that changes nothing costs no copy, no comparison and no lint,
// and a changed graph becomes the new snapshot without a copy.
// Two threads at most: the effect check of a touched graph summarizes it on
// a second thread while this one lints its uses (PassManager::Run), compares it with the snapshot and copies
// it for the next pass (when no snapshot is to be dropped for it, see RunOne), and the current snapshot's own
// summary is made on the second thread while the passes that leave it alone run. Both only
// read immutable snapshots, and a run waits for them before it returns.
// Above the memory budget (estimated as nodes x bytes_per_node per distinct
// snapshot) the oldest snapshots other than the input and the current stage
// are dropped; GraphAt() recomputes a dropped stage by replaying, from the
// nearest kept snapshot, the passes that changed the graph, each with the
// registry and context recorded when it ran (its stage's recipe). It refuses
// when a table such a pass read (the pass registry, the decomposition table,
// the op registry) has changed since, rather than show a stage that never
// happened. That relies on passes being deterministic (pass.h's contract);
// the registry given to runs must outlive the PipelineRun.
//
// Editing the pass list before the cursor invalidates the stages after the
// edit: they are dropped and the cursor moves back to the edit point.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/pass/pass.h"
#include "core/pass/pass_manager.h"

namespace airscope {

enum class StageStatus : uint8_t { kInput, kRan, kSkipped, kFailed };
std::string_view StageStatusName(StageStatus status);  // "input", "ran", "skipped", "failed"

struct StageRecord {
  size_t number = 0;  // 0 = input
  std::string pass;   // "input" for stage 0
  StageStatus status = StageStatus::kInput;
  bool changed = false;  // the graph differs from the previous stage's
  double seconds = 0;    // the pass's own time (0 when skipped)
  std::vector<std::string> remarks;
  std::string effects_changed;  // a TorchAir pass's change of effects (PassOutcome::effects_changed)
  std::string error;            // kFailed: the pass's error
  size_t nodes = 0;             // node count after the stage
};

// Bytes per node of a cloned graph (Node, its args vector and UserList, the name
// index; meta is shared with the graph it was cloned from), as measured by
// bench/stages_bench on a chain of annotated nodes: 305 bytes/node for a
// 1M-node clone with vector users lists, 209 since UserList (2026-11-23,
// Release, glibc malloc); by `pipeline_bench --pass replace_stream_event_pass
// 1000000` on the GPT-like graph, whose nodes have more arguments: 217
// (2026-11-29). The estimate errs high by a tenth, so the budget is never
// exceeded; at 310 it erred by half, and a 1M-node run could not copy the
// next working graph beside the effect check (it waited 0.3 s for it).
inline constexpr uint64_t kEstimatedBytesPerNode = 240;

struct PipelineOptions {
  uint64_t memory_budget = uint64_t{1} << 30;  // bytes of snapshots kept
  uint64_t bytes_per_node = kEstimatedBytesPerNode;
};

// What a run needs from its caller: the passes, the context they read, the
// instrumentation around them, and who wants to hear about each new stage
// (e.g. to dump it). Only borrowed for the call.
struct PipelineEnv {
  const PassRegistry* passes = nullptr;
  PassContext* context = nullptr;
  std::vector<PassInstrumentation*> instrumentations;
  // Called for every new stage, and for stage 0 when a run starts from it,
  // with no thread of the run's still working: it may fork (a drawing's
  // layout runs in a child process, core/child_process.h).
  std::function<void(const StageRecord&, const Graph&)> on_stage;
  bool ignore_breakpoints = false;
};

// What a Step/RunUntil did.
struct RunReport {
  // kInterrupted: the user interrupted (core/interrupt.h); the run stopped
  // between two passes, keeping the stages that had run (the shell's `run`
  // and `step` then drop them: an interrupted command is undone).
  enum class Stop : uint8_t { kCount, kEnd, kBreakpoint, kTarget, kFailed, kInterrupted };
  Stop stop = Stop::kCount;
  size_t first_stage = 0;  // the new stages are first_stage..last_stage (none if first > last)
  size_t last_stage = 0;
  Status error;  // kFailed: the failing pass's error; kInterrupted: InterruptedStatus()
  bool stopped_early() const { return stop == Stop::kFailed || stop == Stop::kInterrupted; }
};

class PipelineRun {
 public:
  PipelineRun(std::shared_ptr<const Graph> input, std::vector<std::string> passes = DefaultPipeline(),
              PipelineOptions options = {});

  // ---- the pass list
  const std::vector<std::string>& passes() const { return passes_; }
  // Inserts `pass` before or after the first occurrence of `anchor`.
  Status InsertPass(std::string pass, std::string_view anchor, bool after);
  // Appends `pass` at the end.
  void AppendPass(std::string pass) { passes_.push_back(std::move(pass)); }
  // Replaces the list; stages are kept as far as the old and new lists agree.
  Status SetPasses(std::vector<std::string> passes);
  // Removes the first occurrence of `pass`.
  Status RemovePass(std::string_view pass);
  bool Contains(std::string_view pass) const;

  // ---- cursor, breakpoints, skips
  size_t cursor() const { return stages_.size() - 1; }
  bool at_end() const { return cursor() == passes_.size(); }
  Status SetBreakpoint(std::string_view pass, bool on);
  bool HasBreakpoint(std::string_view pass) const { return breakpoints_.count(std::string(pass)) > 0; }
  const std::set<std::string>& breakpoints() const { return breakpoints_; }
  Status SetSkip(std::string_view pass, bool on);
  bool IsSkipped(std::string_view pass) const { return skips_.count(std::string(pass)) > 0; }
  const std::set<std::string>& skips() const { return skips_; }

  // ---- running
  // Runs up to n passes from the cursor (stops early at the end or on failure;
  // breakpoints do not stop a step).
  RunReport Step(size_t n, const PipelineEnv& env);
  // Runs until the end, or stops before a pass with a breakpoint (other than
  // the one at the cursor when the run starts), or after `target` ran.
  // `target` must be at or after the cursor.
  Result<RunReport> RunUntil(std::optional<std::string_view> target, const PipelineEnv& env);
  // Moves the cursor back one stage (dropping the stage). Fails at stage 0,
  // or when the previous stage must be recomputed and that fails.
  Status Back();
  // Back to stage 0: every stage but the input is dropped.
  void Reset();
  // Drops the stages after `stage` (cursor moves there); fails (changing
  // nothing) if that stage was dropped and cannot be recomputed.
  Status TruncateTo(size_t stage);

  // ---- stages
  const std::vector<StageRecord>& stages() const { return stages_; }
  // The failure of the pass at the cursor, if its last attempt failed.
  const std::optional<StageRecord>& failure() const { return failure_; }
  // "3", a pass name (its latest stage), "input", "last"/"current".
  Result<size_t> FindStage(std::string_view spec) const;
  const Graph& Current() const { return *snapshots_.back(); }
  const Graph& Input() const { return *snapshots_.front(); }
  std::shared_ptr<const Graph> CurrentShared() const { return snapshots_.back(); }
  // The graph at `stage` (<= cursor), recomputed if its snapshot was dropped.
  Result<std::shared_ptr<const Graph>> GraphAt(size_t stage) const;
  bool IsKept(size_t stage) const { return snapshots_[stage] != nullptr; }
  // The stage whose snapshot `stage` shares (itself when it has its own).
  size_t OwnerOf(size_t stage) const;
  // Estimated bytes of distinct kept snapshots (input included), and the budget.
  uint64_t KeptBytes() const;
  const PipelineOptions& options() const { return options_; }
  void set_memory_budget(uint64_t bytes);

 private:
  // "no pass 'X' in the pipeline", with the closest pass name if X looks like a typo of one.
  Status NotInPipeline(std::string_view pass) const;
  Status RunOne(const PipelineEnv& env);  // runs passes_[cursor()]
  void Evict();
  uint64_t EstimateBytes(size_t nodes) const { return nodes * options_.bytes_per_node; }

  std::vector<std::string> passes_;
  std::set<std::string> breakpoints_;
  std::set<std::string> skips_;
  PipelineOptions options_;
  std::vector<StageRecord> stages_;                      // 0..cursor
  std::vector<std::shared_ptr<const Graph>> snapshots_;  // parallel; nullptr = dropped
  std::optional<StageRecord> failure_;
  // The graph the next pass runs on: equal to *base (the snapshot it was
  // copied from) while its version is still `version`; otherwise it is copied
  // afresh from the current snapshot. A copied PipelineRun starts without
  // one: the working graph is mutable and must never be shared.
  struct WorkingCopy {
    std::unique_ptr<Graph> graph;
    std::shared_ptr<const Graph> base;
    uint64_t version = 0;
    WorkingCopy() = default;
    WorkingCopy(const WorkingCopy&) {}
    WorkingCopy& operator=(const WorkingCopy& other) {
      if (this != &other) *this = WorkingCopy();
      return *this;
    }
    WorkingCopy(WorkingCopy&&) = default;
    WorkingCopy& operator=(WorkingCopy&&) = default;
  };
  WorkingCopy work_;
  // The effect summary of one snapshot: the last one a pass changed, or the
  // current one, summarized in the background while the passes before the
  // first that touches it run. Step and RunUntil wait for it before they
  // return, so no thread outlives a call (the tables it reads may change
  // between calls), and so does a pass that changes the graph, so Evict never
  // drops the snapshot it reads.
  EffectsCache effects_;
  // env.on_stage(the newest stage, the current graph), once the background work is done.
  void AnnounceStage(const PipelineEnv& env) const;
  // What made each stage, for recomputing a dropped snapshot exactly: the
  // registry and the context (switches, custom pass lists) the pass ran
  // with, and the versions of the tables it read then. A table changed since
  // (pass define, decomp add, plugin load) could make a stage that never
  // happened, so GraphAt refuses instead. Aligned with stages_.
  struct StageRecipe {
    const PassRegistry* passes = nullptr;
    std::shared_ptr<const PassContext> context;
    uint64_t passes_version = 0, decompositions_version = 0, ops_version = 0;
  };
  StageRecipe RecipeFor(const PipelineEnv& env);
  // Empty when `recipe` still describes the tables as they are; else what changed.
  static std::string ChangedSince(const StageRecipe& recipe);
  std::vector<StageRecipe> recipes_;
};

}  // namespace airscope

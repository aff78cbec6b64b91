// Session: everything a user has loaded and set in one airscope run. It is
// the state commands read and change; it does no I/O of its own. A failing
// command must leave it exactly as it was (commands build new state first
// and swap it in only on success).
#pragma once

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ops/op_registry.h"
#include "core/ops/op_schema.h"
#include "core/pass/decomposition.h"
#include "core/pass/pass.h"
#include "core/pass/pipeline_run.h"
#include "core/pass/reinplace_util.h"
#include "core/status.h"
#include "repl/device_state.h"
#include "repl/graph_loader.h"
#include "repl/plugin_loader.h"
#include "repl/settings.h"

namespace airscope {

struct CacheState;  // repl/cache_state.h: a graph's frame and compile cache, or the trace log it came from

class Session {
 public:
  Session();

  // ---- graphs, in load order; at most one is current
  struct Entry {
    std::string name;
    LoadedGraph loaded;
    std::shared_ptr<CacheState> cache;  // null until a call / mark_dynamic / trace load
    // The pipeline stepping this graph: created on first use from `loaded`,
    // dropped when the name is loaded again.
    std::unique_ptr<PipelineRun> pipeline;
  };
  const std::vector<Entry>& graphs() const { return graphs_; }
  // Adds (or replaces, setting *replaced) the graph `name` and makes it current.
  void AddGraph(std::string name, LoadedGraph loaded, bool* replaced);
  Status Use(std::string_view name);
  const Entry* Find(std::string_view name) const;
  // The current graph, or an error telling the user how to get one.
  Result<Entry*> Current();
  const Entry* current() const;

  // The graph commands act on (show, node, find, stats, expect, dump, ...):
  // the current entry's pipeline stage at the cursor once a pipeline exists,
  // else the loaded graph. While an override is set (bisect examining a
  // stage), that graph instead.
  Result<const Graph*> CurrentGraph();
  const Graph* current_graph() const;  // nullptr when there is none
  void set_graph_override(const Graph* graph) { graph_override_ = graph; }
  // The current graph's pipeline, created on first use (its memory budget
  // follows the pipeline.memory-budget setting).
  Result<PipelineRun*> CurrentPipeline();

  Settings& settings() { return settings_; }
  const Settings& settings() const { return settings_; }
  const OpRegistry& registry() const { return *registry_; }

  // ---- passes: builtin plus user-defined, the decomposition table, and the
  // user passes registered for the custom_pre / custom_post stages.
  PassRegistry& passes() { return passes_; }
  const PassRegistry& passes() const { return passes_; }
  DecompositionTable& decompositions() { return decompositions_; }
  // Op signatures (`op define`) and TorchAir's inplaceable_npu_ops (`op inplaceable`).
  OpSchemaTable& schemas() { return schemas_; }
  InplaceableNpuOps& inplaceable() { return inplaceable_; }
  std::vector<std::string>& custom_pre_passes() { return custom_pre_; }
  std::vector<std::string>& custom_post_passes() { return custom_post_; }
  // A context for running passes with this session's configuration.
  PassContext MakePassContext() const;
  // A pass's TorchAir name for any name that finds it (an alias such as
  // "remove_noop" -> "optimize_noop_ops"); other text is returned unchanged.
  std::string CanonicalPassName(std::string_view name) const;
  // C++ pass plugins loaded with `plugin load` (their passes are in passes()).
  PluginSet& plugins() { return plugins_; }

  // The simulated device (spec, allocator, captured graphs, last trace).
  DeviceState& device() { return device_; }
  const DeviceState& device() const { return device_; }

  // ---- what ran: each command line (a block with its lines), its output and
  // its error, for `report`. Bounded: the newest kTranscriptLimit entries,
  // outputs cut at kTranscriptOutputLimit bytes with a note saying so.
  struct TranscriptEntry {
    std::string origin;  // script path, "-c" or "<interactive>"
    size_t line = 0;     // 0 when interactive
    std::string text;
    std::string output;
    std::string error;  // empty when the command succeeded
  };
  static constexpr size_t kTranscriptLimit = 10000;
  static constexpr size_t kTranscriptOutputLimit = 64 * 1024;
  const std::deque<TranscriptEntry>& transcript() const { return transcript_; }
  void Record(TranscriptEntry entry);

  bool quit_requested() const { return quit_requested_; }
  void RequestQuit() { quit_requested_ = true; }

 private:
  std::vector<Entry> graphs_;
  std::string current_;
  Settings settings_;
  const OpRegistry* registry_;
  PassRegistry passes_;
  DecompositionTable decompositions_;
  OpSchemaTable schemas_;
  InplaceableNpuOps inplaceable_;
  std::vector<std::string> custom_pre_;
  std::vector<std::string> custom_post_;
  PluginSet plugins_;
  bool quit_requested_ = false;
  std::deque<TranscriptEntry> transcript_;
  DeviceState device_;
  const Graph* graph_override_ = nullptr;
};

}  // namespace airscope

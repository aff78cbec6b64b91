#include "repl/session.h"

#include <fmt/format.h>

#include "core/suggest.h"
#include "core/text.h"
#include "repl/cache_state.h"
#include "repl/command_output.h"

namespace airscope {

Session::Session()
    : registry_(&OpRegistry::Builtin()),
      passes_(PassRegistry::WithBuiltins()),
      decompositions_(DecompositionTable::Builtin()),
      schemas_(OpSchemaTable::Builtin()),
      inplaceable_(InplaceableNpuOps::Builtin()) {}

namespace {

// What TorchAir's passes read of the platform, from the simulated device.
PassEnvironment PassEnvironmentOf(const DeviceState& device) {
  PassEnvironment env;
  env.cann_version = device.sim.spec().cann_version;
  env.aicore_num = device.sim.spec().aicore_num;
  env.vectorcore_num = device.sim.spec().vectorcore_num;
  return env;
}

}  // namespace

std::string Session::CanonicalPassName(std::string_view name) const {
  const PassInfo* pass = passes_.Find(name);
  return pass ? pass->name : std::string(name);
}

void Session::Record(TranscriptEntry entry) {
  if (entry.output.size() > kTranscriptOutputLimit) {
    size_t cut = entry.output.size() - kTranscriptOutputLimit;
    entry.output.resize(kTranscriptOutputLimit);
    entry.output += fmt::format("\n... ({} more bytes not kept)\n", cut);
  }
  if (transcript_.size() == kTranscriptLimit) transcript_.pop_front();
  transcript_.push_back(std::move(entry));
}

PassContext Session::MakePassContext() const {
  PassContext context;
  context.registry = registry_;
  if (const Entry* entry = current(); entry && entry->loaded.modules) context.modules = entry->loaded.modules.get();
  context.decompositions = &decompositions_;
  context.schemas = &schemas_;
  context.inplaceable = &inplaceable_;
  context.passes = &passes_;
  context.custom_pre = custom_pre_;
  context.custom_post = custom_post_;
  context.config = settings_.TorchAir();
  context.env = PassEnvironmentOf(device_);
  context.env.world_size = static_cast<int64_t>(settings_.GetUnsigned("dist.world_size"));
  context.check_effects = settings_.Get("check.effects") == "on";
  return context;
}

void Session::AddGraph(std::string name, LoadedGraph loaded, bool* replaced) {
  *replaced = false;
  for (Entry& entry : graphs_) {
    if (entry.name == name) {
      entry.loaded = std::move(loaded);
      if (entry.cache) ReleaseRuntimes(*entry.cache, device_);  // its captured graphs go with it
      entry.cache.reset();     // a replaced graph is a new frame: its old cache entries do not apply
      entry.pipeline.reset();  // its stages belong to the old graph
      *replaced = true;
      current_ = name;
      return;
    }
  }
  current_ = name;
  graphs_.push_back({std::move(name), std::move(loaded), nullptr, nullptr});
}

Status Session::Use(std::string_view name) {
  if (!Find(name)) {
    if (graphs_.empty()) return Status::Errorf("no graph named '{}': nothing is loaded yet (use load PATH)", name);
    std::vector<std::string> known;
    for (const Entry& e : graphs_) known.push_back(e.name);
    // A 64-rank log loads thousands of graphs: the closest name, a few, and a count.
    constexpr size_t kListed = 8;
    return Status::Errorf("no graph named '{}'{} (loaded: {}{})", name, DidYouMean(name, known),
                          JoinAtMost(known, kListed), known.size() > kListed ? "; graphs lists them all" : "");
  }
  current_ = std::string(name);
  return Status::Ok();
}

const Session::Entry* Session::Find(std::string_view name) const {
  for (const Entry& e : graphs_) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

Result<Session::Entry*> Session::Current() {
  for (Entry& e : graphs_) {
    if (e.name == current_) return &e;
  }
  return Status::Error("no graph loaded: use load PATH first");
}

const Session::Entry* Session::current() const { return Find(current_); }

Result<const Graph*> Session::CurrentGraph() {
  if (graph_override_) return graph_override_;
  AIRSCOPE_ASSIGN_OR_RETURN(Entry * entry, Current());
  if (entry->pipeline) return &entry->pipeline->Current();
  return static_cast<const Graph*>(entry->loaded.graph.get());
}

const Graph* Session::current_graph() const {
  if (graph_override_) return graph_override_;
  const Entry* entry = current();
  if (!entry) return nullptr;
  return entry->pipeline ? &entry->pipeline->Current() : entry->loaded.graph.get();
}

Result<PipelineRun*> Session::CurrentPipeline() {
  AIRSCOPE_ASSIGN_OR_RETURN(Entry * entry, Current());
  PipelineOptions options;
  options.memory_budget = settings_.GetUnsigned("pipeline.memory-budget");
  std::unique_ptr<PipelineRun>& run = entry->pipeline;
  if (!run) {
    run = std::make_unique<PipelineRun>(entry->loaded.graph, settings_.DefaultPasses(), options);
  } else if (run->options().memory_budget != options.memory_budget) {
    run->set_memory_budget(options.memory_budget);
  }
  return run.get();
}

}  // namespace airscope

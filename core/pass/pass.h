// Pass: a small function over the Graph that reports whether it changed it.
//
// Contract (MLIR's spirit): a pass never prints, dumps, times or lints; the
// PassManager and its instrumentation do that around it. A pass returns
// Result<bool>: true when it changed the graph, false when it left it as it
// was, an error (naming what and where) when it cannot do its job. A pass
// that fails or leaves a graph that does not lint is rolled back by the
// manager, so a pass may give up half way without cleaning up.
//
// Passes read their configuration from the PassContext (op registry,
// decomposition table, user passes for the custom stages); they hold no
// state of their own between runs, so running the same pipeline on the same
// graph always gives the same result (stages can be recomputed by replay).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/ir/graph.h"
#include "core/ops/op_registry.h"
#include "core/pass/torchair_config.h"
#include "core/status.h"

namespace airscope {

class DecompositionTable;
class InplaceableNpuOps;
class OpSchemaTable;
class PassRegistry;

class ModuleTable;  // core/aot/nn_module.h

struct PassContext {
  const OpRegistry* registry = nullptr;
  // The torch.nn modules declared for the graph's call_module nodes (`module`), read by aot.
  const ModuleTable* modules = nullptr;
  const DecompositionTable* decompositions = nullptr;  // used by `decompose`
  // Op signatures (`op define` and a few torch_npu ones) and TorchAir's
  // inplaceable_npu_ops with the session's `op inplaceable` entries; null
  // means the builtin tables.
  const OpSchemaTable* schemas = nullptr;
  const InplaceableNpuOps* inplaceable = nullptr;
  const PassRegistry* passes = nullptr;  // to look up user passes
  // The user passes registered for the custom_pre / custom_post stages, in order.
  std::vector<std::string> custom_pre;
  std::vector<std::string> custom_post;
  // TorchAir's switches (`set config.*`); TorchAir's defaults unless set.
  TorchAirConfig config;
  // Versions and core counts of the simulated device (see PassEnvironment).
  PassEnvironment env;
  // The FX graph's name as TorchAir's AclConcreteGraph knows it ("graph_1"),
  // used in tags it derives (apply_event_closure_with_multi_stream).
  std::string fx_graph_name = "graph_1";
  // replace_stream_event_pass's GraphCounter value for this Dynamo graph: its
  // tags start "graph_<k>_" (replace_stream_event.py:12-23; TorchAir's
  // process-global counter starts at 0 for the first Dynamo graph).
  int64_t dynamo_graph_counter = 0;
  // A pass may leave short notes for the user here ("decomposed 2 addmm");
  // the manager attaches them to the stage. Never printed by the pass.
  std::vector<std::string> remarks;
  // `check.effects`: the PassManager rolls back a pass that changes what the
  // graph does to its inputs and outputs beyond its PassInfo::effects.
  bool check_effects = true;
};

// The registry a pass should use: the context's, else the builtin one.
inline const OpRegistry& RegistryOf(const PassContext& context) {
  return context.registry ? *context.registry : OpRegistry::Builtin();
}

using PassFn = std::function<Result<bool>(Graph& graph, PassContext& context)>;

// What the effect check after a pass holds the pass to (core/pass/effect_check.h).
enum class EffectPolicy : uint8_t {
  // The graph inputs it writes, the value each writes into them and the value
  // reaching each output stay the same (TorchAir's passes after aot whose
  // rewrites the check can prove: views, reinplacing, cat, streams, dce).
  kPreserveValues,
  // Only which graph inputs are written and which outputs alias which inputs
  // stay the same: the pass may change the math (aot, user passes, airscope's
  // decompose/constant_fold/fuse_pointwise; TorchAir's fusions and noop removal).
  kPreserveAliasing,
  // Only which graph inputs are written stays the same: TorchAir's rewrite
  // makes outputs alias inputs by design (recover_view_inplace_pattern,
  // decompose_auto_functionalized call the op on the input's own buffer).
  kPreserveWrites,
  // Not checked (lower: it only places nodes on streams and checks them).
  kUnchecked,
};

enum class PassKind : uint8_t {
  kPipeline,  // part of the default TorchAir pipeline
  kOptional,  // builtin, inserted by the user (cse, constant_fold, fuse_pointwise)
  kUser,      // defined by the user: `pass define` in a script or a plugin
};

// Whose pass it is, which decides what a difference the effect check finds means.
enum class PassOrigin : uint8_t {
  // airscope's own or the user's: a difference is a bug of the pass, and the
  // pass is rolled back.
  kAirscope,
  // TorchAir's (or npugraph_ex's) pass as airscope models it: TorchAir runs
  // no such check, so what the pass does is what TorchAir does. The stage
  // keeps the pass's result and says what changed (PassOutcome::effects_changed),
  // never showing a graph TorchAir does not produce.
  kTorchAir,
};

struct PassInfo {
  std::string name;     // TorchAir's name: "optimize_noop_ops"
  std::string summary;  // one line for listings
  std::string help;     // the paragraph `help pass NAME` prints
  PassKind kind = PassKind::kPipeline;
  PassFn run;
  // Other names that find this pass (airscope's earlier short names: "remove_noop").
  std::vector<std::string> aliases = {};
  EffectPolicy effects = EffectPolicy::kPreserveValues;
  PassOrigin origin = PassOrigin::kAirscope;
};

// The passes airscope knows: builtin ones plus those the user defined.
class PassRegistry {
 public:
  // Every builtin pass (pipeline and optional).
  static PassRegistry WithBuiltins();

  // Adds or replaces a pass (a user may redefine their own pass; builtin
  // names cannot be taken by user passes: that is an error).
  Status Register(PassInfo info);
  // By name or alias.
  const PassInfo* Find(std::string_view name) const;
  std::vector<const PassInfo*> All() const;  // sorted by name
  // Bumped by every Register: what ran under one version may differ under another.
  uint64_t version() const { return version_; }

 private:
  uint64_t version_ = 0;
  std::map<std::string, PassInfo, std::less<>> passes_;
  std::map<std::string, std::string, std::less<>> aliases_;  // alias -> name
};

// The default pipeline: TorchAir's reduce-overhead (aclgraph) stages in
// TorchAir's order and with its names (../shared/TORCHAIR.md §1), then lower:
// the PassKind::kPipeline rows of core/pass/builtin_passes.def, in its order.
const std::vector<std::string>& DefaultPipeline();
// The npugraph_ex package's pipeline (`set mode npugraph_ex`): the same
// stages, with eliminate_self_copy after decompose_auto_functionalized, which
// its AclConcreteGraph runs after the reinplace passes whatever the config
// (nxf2a:278-280).
const std::vector<std::string>& NpugraphExPipeline();

}  // namespace airscope

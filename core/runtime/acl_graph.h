// AclGraph: TorchAir's aclgraph runtime for one compiled FX graph
// (`graph_<N>`), as python/torchair/_acl_concrete_graph/acl_graph.py runs it
// at fced8842 (ag:825-1475; ../shared/TORCHAIR.md §7), on the simulated
// device. The generated module's AclGraph is the one modelled (§1.E).
//
// Per call (AclGraph.__call__, ag:825-847):
//   compile  the first call makes the mempool (the dummy capture, ag:957-962).
//            After a fallback every call runs eager. Else the graph key
//            (graph_key.h); a key captured before is found (INFO, ag:974)
//            and recaptured only when a mutated input's address changed
//            (is_need_to_recapture, ag:1365-1385); with mempool reuse and a
//            single key, a new key lets go of the first key's retained
//            outputs (ag:986-996); then, before every capture or recapture,
//            len(graphs_meta) == static_capture_size_limit falls back to
//            eager for good: warning, every captured graph reset, the
//            mempool released (ag:999-1014, 1040-1056).
//   capture  compile_for_graph_key (ag:1074-1154): parameter, mutated-input
//            and output-aliased-input addresses recorded; with mempool
//            reuse and more than one key the pool is set back to its state
//            before the first capture, so the new capture reuses the same
//            memory (ag:1117-1130); SimDevice::Capture of the lowered graph
//            into the FX graph's pool, user inputs (not mutated, not
//            aliased by an output, not parameters) staged in buffers of the
//            pool when clone_input is on (ag:1193-1215), released after the
//            capture (ag:1146-1148); outputs retained when there is one key
//            or reuse is off (ag:1149-1153). A recapture replaces the old
//            graph, which is reset after (ag:1021-1022).
//   inputs   process_input (ag:1290-1359): with clone_input every staged
//            input is copied each call; without, only those whose address
//            changed; an output-aliased input when its address differs from
//            the first capture's. The copies are memcpy tasks of the replay.
//   replay   SimDevice::Replay of the key's graph (ag:1362-1363).
//   outputs  reconstruct_outputs (ag:1402-1475): one key or reuse off: the
//            same output tensors every call; else the outputs of this key's
//            last call if the caller still holds them all, or new tensors at
//            the capture's addresses with TorchAir's one-time warning;
//            enable_output_clone returns clones of outputs not aliasing an
//            input.
// What airscope adds: the caller's tensors and outputs as named handles
// (device_buffers.h), and warnings when a replay writes memory the caller
// still holds, or a captured graph reads or writes an address whose tensor
// was freed.
//
// Stream core limits (torch.npu.set_stream_limit on the calling stream, the
// session's `stream limit`): a capture saves the calling stream's limits
// (_save_stream_core_limits, ag:1058-1068, before the capture at ag:1137)
// and is_need_to_recapture recaptures a key whose saved limits differ from
// the calling stream's now (ag:1375-1385, counter
// recapture_due_to_global_limit_core_change_), after the mutated-input
// check. The capture stream inherits them (_set_stream_limit, ag:1156-1172);
// the simulated captured kernels are not held to them.
// Not modelled: the task updates of
// FIA-style ops on a side stream after a replay (ag:526-577: counted as
// TorchAir's "updated node num", not run), the foreach copy's INFO timing
// line, the memory-state DEBUG/INFO lines, custom pools
// (aclgraph_config.use_custom_pool). When TorchAir sets the pool back to
// the checkpoint of a capture to hand out reconstructed outputs, airscope
// keeps the outputs' addresses but not that allocator state.
//
// Contract: Call() either succeeds or leaves the AclGraph, the buffers and
// the device's allocator as they were (a captured graph it made is released).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/device/simulator.h"
#include "core/ir/graph.h"
#include "core/ops/op_registry.h"
#include "core/runtime/device_buffers.h"
#include "core/runtime/fx_graph_info.h"
#include "core/runtime/graph_key.h"
#include "core/runtime/runtime_log.h"
#include "core/status.h"

namespace airscope {

// TorchAir's config as AclGraph reads it (normalize_config, f2a:343-377;
// defaults dbg:79-88, exp:16-29).
struct AclGraphConfig {
  bool frozen_parameter = false;
  bool disable_mempool_reuse_in_same_fx = false;
  bool enable_output_clone = false;
  bool clone_input = true;
  int64_t static_capture_size_limit = 64;
  // The npugraph_ex package's copy of AclGraph (nxag): the same rules, its own
  // logger (NPUGRAPH_EX), line numbers and option names in its messages, and
  // two options of its own.
  bool npugraph_ex = false;
  bool force_eager = false;      // __call__ runs every call eagerly, before compile (nxag:823-826)
  bool force_recapture = false;  // is_need_to_recapture is always true (nxag:1361-1363)
};

// An address a captured graph baked in, for `mem --graph` and the checks.
struct BakedAddress {
  enum class Role : uint8_t { kStagingInput, kUserInput, kParameter, kMutatedInput, kAliasedInput, kOutput };
  Role role = Role::kUserInput;
  std::string what;  // the input's name, or "output 0"
  uint64_t address = 0;
  int64_t bytes = 0;
  int64_t storage = -1;   // the caller's storage it was at capture (-1: the pool's own)
  bool retained = false;  // TorchAir keeps that tensor alive as long as the graph
  size_t input = 0;       // index into FxGraphInfo::inputs (inputs only)
};
std::string_view BakedRoleName(BakedAddress::Role role);

// One captured graph: TorchAir's GraphMeta (au:85-104) and what airscope counts.
// A stream's core limits as torch_npu.npu.get_stream_limit reads them
// (cube_core_num, vector_core_num).
struct StreamCoreLimits {
  int64_t cube = 0;
  int64_t vector = 0;
  bool operator==(const StreamCoreLimits&) const = default;
};

struct GraphMeta {
  std::string key;
  StreamCoreLimits captured_limits;  // captured_cube_core_num / captured_vector_core_num (ag:1058-1068)
  uint32_t graph = 0;                // the simulated captured graph: TorchAir's AclGraph{id}
  std::string device_name;           // its name on the device: "graph_1 {[4]}"
  int64_t captured_at_call = 0;
  int capture = 1;                                                // 1: the key's first capture; 2, 3, ...: recaptures
  std::map<size_t, uint64_t> captured_parameter;                  // ag:1104-1105
  std::map<size_t, uint64_t> captured_mutated_inputs;             // ag:1107-1110
  std::map<size_t, uint64_t> captured_userinput_ref_with_output;  // ag:1112-1115
  std::map<size_t, uint64_t> userinputs_ptr;  // userinputs_meta: the address each user input is read from
  std::vector<int64_t> output_storage;        // per output, the storage it lives in (-1: not a tensor)
  std::vector<TensorMeta> output_meta;        // per output, at the captured sizes
  std::vector<std::string> last_outputs;      // outputs_weakref: the handles the last call returned
  bool retained_outputs = false;
  std::vector<std::pair<uint64_t, int64_t>> writes;  // address ranges its replays write in the pool
  std::vector<BakedAddress> baked;
  std::vector<uint32_t> held_inputs;   // storages of inputs it keeps alive (retained_userinputs, aliased inputs)
  std::vector<uint32_t> held_outputs;  // retained_outputs' storages
  uint64_t replays = 0;
  uint64_t hits = 0;
};

struct AclGraphStats {
  uint64_t calls = 0;
  uint64_t captures = 0;               // first captures and recaptures
  uint64_t recaptures_mutated = 0;     // recapture_due_to_mutated_input_change_
  uint64_t recaptures_core_limit = 0;  // recapture_due_to_global_limit_core_change_
  uint64_t recaptures_forced = 0;      // recapture_due_to_force_recapture_ (npugraph_ex)
  uint64_t replays = 0;
  uint64_t hits = 0;              // a key found, no recapture
  uint64_t eager_runs = 0;        // after the fallback
  int64_t fell_back_at_call = 0;  // 0: never
  std::string fell_back_key;
  std::vector<std::string> keys;  // every key seen, in order
  uint64_t released_graphs = 0;   // captured graphs the fallback reset

  uint64_t recaptures() const { return recaptures_mutated + recaptures_core_limit + recaptures_forced; }
};

struct CallReport {
  enum class Action : uint8_t { kReplay, kCapture, kRecapture, kEager };
  Action action = Action::kReplay;
  std::string key;  // "fallback_to_eager" after the fallback, as compile() returns it; "" under force_eager
  std::vector<RuntimeLine> lines;
  RunResult run;
  std::vector<std::string> outputs;  // handle names; "" for an output that is not a tensor
  size_t input_copies = 0;
};

// What a call runs with besides its arguments.
struct CallEnv {
  SimDevice& device;
  DeviceBuffers& buffers;
  const OpRegistry& registry;
  int64_t call = 0;   // DeviceBuffers::NextCall()
  bool keep = false;  // `call ... keep`: output handles stay until dropped
  // Set once per session: TorchAir's output warning is a Python warning
  // filtered after its first showing (ag:1472-1473).
  bool* output_warning_shown = nullptr;
  StreamCoreLimits stream_limits;  // the calling stream's core limits at this call
};

class AclGraph {
 public:
  // `config` is fixed from here on, as TorchAir fixes the config of a compiled
  // graph (normalize_config, f2a:343-377; get_unupdated_input_fn at the first call, ag:946).
  AclGraph(std::string name, std::shared_ptr<const Graph> compiled, FxGraphInfo info, AclGraphConfig config);

  const std::string& name() const { return name_; }
  const FxGraphInfo& info() const { return info_; }
  const Graph& compiled() const { return *compiled_; }
  PoolId pool() const { return pool_; }  // 0 before the first call and after the fallback
  bool fallback_to_eager() const { return fallback_; }
  const std::vector<GraphMeta>& graphs_meta() const { return metas_; }  // in capture order
  const AclGraphStats& stats() const { return stats_; }
  const AclGraphConfig& config() const { return config_; }

  // `args` follow info().inputs (BindCallArgs).
  Result<CallReport> Call(const std::vector<CallArg>& args, CallEnv& env);

  // The graph goes away (its cache entry was dropped): its captured graphs
  // and pool are released.
  void Release(SimDevice& device, DeviceBuffers& buffers);

  // Who in this graph keeps `storage` alive: "AclGraph 2 (graph_1 {...}) retains it as ...".
  std::vector<std::string> Retainers(uint32_t storage) const;

  // Warnings about storage `storage`: just freed (`freed`), or just made
  // (a new tensor at an address a captured graph baked in for another).
  std::vector<std::string> BakedAddressWarnings(const DeviceBuffers& buffers, uint32_t storage, bool freed) const;

 private:
  int FindMeta(const std::string& key) const;
  // Why the key's graph must be captured again, "" when it need not; *cause
  // says which counter the recapture counts in.
  enum class RecaptureCause : uint8_t { kMutatedInput, kCoreLimits, kForced };
  std::string NeedRecapture(GraphMeta& meta, const std::vector<CallArg>& args, const CallEnv& env,
                            RecaptureCause* cause);
  Status CaptureForKey(const std::string& key, const std::vector<CallArg>& args, CallEnv& env, CallReport& report);
  // The graph at a call's sizes, lowered: its tasks and its outputs' metas.
  struct Lowered {
    TaskGraph tasks;
    std::vector<TensorMeta> outputs;
  };
  Result<Lowered> LowerFor(const std::vector<CallArg>& args, const OpRegistry& registry) const;
  void ResetCapturedGraph(CallEnv& env, CallReport& report);
  Status RunEagerly(const std::vector<CallArg>& args, CallEnv& env, CallReport& report);
  Status ReplayKey(size_t meta, const std::vector<CallArg>& args, CallEnv& env, CallReport& report);
  void ReconstructOutputs(GraphMeta& meta, CallEnv& env, CallReport& report);
  void ReleaseHeld(GraphMeta& meta, CallEnv& env);
  void ReleaseRetainedOutputs(GraphMeta& meta, CallEnv& env);
  std::string Describe(const GraphMeta& meta) const;  // "AclGraph 3 (graph_1 {[4]})"

  std::string name_;
  std::shared_ptr<const Graph> compiled_;
  FxGraphInfo info_;
  AclGraphConfig config_;
  bool initialized_ = false;  // _captured (ag:931)
  bool fallback_ = false;
  PoolId pool_ = 0;
  std::vector<GraphMeta> metas_;
  std::map<size_t, uint64_t> userinput_ref_data_ptr_;  // ag:1113: the first capture's address
  // torch._dynamo counters["npugraph_ex"] for this graph (popped on reset, ag:1046-1048).
  int64_t counter_captured_ = 0;
  int64_t counter_mutated_ = 0;
  int64_t counter_core_ = 0;
  int64_t counter_forced_ = 0;  // npugraph_ex's recapture_due_to_force_recapture_
  AclGraphStats stats_;
};

// The arguments of a call in AclGraph's order: `placeholder_metas[i]` the
// concrete meta of placeholder i of the compiled graph, `storages[i]` the
// storage the caller passes it in; lifted symbols take their value from
// the first tensor dim that has them, a SymInt the call passes as a Python
// int its value in `scalar_values` (by symbol). Errors name the input.
Result<std::vector<CallArg>> BindCallArgs(const FxGraphInfo& info, const std::vector<TensorMeta>& placeholder_metas,
                                          const std::vector<uint32_t>& storages, const DeviceBuffers& buffers,
                                          const std::map<std::string, int64_t>& scalar_values = {});

}  // namespace airscope

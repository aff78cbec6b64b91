// TORCH_COMPILE_DEBUG trees: what `TORCH_COMPILE_DEBUG=1` leaves on disk,
// read as a whole. A pure reader: a directory in, a DebugTree out (every
// file classified, the graph files' text read), never a failure for a
// damaged or partial tree: what cannot be read is a problem naming its file.
//
// The layouts (each fact with its source):
// - `torch_compile_debug/run_<time>-pid_<pid>[-rank_<r>]/`: torch's
//   get_debug_dir() (torch/_dynamo/utils.py) under debug_dir_root; TorchAir
//   adds `-rank_<r>` when torch.distributed is initialized (TorchAir
//   core/utils.py:46-76 ranked_get_debug_dir).
// - `<run>/torchair/` (npugraph_ex: `<run>/npugraph_ex/`, TorchAir docs
//   npugraph_ex/dfx/debug_save.md): `debug.log` (TorchAir's Python and C++
//   logger, core/utils.py:11-43), and per Dynamo graph `model__<K>/`
//   (graph_transform_observer.py DebugContext, K from 0):
//   `dynamo_out_graph.txt` (npu_fx_compiler.py:937-939, the graph before
//   AOT), `<phase>/NNN_aot_<phase>_<name>.txt` (GraphTransformObserver.dump_gm:
//   `gm.print_readable(False)`, NNN counting the phase's dumps from 000,
//   name `graph` after AOT then `graph_after_<pass>`), GE mode's
//   `NNN_aot_<phase>_<name>.<pbtxt|txt|py>` (dump_gegraph), the phase's
//   `output_code.py` (npu_fx_compiler.py:1008-1027) and each capture's
//   `<fx graph>_id_<id>_rank_<dev>_pid_<pid>_ts_<ts>.json`
//   (acl_graph.py:1261-1269, NPUGraph.debug_dump: aclmdlRIDebugJsonPrint's
//   output, written into the CURRENT model__K, which need not be the model
//   the fx graph belongs to).
// - `<run>/torchdynamo/debug.log`: torch's own log (TORCH_LOGS text;
//   TorchAir docs ascend_ir/features/basic/debug_save.md).
// - `<run>/torchinductor/<aot graph name>.<n>/` (torch/_inductor/debug.py
//   DebugContext.create_debug_dir, DebugFormatter): fx_graph_readable.py and
//   fx_graph_transformed.py (`print_readable(print_output=False)`),
//   fx_graph_runnable.py (a repro script), ir_pre_fusion.txt,
//   ir_post_fusion.txt, output_code.py, ...
// - `torch_compile_debug/tlparse/`: TORCH_TRACE logs, when TORCH_COMPILE_DEBUG
//   is set without TORCH_TRACE (torch/_logging/_internal.py: trace_dir_name =
//   debug_dir_root/tlparse); a run's log is the one whose records carry its pid.
// - TorchAir's `config.debug.graph_dump` files, wherever its path put them
//   (debug_config.py:26-36 full_path): `dynamo_original_graph_<N>_rank_<r>_
//   pid_<pid>[_ts_<ts>].<type>` after _optimize_fx (npu_fx_compiler.py:689-690)
//   and `dynamo_optimized_graph_<N>_...` after every AclConcreteGraph pass
//   (fx2acl_converter.py:310-311). In reduce-overhead mode the type must be
//   py and the file is `fx_graph.print_readable(False)` (fx2acl_converter.py:
//   142-152); in max-autotune mode it is a GE graph: `.pbtxt`, `.txt`
//   (str of the GeGraph) or `.py` (GeGraph.python_code, ge/_ge_graph.py:779-785).
//
// Graph names follow airscope's `ID:KIND` scheme: `model__0:dynamo`,
// `model__0:forward:graph` (the 000 file), `model__0:forward:after_view_to_reshape`,
// `model__0:forward:original_ge_graph`, `graph_1:dynamo_original`,
// `inductor:model__0_inference_0.0:fx_graph_readable`; with several runs in
// one tree, `rankN:` (runs of different ranks) or `runK:` in front.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/status.h"

namespace airscope {

enum class DebugGraphSource : uint8_t {
  kDynamoOut,      // model__K/dynamo_out_graph.txt
  kTorchAirStage,  // model__K/<phase>/NNN_aot_<phase>_<name>.txt (FX, print_readable)
  kGeStage,        // model__K/<phase>/NNN_aot_<phase>_<name>.pbtxt (GE mode)
  kGraphDump,      // dynamo_original_graph_N_... / dynamo_optimized_graph_N_...
  kInductor,       // torchinductor/<name>.<n>/fx_graph_readable.py, fx_graph_transformed.py
};

struct DebugTreeGraph {
  std::string name;    // unique in the tree, the run's prefix included
  std::string prefix;  // the run's prefix: "", "rank1:", "run2:"
  DebugGraphSource source = DebugGraphSource::kTorchAirStage;
  std::string model;  // "model__0"; "graph_1" for a graph dump; the Inductor folder
  std::string phase;  // forward | backward | joint (TorchAir stages); empty otherwise
  int count = -1;     // NNN of a stage dump
  // TorchAir's name of the dump: "graph", "graph_after_view_to_reshape",
  // "original_ge_graph"; "dynamo_out_graph"; "dynamo_original", "dynamo_optimized";
  // Inductor's file stem ("fx_graph_readable").
  std::string stage;
  bool pbtxt = false;  // the text is TorchAir pbtxt (a GE graph), not print_readable code
  std::string path;
  std::string text;
};

// One capture's json (NPUGraph.debug_dump), named by the fx graph it captured.
struct DebugTreeCapture {
  std::string prefix;
  std::string model;     // the model__K directory it was written into
  std::string fx_graph;  // "graph_1"
  std::string aclgraph_id;
  int rank = -1;  // the device index in the name
  int64_t pid = -1;
  std::string timestamp;  // UTC %Y%m%d%H%M%S%f
  std::string path;
  uint64_t bytes = 0;
  bool json_ok = false;  // the file parses as JSON
};

// A file airscope lists without loading (output code, repro scripts, IR dumps).
struct DebugTreeFile {
  std::string prefix;
  std::string what;  // "TorchAir output code of model__0/forward", "Inductor fx_graph_runnable.py", ...
  std::string model;
  std::string phase;
  std::string path;
  uint64_t bytes = 0;
};

// A log inside the tree: read by the TORCH_LOGS or TORCH_TRACE reader.
struct DebugTreeLog {
  std::string prefix;
  enum class Kind : uint8_t { kTorchAir, kTorchDynamo, kTrace } kind = Kind::kTorchAir;
  std::string path;
  int64_t pid = -1;  // kTrace: the pid of its first record
};

struct DebugTreeRun {
  std::string dir;
  std::string prefix;
  int rank = -1;                    // `-rank_<r>` on the run's name
  int64_t pid = -1;                 // `-pid_<pid>` on the run's name
  std::string torchair;             // "torchair" or "npugraph_ex" (its root's name), empty when there is none
  std::vector<std::string> models;  // model__K directories, in K order
};

struct DebugTreeProblem {
  std::string path;
  std::string message;
};

struct DebugTree {
  std::string path;
  std::string layout;  // "torch_compile_debug" (runs), "run", "torchair", "graph_dump"
  std::vector<DebugTreeRun> runs;
  // Run by run; in a model, dynamo_out then each phase (forward, backward,
  // joint, others) in NNN order; graph_dump files by graph number, the
  // original before the optimized.
  std::vector<DebugTreeGraph> graphs;
  std::vector<DebugTreeCapture> captures;
  std::vector<DebugTreeFile> files;  // listed, not loaded
  std::vector<DebugTreeLog> logs;
  std::vector<std::string> unknown;  // files in no layout airscope knows
  std::vector<DebugTreeProblem> problems;
  size_t entries = 0;  // directory entries looked at
  static constexpr size_t kMaxEntries = 200000;
};

// What `dir` is, as a TORCH_COMPILE_DEBUG tree: "" when it is none (no run_*,
// torchair/, npugraph_ex/, torchinductor/, torchdynamo/, model__K, tlparse/
// or graph_dump file in it).
std::string DebugTreeLayout(const std::string& dir);

// Reads the tree (graph files up to max_bytes each). Errors only when `dir`
// cannot be listed or is no tree at all.
Result<DebugTree> ReadDebugTree(const std::string& dir, uint64_t max_bytes);

// "graph_after_view_to_reshape" -> "after_view_to_reshape"; "graph" stays.
std::string DebugStageKind(std::string_view stage);
// The pass after which TorchAir wrote a stage dump ("graph_after_X" -> "X"),
// or "" for the 000 graph and names that are not "graph_after_...".
std::string DebugStagePass(std::string_view stage);

}  // namespace airscope

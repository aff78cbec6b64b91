// PiecewiseRuntime: vLLM's piecewise graph runtime as vllm-ascend runs it on
// the NPU (the third capture manager, beside TorchAir's AclGraph and the
// shell's `capture`): the model's FX graph cut at the attention ops
// (core/analysis/piecewise_split.h), every piece between them captured once
// per size of cudagraph_capture_sizes through torch_npu's graph API, the
// attention pieces run eagerly between the replays.
//
// As the sources do it:
//   - One graph per (captured piece x size), each an ACLGraphWrapper entry
//     keyed by the batch descriptor, captured with
//     `torch.npu.graph(aclgraph, pool=self.graph_pool)` (vag:187) into ONE
//     pool for the whole process, current_platform.get_global_graph_pool()
//     (vag:107): every piece and every size share it. The wrapper copies no
//     input (vag:76-82): a piece reads its inputs where they are.
//   - Sizes are captured largest first, "so that the smaller shapes can
//     reuse the memory pool allocated for the large shapes" (vLLM's
//     gpu_model_runner capture_model, reversed(cudagraph_batch_sizes)).
//   - Within one size's forward, a piece's outputs stay alive while a later
//     piece still reads them; the last piece's output is weak-referenced at
//     once (weak_ref_output, vag:195-202): its memory goes back to the pool.
//   - A batch of N tokens runs the graphs of the smallest capture size >= N
//     (vLLM pads the batch to it); beyond the largest size every piece runs
//     eagerly. The log lines are vllm-ascend's: "Capturing a aclgraph on
//     (PIECEWISE,...)" (DEBUG, vag:159), "Replaying aclgraph" (INFO once,
//     vag:252).
//   - A capture the device's streams cannot take fails as the runtime does
//     (SimDevice::Capture, StreamResourceError) and vllm-ascend re-raises it
//     with its own advice (vag:211-219).
//
// Streams a captured graph holds (what the hardware does is not public; this
// is what vllm-ascend's sizing formula assumes, vau26:633-733, and airscope
// says so where it prints them): the streams its tasks run on (the capture
// stream, and each multi-stream scope's), plus, per communication group its
// collectives use, by HCCL's expansion mode: FFTS+ 2 (the formula divides
// by 1 + 2 x groups) and 40 more once per group on the device; AIV 1 (its
// parallel_factor counts 1 per group); AICPU (A3's default) rank_size - 1,
// the comment's worst case. Events: the event records of its tasks.
//
// --layers: a graph traced with a few layers stands for a model with more.
// A layer is found where the split pieces' ops repeat (one attention per
// layer, or an indexer and an attention); the pieces before the first layer
// and the last layer (with what follows it) stay, the layers between repeat
// in their order. One split op per layer makes N + 1 graphs per size for N
// layers, as the formula counts (resources_per_graph = num_hidden_layers + 1,
// vau26:675); more split ops per layer make more.
//
// Contract: CaptureSize either captures every piece at that size or leaves
// the device as it was (the graphs it made released, the pool's new
// segments kept, as a real pool keeps them).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/analysis/piecewise_split.h"
#include "core/device/simulator.h"
#include "core/ir/graph.h"
#include "core/lower/task_graph.h"
#include "core/ops/op_registry.h"
#include "core/status.h"

namespace airscope {

enum class HcclExpansion : uint8_t { kFfts, kAiv, kAicpu };
const char* HcclExpansionName(HcclExpansion mode);                       // "ffts", "aiv", "aicpu"
std::optional<HcclExpansion> ParseHcclExpansion(std::string_view text);  // and back

struct CommStreams {
  HcclExpansion mode = HcclExpansion::kFfts;
  int64_t rank_size = 16;  // kAicpu: the ranks of a group (the comment's worst case is 16)
  // -1: the groups each piece's collectives name; else every captured piece
  // communicates in this many groups (the formula's assumption: dp and tp
  // groups of size > 1).
  int64_t assumed_groups = -1;
  int64_t PerGraph(int64_t groups) const;   // streams a graph adds for `groups` groups
  int64_t PerDevice(int64_t groups) const;  // streams the device gives up once for them
};

// A piece as the runtime runs it: the split's piece and its graph after the
// session's pipeline (`lower`), with the size symbol still in it.
struct RuntimePiece {
  GraphPiece piece;  // piece.graph: as split
  std::shared_ptr<const Graph> lowered;
};

struct PiecewiseOptions {
  std::vector<int64_t> capture_sizes;  // any order, no repeats
  int64_t layers = 0;                  // 0: the graph's own split ops
  CommStreams comm;
};

// One captured graph of one piece instance at one size.
struct PieceCapture {
  size_t instance = 0;
  uint32_t graph = 0;  // SimDevice's id
  int64_t streams = 0;
  int64_t events = 0;
  int64_t capture_ns = 0;
};

struct SizeCapture {
  int64_t size = 0;
  std::vector<PieceCapture> graphs;  // in instance order
  int64_t streams = 0;               // held by this size's graphs
  int64_t events = 0;
  int64_t capture_ns = 0;
  int64_t pool_before = 0;  // the global pool's reserved bytes before and after
  int64_t pool_after = 0;
  // Kernels without a cost model (no output size) among this size's graphs:
  // when > 0 the pool bytes are a lower bound.
  int64_t unknown_cost_kernels = 0;
};

struct BatchRun {
  int64_t tokens = 0;
  int64_t padded = 0;  // the capture size it ran at; 0: eager (beyond the largest size)
  int64_t wall_ns = 0;
  int64_t replays = 0;
  int64_t eager_pieces = 0;
  bool lower_bound = false;  // a task of unknown cost ran: the time is a lower bound
  std::vector<std::string> lines;
};

class PiecewiseRuntime {
 public:
  // Errors: no captured piece, no size, a size < 1, a repeat, a piece input
  // with a symbol other than the size symbol, --layers below 1 or asking for
  // layers of a graph with no piece between two split ops.
  static Result<PiecewiseRuntime> Make(std::string name, std::vector<RuntimePiece> pieces, PiecewiseOptions options,
                                       const OpRegistry& registry);

  const std::string& name() const { return name_; }
  const std::string& size_symbol() const { return symbol_; }
  const PiecewiseOptions& options() const { return options_; }
  // The sizes in capture order: largest first.
  std::vector<int64_t> CaptureOrder() const;
  size_t captured_instances() const;                      // graphs per size
  std::string InstanceLabel(size_t instance) const;       // "submod_2 (layer 7)", "submod_0 (before layer 1)"
  int64_t graph_layers() const { return graph_layers_; }  // layers the graph has (its split ops' repeats)
  int64_t layers() const { return layers_; }              // layers the runtime runs (--layers, else the graph's)
  int64_t most_groups() const { return most_groups_; }    // communication groups of the piece with the most

  // Captures every captured piece at `size` into `pool` (SimDevice's; made
  // by the caller, shared by every size). The first call also holds the
  // communication streams the device gives up per group.
  Result<SizeCapture> CaptureSize(int64_t size, SimDevice& device, PoolId pool, const OpRegistry& registry,
                                  std::vector<std::string>* lines);
  const std::vector<SizeCapture>& captured() const { return sizes_; }
  // Releases every graph this runtime captured (the pool stays the caller's).
  void Release(SimDevice& device);
  // The same pieces and settings with other capture sizes, nothing captured.
  Result<PiecewiseRuntime> WithSizes(std::vector<int64_t> sizes) const;

  Result<BatchRun> Run(int64_t tokens, SimDevice& device, const OpRegistry& registry);

 private:
  struct Instance {
    size_t piece = 0;  // index into pieces_
    int64_t layer = 0;
    // For each output of the piece: how many captured instances after this
    // one still read it (-1: to the end of the forward).
    std::vector<int64_t> keep_for;
  };
  // A piece's tasks at a size, and per output the task making its memory
  // (-1: none); `cache` keeps them for the other instances of the piece.
  struct LoweredPiece {
    TaskGraph tasks;
    std::vector<int64_t> output_task;
    int64_t unknown_cost_kernels = 0;  // CountKernels
  };
  Result<const LoweredPiece*> Lower(size_t piece, int64_t size, const OpRegistry& registry,
                                    std::map<size_t, LoweredPiece>& cache) const;
  std::string CommStreamsOwner() const;  // who holds the device's communication streams (SimDevice::HoldStreams)
  Result<std::unique_ptr<Graph>> AtSize(size_t piece, int64_t size, const OpRegistry& registry) const;

  std::string name_;
  std::string symbol_;
  int64_t graph_layers_ = 0;
  int64_t layers_ = 0;
  std::vector<RuntimePiece> pieces_;
  std::vector<Instance> instances_;
  std::vector<int64_t> piece_groups_;                   // per piece
  int64_t most_groups_ = 0;                             // the largest of piece_groups_
  std::vector<std::vector<std::string>> output_bases_;  // per piece, per output: the node owning its memory
  PiecewiseOptions options_;
  std::vector<SizeCapture> sizes_;
  bool device_streams_held_ = false;
  bool replay_logged_ = false;
};

}  // namespace airscope

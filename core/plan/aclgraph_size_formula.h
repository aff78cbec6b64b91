// vllm-ascend's update_aclgraph_sizes, as its source had it: the empirical
// formula that cut a PIECEWISE ACL graph model's capture sizes down to the
// number its authors judged the device's streams (about 2,048) allow, then
// kept that many sizes spread evenly over the list, first and last included.
//
// Two versions, each exactly as one commit of vllm-ascend has it:
//   k2025_06: vllm_ascend/utils.py @0060886a (2025-06-25), the version
//             vllm-ascend #1168 quotes (Qwen3-235B on 8 NPUs: 1920/(94+1)/3 =
//             6 sizes, [512, 408, 304, 192, 88, 1]). MAX_CAPTURE_SIZE 1920
//             (vau25:55), parallel_factor 1 + how many of dp_local, tp, ep,
//             etp exceed 1 (vau25:284-290).
//   k2026_06: vllm_ascend/utils.py @ac8a4279 (2026-06-08), the last version
//             before vllm-ascend #9962 (5f2ef5a0) removed the formula: "after
//             validating newer HDK/CANN stacks ... now we can capture many
//             more graphs". MAX_CAPTURE_SIZE 1800 (vau26:640), draft (MTP)
//             layers counted, HCCL_OP_EXPANSION_MODE=AIV and the default
//             (FFTS+ on A2) branches, context parallel and FULL_AND_PIECEWISE
//             deductions (vau26:633-782).
// Arithmetic is Python's: true division in double, math.floor, and round()
// rounding halves to even. Nothing here is a device measurement: it is what
// that code computes from the numbers given.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/status.h"

namespace airscope {

enum class AclGraphSizeFormula { k2025_06, k2026_06 };

// "2025-06" / "2026-06", and back (nullopt for any other text).
const char* AclGraphSizeFormulaName(AclGraphSizeFormula version);
std::optional<AclGraphSizeFormula> ParseAclGraphSizeFormula(std::string_view text);

struct AclGraphSizeInputs {
  AclGraphSizeFormula version = AclGraphSizeFormula::k2026_06;
  int64_t num_hidden_layers = 0;
  std::vector<int64_t> sizes;  // cudagraph_capture_sizes, in the order vLLM holds them
  // Parallel sizes (parallel_config). k2025_06 reads dp as data_parallel_size_local.
  int64_t data_parallel_size = 1;
  int64_t tensor_parallel_size = 1;
  int64_t expert_parallel_size = 1;         // k2025_06 only
  int64_t expert_tensor_parallel_size = 1;  // k2025_06 only
  // k2026_06 only:
  bool hccl_aiv = false;                // HCCL_OP_EXPANSION_MODE=AIV
  bool enable_expert_parallel = false;  // parallel_config.enable_expert_parallel
  bool multistream_overlap_shared_expert = false;
  bool moe_model = false;     // is_moe_model(vllm_config)
  int64_t draft_layers = -1;  // the draft model's get_total_num_hidden_layers(); -1: no draft model
  int64_t prefill_context_parallel_size = 1;
  int64_t decode_context_parallel_size = 1;
  bool full_and_piecewise = false;  // cudagraph_mode == FULL_AND_PIECEWISE
  // MAX_CAPTURE_SIZE; -1 takes the version's own (1920 or 1800).
  int64_t max_capture_size = -1;
};

struct AclGraphSizeResult {
  int64_t max_capture_size = 0;     // after the version's deductions
  int64_t resources_per_graph = 0;  // layers + 1 (+ draft layers + 1)
  int64_t max_num_batch_sizes = 0;  // what the formula allows (may be <= 0)
  bool adjusted = false;            // the list was cut
  std::vector<int64_t> sizes;       // the sizes vllm-ascend would capture
  // The arithmetic as the source does it, one line per step, e.g.
  // "max_num_batch_sizes = floor(1920 / (94 + 1) / 3) = 6".
  std::vector<std::string> steps;
};

// Errors: inputs the source could not have (no sizes, layers < 1, a parallel
// size < 1), and k2025_06 cutting to 1 or fewer sizes, where that code divides
// by zero or indexes an empty list (named as the Python error it raises).
Result<AclGraphSizeResult> ApplyAclGraphSizeFormula(const AclGraphSizeInputs& in);

}  // namespace airscope

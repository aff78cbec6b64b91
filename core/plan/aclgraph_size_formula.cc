#include "core/plan/aclgraph_size_formula.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/spread_sample.h"

namespace airscope {
namespace {

// Python's math.floor(a / b / c) over ints: true division in double, left to right.
int64_t FloorDiv3(int64_t a, int64_t b, int64_t c) {
  return static_cast<int64_t>(std::floor(static_cast<double>(a) / static_cast<double>(b) / static_cast<double>(c)));
}

int Count(std::initializer_list<int64_t> sizes) {
  return static_cast<int>(std::count_if(sizes.begin(), sizes.end(), [](int64_t s) { return s > 1; }));
}

}  // namespace

const char* AclGraphSizeFormulaName(AclGraphSizeFormula version) {
  return version == AclGraphSizeFormula::k2025_06 ? "2025-06" : "2026-06";
}

std::optional<AclGraphSizeFormula> ParseAclGraphSizeFormula(std::string_view text) {
  for (AclGraphSizeFormula version : {AclGraphSizeFormula::k2025_06, AclGraphSizeFormula::k2026_06}) {
    if (text == AclGraphSizeFormulaName(version)) return version;
  }
  return std::nullopt;
}

Result<AclGraphSizeResult> ApplyAclGraphSizeFormula(const AclGraphSizeInputs& in) {
  if (in.sizes.empty()) return Status::Errorf("no capture sizes to trim");
  if (in.num_hidden_layers < 1)
    return Status::Errorf("num_hidden_layers must be at least 1, not {}", in.num_hidden_layers);
  for (int64_t s :
       {in.data_parallel_size, in.tensor_parallel_size, in.expert_parallel_size, in.expert_tensor_parallel_size,
        in.prefill_context_parallel_size, in.decode_context_parallel_size}) {
    if (s < 1) return Status::Errorf("a parallel size must be at least 1, not {}", s);
  }
  if (in.draft_layers < -1) return Status::Errorf("draft layers must be at least 0, not {}", in.draft_layers);

  AclGraphSizeResult out;
  const auto original = static_cast<int64_t>(in.sizes.size());
  if (in.version == AclGraphSizeFormula::k2025_06) {
    out.max_capture_size = in.max_capture_size >= 0 ? in.max_capture_size : 1920;  // vau25:55
    out.resources_per_graph = in.num_hidden_layers + 1;
    // vau25:287-292: 1 + how many of dp_local, tp, ep, etp exceed 1.
    int64_t parallel_factor = 1 + Count({in.data_parallel_size, in.tensor_parallel_size, in.expert_parallel_size,
                                         in.expert_tensor_parallel_size});
    out.steps.push_back(fmt::format("parallel_factor = 1 + #(dp, tp, ep, etp > 1) = {}", parallel_factor));
    out.max_num_batch_sizes = FloorDiv3(out.max_capture_size, out.resources_per_graph, parallel_factor);  // vau25:295
    out.steps.push_back(fmt::format("max_num_batch_sizes = floor({} / ({} + 1) / {}) = {}", out.max_capture_size,
                                    in.num_hidden_layers, parallel_factor, out.max_num_batch_sizes));
    if (out.max_num_batch_sizes < original && out.max_num_batch_sizes <= 1) {
      // vau25:303: (len - 1) / (max - 1) divides by zero at 1; at 0 or less
      // the index list is empty and indices[0] fails.
      return Status::Errorf(
          "the 2025-06 formula allows {} size(s) of {}: vllm-ascend @0060886a raises {} there (vau25:303-307)",
          out.max_num_batch_sizes, original, out.max_num_batch_sizes == 1 ? "ZeroDivisionError" : "IndexError");
    }
  } else {
    int64_t max_capture = in.max_capture_size >= 0 ? in.max_capture_size : 1800;  // vau26:640
    if (in.full_and_piecewise) {
      // vau26:654-655: FULL_AND_PIECEWISE also captures each size as a full graph.
      int64_t before = max_capture;
      max_capture = std::max<int64_t>(0, max_capture - original);
      out.steps.push_back(
          fmt::format("FULL_AND_PIECEWISE: MAX_CAPTURE_SIZE = max(0, {} - {}) = {}", before, original, max_capture));
    }
    out.resources_per_graph = in.num_hidden_layers + 1;                        // vau26:675
    if (in.draft_layers >= 0) out.resources_per_graph += in.draft_layers + 1;  // vau26:677-681
    out.steps.push_back(
        in.draft_layers >= 0
            ? fmt::format("resources_per_graph = ({} + 1) + ({} + 1) = {}", in.num_hidden_layers, in.draft_layers,
                          out.resources_per_graph)
            : fmt::format("resources_per_graph = {} + 1 = {}", in.num_hidden_layers, out.resources_per_graph));
    int64_t num_comm_groups = Count({in.data_parallel_size, in.tensor_parallel_size});  // vau26:684-690
    out.steps.push_back(fmt::format("num_comm_groups = #(dp, tp > 1) = {}", num_comm_groups));
    if (in.hccl_aiv) {
      // vau26:692-711.
      int64_t parallel_factor =
          1 + num_comm_groups + (in.enable_expert_parallel ? 1 : 0) + (in.multistream_overlap_shared_expert ? 1 : 0);
      if (in.moe_model) {
        parallel_factor += in.data_parallel_size > 1 ? 1 : 0;
      } else {
        int64_t before = max_capture;
        max_capture -= parallel_factor * out.resources_per_graph;
        out.steps.push_back(fmt::format("dense model under AIV: MAX_CAPTURE_SIZE = {} - {} * {} = {}", before,
                                        parallel_factor, out.resources_per_graph, max_capture));
      }
      out.steps.push_back(fmt::format("parallel_factor = {}", parallel_factor));
      out.max_num_batch_sizes = FloorDiv3(max_capture, out.resources_per_graph, parallel_factor);
      out.steps.push_back(fmt::format("max_num_batch_sizes = floor({} / {} / {}) = {}", max_capture,
                                      out.resources_per_graph, parallel_factor, out.max_num_batch_sizes));
    } else {
      // vau26:713-733: each context-parallel kind takes ~100 streams, each
      // communication group 40, and the divisor grows by 2 per group.
      for (int64_t cp : {in.prefill_context_parallel_size, in.decode_context_parallel_size}) {
        if (cp > 1) {
          out.steps.push_back(
              fmt::format("context parallel: MAX_CAPTURE_SIZE = {} - 100 = {}", max_capture, max_capture - 100));
          max_capture -= 100;
        }
      }
      out.max_num_batch_sizes =
          FloorDiv3(max_capture - num_comm_groups * 40, out.resources_per_graph, 1 + num_comm_groups * 2);
      out.steps.push_back(fmt::format("max_num_batch_sizes = floor(({} - {} * 40) / {} / (1 + {} * 2)) = {}",
                                      max_capture, num_comm_groups, out.resources_per_graph, num_comm_groups,
                                      out.max_num_batch_sizes));
    }
    out.max_capture_size = max_capture;
  }

  out.adjusted = out.max_num_batch_sizes < original;
  if (!out.adjusted) {
    out.sizes = in.sizes;
  } else if (out.max_num_batch_sizes <= 1) {
    out.sizes = {in.sizes.back()};  // vau26:747-749 (the 2025-06 version failed above)
  } else {
    out.sizes = SampleCaptureSizes(in.sizes, out.max_num_batch_sizes);
  }
  return out;
}

}  // namespace airscope

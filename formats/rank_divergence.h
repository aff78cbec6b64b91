// Where the per-rank TORCH_TRACE logs of one distributed run disagree: the
// compile ids each rank logged, and, for a compile id logged by several
// ranks, its guards, its graphs and its recompile reasons. A difference in
// one of those is a divergence: the ranks compiled different programs.
//
// A guard dump is not all guards. torch/_dynamo/guards.py
// CheckFunctionManager.__init__ logs dynamo_cpp_guards_str as
// f"{self.guard_manager}\nGuard latency = {latency:.2f} us", and
// GuardManagerWrapper.__str__ starts the tree with an empty line and
// "TREE_GUARD_MANAGER:". The latency is profile_guard_manager(root, scope, 1):
// one timed evaluation, so it differs from process to process for the same
// guards. Those lines (the header, empty lines, the latency) are left out of
// the comparison; everything else in the dump is a guard or a guard manager
// line ("+- TENSOR_MATCH: ...", "+- GuardManager: source=...") and counts.
// Object and type ids (___check_obj_id(x, 140...), ___check_type_id(x,
// 8812224)) are per process too: any run of 7 or more digits compares equal.
//
// Timings are reported apart, as timings: a compile's guard latency on each
// rank, only when the slowest rank took at least kLatencyRatio times the
// fastest and at least kLatencyMinDiffUs more (a single evaluation of a few
// microseconds varies by that much on one machine: tlparse's multi_rank logs
// of one program show 2.71 us on one rank and 10.21 us on another).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "formats/torch_trace.h"

namespace airscope {

// A dynamo_cpp_guards_str payload split into what is compared and what is not.
struct GuardDump {
  // The guard lines with their 1-based line numbers in the payload (the lines
  // `guards ID` prints), without the header, empty lines and the latency.
  std::vector<std::pair<size_t, std::string>> guards;
  std::optional<double> latency_us;  // "Guard latency = X us", when there
};
GuardDump SplitGuardDump(std::string_view payload);

// Digit runs of 7 or more (object and type ids) replaced by '#'.
std::string WithoutObjectIds(std::string_view text);

// One thing two ranks logged differently for the same compile id.
struct RankLineDiff {
  std::string id;    // compile id, or trace id:stage for a graph
  int rank_a = -1;   // the first rank that logged it
  int rank_b = -1;   // a rank whose copy differs
  size_t line = 0;   // the first differing line (payload line numbers for guards)
  std::string a, b;  // that line on each rank ("" past the end)
};

struct RankLatency {
  std::string id;
  std::vector<std::pair<int, double>> per_rank;  // rank, microseconds
};

struct RankDivergence {
  std::vector<int> ranks;
  // Compile ids grouped by the ranks that logged them, in order of first appearance.
  std::vector<std::pair<std::vector<int>, std::vector<std::string>>> compile_ids;
  std::vector<RankLineDiff> guards, graphs, recompiles;
  // How many compile ids (graphs: id:stage) were logged by two ranks or more.
  size_t guards_compared = 0, graphs_compared = 0, recompiles_compared = 0;
  std::vector<RankLatency> latencies;  // compile ids whose latency spread is past the threshold
  size_t latencies_compared = 0;
  double largest_ratio = 0;  // slowest / fastest over all compared compile ids

  static constexpr double kLatencyRatio = 2.0;
  static constexpr double kLatencyMinDiffUs = 10.0;
};

RankDivergence CompareRanks(const std::vector<std::pair<int, const TraceLog*>>& logs);

}  // namespace airscope

// Memory per pipeline stage: a chain graph of N nodes (default 1,000,000)
// stepped through S stages (default 100) of a pass that moves a few nodes to
// another stream, with the default 1 GiB snapshot budget and without one.
// Prints RSS after each 10th stage, the measured bytes per node of a cloned
// graph (what PipelineRun's estimate assumes), and the time to recompute a
// dropped stage. The unbudgeted run stops once RSS passes a cap (default
// 4 GiB) instead of exhausting the machine, and extrapolates.
//   stages_bench [NODES] [STAGES] [CAP_MIB]
#include <malloc.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "bench/chain_graphs.h"
#include "core/pass/pipeline_run.h"

namespace airscope {
namespace {

double RssMiB() {
  malloc_trim(0);  // freed snapshots go back to the OS, so RSS shows what is held
  return static_cast<double>(bench::ResidentBytes()) / (1 << 20);
}

// Moves the first 3 default-stream compute nodes to stream_1: a few nodes per stage.
Result<bool> StreamSome(Graph& graph, PassContext&) {
  int moved = 0;
  for (Node* node : graph) {
    if (node->op() != OpKind::kCallFunction || !node->stream().empty()) continue;
    graph.SetStream(node, "stream_1");
    if (++moved == 3) break;
  }
  return moved > 0;
}

void RunStages(const std::shared_ptr<const Graph>& input, int stages, uint64_t budget, double cap_mib,
               const PassRegistry& registry) {
  PassContext context;
  PipelineEnv env;
  env.passes = &registry;
  env.context = &context;
  PipelineOptions options;
  options.memory_budget = budget;
  PipelineRun run(input, std::vector<std::string>(static_cast<size_t>(stages), "stream_some"), options);
  fmt::print("{:>6} {:>6} {:>12} {:>10} {:>9}\n", "stage", "kept", "est MiB", "RSS MiB", "step s");
  double base = RssMiB();
  for (int s = 1; s <= stages; ++s) {
    auto start = std::chrono::steady_clock::now();
    RunReport report = run.Step(1, env);
    double seconds = bench::SecondsSince(start);
    if (report.stop == RunReport::Stop::kFailed) {
      fmt::print("failed: {}\n", report.error.message());
      return;
    }
    double rss = RssMiB();
    if (s % 10 == 0 || s == 1 || rss > cap_mib) {
      size_t kept = 0;
      for (size_t k = 1; k <= run.cursor(); ++k) kept += run.IsKept(k) && run.OwnerOf(k) == k;
      fmt::print("{:>6} {:>6} {:>12.0f} {:>10.0f} {:>9.2f}\n", s, kept,
                 static_cast<double>(run.KeptBytes()) / (1 << 20), rss, seconds);
    }
    if (rss > cap_mib) {
      double per_stage = (rss - base) / s;
      fmt::print("stopped at the {:.0f} MiB cap: ~{:.0f} MiB per stage, ~{:.1f} GiB for {} stages\n", cap_mib,
                 per_stage, per_stage * stages / 1024, stages);
      return;
    }
  }
  if (budget != UINT64_MAX && run.cursor() > 2) {
    size_t middle = run.cursor() / 2;
    auto start = std::chrono::steady_clock::now();
    Result<std::shared_ptr<const Graph>> graph = run.GraphAt(middle);
    fmt::print("recomputing dropped stage {} (kept: {}): {:.2f} s{}\n", middle, run.IsKept(middle) ? "yes" : "no",
               bench::SecondsSince(start), graph.ok() ? "" : " FAILED: " + graph.status().message());
  }
}

}  // namespace
}  // namespace airscope

int main(int argc, char** argv) {
  using namespace airscope;
  bench::PrintMachine();
  int nodes = argc > 1 ? std::atoi(argv[1]) : 1000000;
  int stages = argc > 2 ? std::atoi(argv[2]) : 100;
  double cap_mib = argc > 3 ? std::atof(argv[3]) : 4096;
  PassRegistry registry;
  PassInfo info;
  info.name = "stream_some";
  info.run = StreamSome;
  (void)registry.Register(info);

  double before = RssMiB();
  auto start = std::chrono::steady_clock::now();
  std::shared_ptr<const Graph> input = ReluChain(nodes - 2);
  double built = RssMiB();
  fmt::print("{} nodes built in {:.2f} s: {:.0f} MiB, {:.0f} bytes/node\n", nodes, bench::SecondsSince(start),
             built - before, (built - before) * (1 << 20) / nodes);
  start = std::chrono::steady_clock::now();
  std::unique_ptr<Graph> copy = input->Clone();
  double cloned = RssMiB();
  fmt::print("one clone: {:.2f} s, {:.0f} bytes/node (PipelineRun estimates {})\n", bench::SecondsSince(start),
             (cloned - built) * (1 << 20) / nodes, kEstimatedBytesPerNode);
  copy.reset();

  fmt::print("\n== {} stages, budget 1 GiB (default)\n", stages);
  RunStages(input, stages, uint64_t{1} << 30, 1e12, registry);
  fmt::print("\n== {} stages, no budget (stops at {:.0f} MiB RSS)\n", stages, cap_mib);
  RunStages(input, stages, UINT64_MAX, cap_mib, registry);
  return 0;
}

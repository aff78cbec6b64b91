// The whole default TorchAir pipeline on transformer-like graphs
// (bench/transformer_graph.h). Prints per-pass times for the largest graph
// and the total per size.
// Target (issue 13): `run` under 0.5 s beyond `load` for 100,000 nodes.
//   pipeline_bench [NODES] [BINARY]   (default 100000, repl/airscope relative to the build directory)
//   pipeline_bench --write NODES PATH  writes the NODES-node graph as print_readable text (for profiling
//                                      `airscope -c 'load PATH; run'` under perf or callgrind) and exits
//   pipeline_bench --pass PASS NODES [REPEATS]  runs the pipeline up to PASS, then PASS alone on REPEATS
//                                      (default 5) fresh copies of the graph it sees, timing each: a profile
//                                      of this process is then mostly that pass
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "bench/transformer_graph.h"
#include "core/fx/readable.h"
#include "core/ir/graph.h"
#include "core/ops/shape_inference.h"
#include "core/pass/decomposition.h"
#include "core/pass/pipeline_run.h"

namespace airscope {
namespace {

constexpr int kRuns = 5;
constexpr int kBigRuns = 3;  // above 100k nodes: the first run pays for fresh memory, the others mostly not

// The builtin passes and tables, and the context and environment a run
// reads them through (both point into the struct: it does not move).
struct BuiltinPipeline {
  BuiltinPipeline() {
    context.registry = &OpRegistry::Builtin();
    context.decompositions = &decompositions;
    context.passes = &passes;
    env.passes = &passes;
    env.context = &context;
    env.ignore_breakpoints = true;
  }
  BuiltinPipeline(const BuiltinPipeline&) = delete;
  BuiltinPipeline& operator=(const BuiltinPipeline&) = delete;

  PassRegistry passes = PassRegistry::WithBuiltins();
  DecompositionTable decompositions = DecompositionTable::Builtin();
  PassContext context;
  PipelineEnv env;
};

// One run of the whole pipeline on `input`; the run is kept for its stages.
std::unique_ptr<PipelineRun> RunPipeline(std::shared_ptr<const Graph> input, const BuiltinPipeline& pipeline) {
  auto run = std::make_unique<PipelineRun>(input);
  Result<RunReport> report = run->RunUntil(std::nullopt, pipeline.env);
  if (!report.ok() || report->stop == RunReport::Stop::kFailed) {
    fmt::print(stderr, "pipeline failed: {}\n", report.ok() ? report->error.message() : report.status().message());
    std::exit(1);
  }
  return run;
}

// The `nodes`-node graph as print_readable text in `path`; false (said on
// stderr) when it cannot be written.
bool WriteReadable(size_t nodes, const std::string& path) {
  std::string text = PrintReadable(*bench::Transformer(nodes));
  std::FILE* file = std::fopen(path.c_str(), "w");
  bool written = file && std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (file) written = std::fclose(file) == 0 && written;
  if (!written) fmt::print(stderr, "cannot write {}\n", path);
  return written;
}

// What a user waits for: the airscope binary on the 100k graph written as
// print_readable text (with shapes, so every pass sees them), `load` alone
// and `load; run`, in kBinaryPairs pairs run back to back; `run` is the
// median of the pairs' differences. Pairs, not two medians of separate
// batches: this host's speed drifts from one batch to the next, and a pair
// sees the same drift on both sides. The spread says how much it wandered.
constexpr int kBinaryPairs = 7;

void MeasureBinary(const std::string& binary) {
  if (::access(binary.c_str(), X_OK) != 0) {
    fmt::print("({} not found: the binary rows are skipped)\n", binary);
    return;
  }
  std::string path = fmt::format("{}/pipeline_bench.{}.readable.py",
                                 std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp", ::getpid());
  if (!WriteReadable(100000, path)) return;
  std::string load_only = fmt::format("load {}", path);
  std::string load_run = fmt::format("load {}; run", path);
  std::vector<double> loads, load_runs, runs;
  for (int i = 0; i < kBinaryPairs; ++i) {
    bench::ChildRun load = bench::RunAirscope(binary, load_only);
    bench::ChildRun both = load.ok ? bench::RunAirscope(binary, load_run) : load;
    if (!both.ok) {
      ::unlink(path.c_str());
      fmt::print(stderr, "{} -c 'load; run' failed on the 100k graph\n", binary);
      return;
    }
    loads.push_back(load.seconds);
    load_runs.push_back(both.seconds);
    runs.push_back(both.seconds - load.seconds);
  }
  ::unlink(path.c_str());
  auto [fastest, slowest] = std::minmax_element(runs.begin(), runs.end());
  fmt::print(
      "binary, 100k graph as print_readable text (median of {} pairs): load {:.3f} s, load; run {:.3f} s, "
      "run {:.3f} s (pairs {:.3f}-{:.3f} s)\n",
      kBinaryPairs, bench::Median(loads), bench::Median(load_runs), bench::Median(runs), *fastest, *slowest);
}

// The pipeline up to `pass`, then `pass` alone on `repeats` copies of its
// input, each copied outside the timing. Exits 1 when the pass is not in
// the default pipeline or fails.
int TimeOnePass(std::string_view pass, size_t nodes, int repeats) {
  BuiltinPipeline pipeline;
  const PassInfo* info = pipeline.passes.Find(pass);
  if (info == nullptr) {
    fmt::print(stderr, "no pass '{}'\n", pass);
    return 1;
  }
  PipelineRun run(bench::Transformer(nodes));
  Result<RunReport> report = run.RunUntil(pass, pipeline.env);
  if (!report.ok()) {
    fmt::print(stderr, "{}\n", report.status().message());
    return 1;
  }
  if (report->stop != RunReport::Stop::kTarget) {
    fmt::print(stderr, "the pipeline stopped before {}\n", pass);
    return 1;
  }
  std::shared_ptr<const Graph> input = *run.GraphAt(run.cursor() - 1);
  bench::PrintMachine();
  std::vector<double> times;
  double copy_bytes = 0;  // of the first copy: later ones reuse the memory the one before freed
  for (int i = 0; i < repeats; ++i) {
    double before = bench::ResidentBytes();
    std::unique_ptr<Graph> graph = input->Clone();
    if (i == 0) copy_bytes = bench::ResidentBytes() - before;
    PassContext pass_context = pipeline.context;
    auto start = std::chrono::steady_clock::now();
    Result<bool> changed = RunGuarded(*info, *graph, pass_context);
    times.push_back(bench::SecondsSince(start));
    if (!changed.ok()) {
      fmt::print(stderr, "{} failed: {}\n", pass, changed.status().message());
      return 1;
    }
  }
  fmt::print(
      "{} on {} nodes: median {:.3f} s of {} (first {:.3f} s); a copy of its input: {:.0f} bytes/node "
      "(PipelineRun estimates {})\n",
      pass, input->size(), bench::Median(times), repeats, times.front(),
      copy_bytes / static_cast<double>(input->size()), kEstimatedBytesPerNode);
  return 0;
}

int Main(int argc, char** argv) {
  if ((argc == 4 || argc == 5) && std::string_view(argv[1]) == "--pass") {
    return TimeOnePass(argv[2], std::strtoull(argv[3], nullptr, 10), argc == 5 ? std::atoi(argv[4]) : 5);
  }
  if (argc == 4 && std::string_view(argv[1]) == "--write") {
    return WriteReadable(std::strtoull(argv[2], nullptr, 10), argv[3]) ? 0 : 1;
  }
  size_t max_nodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 100000;
  std::string binary = argc > 2 ? argv[2] : "repl/airscope";
  BuiltinPipeline pipeline;
  bench::PrintMachine();
  // The first run in a process pays for first-touch page faults of every
  // snapshot and table, as a user's first `run` does; later ones reuse the
  // memory malloc kept.
  fmt::print("{:>9} {:>9} {:>9} {:>10} {:>9}  (median of {} runs up to 100k nodes, {} above)\n", "nodes in",
             "nodes out", "first s", "median s", "us/node", kRuns, kBigRuns);
  for (size_t n : {1000, 10000, 100000, 1000000}) {
    if (n > max_nodes) break;
    std::shared_ptr<const Graph> input = bench::Transformer(n);
    std::unique_ptr<PipelineRun> run;
    std::vector<double> times;
    for (int i = 0; i < (n <= 100000 ? kRuns : kBigRuns); ++i) {
      run.reset();  // the previous run's snapshots are freed outside the timing
      auto start = std::chrono::steady_clock::now();
      run = RunPipeline(input, pipeline);
      times.push_back(bench::SecondsSince(start));
    }
    double first = times.front();
    double seconds = bench::Median(times);
    fmt::print("{:>9} {:>9} {:>9.3f} {:>10.3f} {:>9.2f}\n", input->size(), run->Current().size(), first, seconds,
               seconds * 1e6 / static_cast<double>(input->size()));
    if (n == max_nodes || n * 10 > max_nodes) {
      fmt::print("  per pass, last run (pass time only; the rest is snapshots, change detection and lint):\n");
      for (const StageRecord& stage : run->stages()) {
        if (stage.number == 0) continue;
        fmt::print("    {:<24} {:>8.3f} s  {:>8} nodes{}\n", stage.pass, stage.seconds, stage.nodes,
                   stage.changed ? "  changed" : "");
      }
    }
  }
  if (max_nodes >= 100000) MeasureBinary(binary);
  fmt::print("target (issue 13): `run` under 0.5 s beyond `load` at 100,000 nodes\n");
  return 0;
}

}  // namespace
}  // namespace airscope

int main(int argc, char** argv) { return airscope::Main(argc, argv); }

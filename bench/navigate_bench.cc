// navigate_bench: big-session navigation on an LLM-like graph (issue 33):
// a generated MoE decoder of 94 identical layers (bench/llm_graph.h), about
// 1,000,000 nodes by default, written as print_readable text (the form that
// carries shapes) to a temporary file.
//
// In process, median of 5: parsing that text, finding the repeated blocks
// (the layers, and the experts inside the shown layer: what `show` and
// `repeats` fold), a 2-hop neighbourhood (`focus`), the shortest data path
// from the first input to the output (`path`, across all 94 layers), and
// every user of the first input, transitively (`users --all`).
// Then the binary, median of 5 runs each: `load F` alone, and `load F` with
// each command after it; a command's time is the difference.
// Targets (issue 33): load < 0.5 s, folds and focus/path < 0.1 s
// (navigation < 50 ms after load), peak RSS <= 300 bytes/node.
// Usage: navigate_bench [nodes] [BINARY]  (BINARY default repl/airscope,
// relative to the build directory; skipped if it is not there)
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "bench/llm_graph.h"
#include "core/analysis/graph_neighbourhood.h"
#include "core/file_util.h"
#include "core/fx/readable.h"
#include "repl/graph_folding.h"

namespace {

using airscope::Graph;
using airscope::bench::MedianSeconds;

constexpr int kRuns = 5;
constexpr int kLayers = 94;

}  // namespace

int main(int argc, char** argv) {
  airscope::bench::PrintMachine();
  size_t nodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  std::string binary = argc > 2 ? argv[2] : "repl/airscope";
  int experts = airscope::bench::ExpertsFor(nodes, kLayers);

  auto build_start = std::chrono::steady_clock::now();
  std::unique_ptr<Graph> built = airscope::bench::LlmGraph(kLayers, experts);
  std::string text = airscope::PrintReadable(*built);
  fmt::print("graph: {} layers x {} experts = {} nodes, {:.1f} MB of print_readable text (made in {:.1f} s)\n", kLayers,
             experts, built->size(), static_cast<double>(text.size()) / 1e6,
             airscope::bench::SecondsSince(build_start));
  built.reset();
  std::string path = fmt::format("/tmp/navigate_bench_{}.py", getpid());
  if (airscope::Status written = airscope::WriteFile(path, text); !written.ok()) {
    fmt::print(stderr, "{}\n", written.message());
    return 1;
  }

  std::unique_ptr<Graph> graph;
  double parse = MedianSeconds(kRuns, [&] { graph = std::move(airscope::ParseReadable(text, path)).value(); });
  text.clear();
  text.shrink_to_fit();
  const airscope::Node& first = *graph->Find("hidden");
  const airscope::Node& output = *graph->output();
  const airscope::Node& middle = *graph->Nodes()[graph->size() / 2];
  const std::string middle_name = middle.name();  // the graph goes before the binary runs
  airscope::FoldedGraph folded;
  double fold = MedianSeconds(kRuns, [&] { folded = airscope::FoldRepeats(*graph); });
  size_t around = 0;
  double focus = MedianSeconds(kRuns, [&] { around = airscope::NodesAround(*graph, middle, 2, 200).nodes.size(); });
  size_t steps = 0;
  double path_seconds = MedianSeconds(kRuns, [&] { steps = airscope::DataPath(*graph, first, output).size(); });
  size_t users = 0;
  double closure = MedianSeconds(
      kRuns, [&] { users = airscope::TransitiveClosure(*graph, first, airscope::Direction::kUsers).nodes.size(); });
  size_t inner = folded.inside.empty() || folded.inside[0].empty() ? 0 : folded.inside[0][0].count;

  fmt::print("\nin process, median of {}:\n", kRuns);
  fmt::print("| step | figure | target |\n|---|---|---|\n");
  fmt::print("| parse the readable text | {:.3f} s | |\n", parse);
  fmt::print(
      "| fold: repeated blocks, and blocks inside the shown repeat | {:.3f} s ({} blocks, the first {} x {}; {} "
      "inside) | < 0.1 s |\n",
      fold, folded.blocks.size(), folded.blocks.empty() ? 0 : folded.blocks[0].count,
      folded.blocks.empty() ? 0 : folded.blocks[0].length, inner);
  fmt::print("| focus: 2 hops around %{} | {:.6f} s ({} nodes) | < 0.05 s |\n", middle.name(), focus, around);
  fmt::print("| path: %hidden to the output, all layers | {:.3f} s ({} nodes) | < 0.05 s |\n", path_seconds, steps);
  fmt::print("| users --all of %hidden | {:.3f} s ({} nodes) | |\n", closure, users);
  graph.reset();

  if (access(binary.c_str(), X_OK) != 0) {
    fmt::print("\n{} not found: the binary's figures are skipped\n", binary);
    std::remove(path.c_str());
    return 0;
  }
  auto median_run = [&](const std::string& commands, double* peak) {
    std::vector<double> seconds;
    for (int i = 0; i < kRuns; ++i) {
      airscope::bench::ChildRun run = airscope::bench::RunAirscope(binary, commands);
      if (!run.ok) {
        fmt::print(stderr, "{} -c '{}' failed\n", binary, commands);
        std::exit(1);
      }
      seconds.push_back(run.seconds);
      if (peak) *peak = std::max(*peak, run.peak_rss_bytes);
    }
    return airscope::bench::Median(seconds);
  };
  double peak = 0;
  double load = median_run(fmt::format("load {}", path), &peak);
  fmt::print("\nthe binary, median of {} runs each (a command: its run minus `load` alone):\n", kRuns);
  fmt::print("| command | figure | target |\n|---|---|---|\n");
  fmt::print("| load | {:.3f} s, peak RSS {:.0f} MB = {:.0f} bytes/node | < 0.5 s, <= 300 bytes/node |\n", load,
             peak / 1e6, peak / static_cast<double>(nodes));
  for (const std::string& command : {fmt::format("focus {} 2", middle_name), std::string("path hidden output"),
                                     std::string("repeats"), std::string("show"), std::string("users hidden --all")}) {
    double with = median_run(fmt::format("load {}; {}", path, command), nullptr);
    fmt::print("| {} | {:.3f} s | |\n", command, with - load);
  }
  std::remove(path.c_str());
  return 0;
}

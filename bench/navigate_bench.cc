// navigate_bench: big-session navigation on an LLM-like graph (issue 33):
// a generated MoE decoder of 94 identical layers (bench/llm_graph.h), about
// 1,000,000 nodes by default, written as print_readable text (the form that
// carries shapes) to a temporary file.
//
// Then in process, median of 5: parsing that text, finding the repeated blocks
// (the layers, and the experts inside the shown layer: what `show` and
// `repeats` fold), a 2-hop neighbourhood (`focus`), the shortest data path
// from the first input to the output (`path`, across all 94 layers), and
// every user of the first input, transitively (`users --all`).
// First the binary, median of 5 runs each: `load F` alone, and `load F` with
// each command 10 times after it; a command's time is the difference / 10.
// Targets (issue 33): load < 0.5 s, folds and focus/path < 0.1 s
// (navigation < 50 ms after load), peak RSS <= 300 bytes/node.
// Usage: navigate_bench [nodes] [BINARY] [--keep]  (BINARY default
// repl/airscope, relative to the build directory; skipped if it is not
// there; --keep leaves the text file, for profiling)
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
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
constexpr int kRepeats = 10;  // a command's runs after one load (the binary's figures)

}  // namespace

int main(int argc, char** argv) {
  airscope::bench::PrintMachine();
  size_t nodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  std::string binary = argc > 2 ? argv[2] : "repl/airscope";
  const bool keep = argc > 3 && std::string_view(argv[3]) == "--keep";
  int experts = airscope::bench::ExpertsFor(nodes, kLayers);

  auto build_start = std::chrono::steady_clock::now();
  std::unique_ptr<Graph> built = airscope::bench::LlmGraph(kLayers, experts);
  std::string text = airscope::PrintReadable(*built);
  fmt::print("graph: {} layers x {} experts = {} nodes, {:.1f} MB of print_readable text (made in {:.1f} s)\n", kLayers,
             experts, built->size(), static_cast<double>(text.size()) / 1e6,
             airscope::bench::SecondsSince(build_start));
  const std::string middle_name = built->Nodes()[built->size() / 2]->name();  // what focus is asked about
  built.reset();
  std::string path = fmt::format("/tmp/navigate_bench_{}.py", getpid());
  if (airscope::Status written = airscope::WriteFile(path, text); !written.ok()) {
    fmt::print(stderr, "{}\n", written.message());
    return 1;
  }

  // The binary first, before the graph is parsed in process (the child's
  // peak RSS is read as the child sees it: PeakRssOf).
  text.clear();
  text.shrink_to_fit();
  if (access(binary.c_str(), X_OK) == 0) {
    auto median_run = [&](const std::string& commands) {
      std::vector<double> seconds;
      for (int i = 0; i < kRuns; ++i) {
        airscope::bench::ChildRun run = airscope::bench::RunAirscope(binary, commands);
        if (!run.ok) {
          fmt::print(stderr, "{} -c '{}' failed\n", binary, commands);
          std::exit(1);
        }
        seconds.push_back(run.seconds);
      }
      return airscope::bench::Median(seconds);
    };
    double load = median_run(fmt::format("load {}", path));
    double peak = airscope::bench::PeakRssOf(binary, fmt::format("load {}", path));
    fmt::print(
        "\nthe binary, median of {} runs each (a command: (its {} runs after `load` minus `load` alone) / {}):\n",
        kRuns, kRepeats, kRepeats);
    fmt::print("| command | figure | target |\n|---|---|---|\n");
    fmt::print("| load | {:.3f} s, peak RSS {:.0f} MB = {:.0f} bytes/node | < 0.5 s, <= 300 bytes/node |\n", load,
               peak / 1e6, peak / static_cast<double>(nodes));
    // A command runs kRepeats times after one load, so its share is well
    // above the load's run-to-run noise.
    for (const std::string& command :
         {fmt::format("focus {} 2", middle_name), std::string("path hidden output"), std::string("repeats"),
          std::string("show"), std::string("users hidden --all")}) {
      std::string commands = fmt::format("load {}", path);
      for (int i = 0; i < kRepeats; ++i) commands += "; " + command;
      double each = (median_run(commands) - load) / kRepeats;
      if (each < 0.001) {
        fmt::print("| {} | < 0.001 s (below the load's noise) | |\n", command);
      } else {
        fmt::print("| {} | {:.3f} s | |\n", command, each);
      }
    }
  } else {
    fmt::print("\n{} not found: the binary's figures are skipped\n", binary);
  }

  airscope::Result<std::string> read = airscope::ReadFile(path);
  if (!read.ok()) {
    fmt::print(stderr, "{}\n", read.status().message());
    return 1;
  }
  text = std::move(read).value();
  if (keep) {
    fmt::print("kept {}\n", path);
  } else {
    std::remove(path.c_str());
  }
  std::unique_ptr<Graph> graph;
  std::vector<double> parse_runs;
  for (int i = 0; i < kRuns; ++i) {
    graph.reset();  // the last run's graph is freed outside the timing
    auto start = std::chrono::steady_clock::now();
    graph = std::move(airscope::ParseReadable(text, path)).value();
    parse_runs.push_back(airscope::bench::SecondsSince(start));
  }
  double parse = airscope::bench::Median(parse_runs);
  text.clear();
  text.shrink_to_fit();
  const airscope::Node& first = *graph->Find("hidden");
  const airscope::Node& output = *graph->output();
  const airscope::Node& middle = *graph->Find(middle_name);
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
  return 0;
}

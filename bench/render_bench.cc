// DOT text and SVG rendering time for chain-with-branches graphs of growing
// size; above 2,000 nodes RenderGraph switches from dot to sfdp so large
// graphs do not hang graphviz. Prints a table.
//   render_bench [MAX_NODES]   (default 5000)
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "bench/chain_graphs.h"
#include "core/ir/graph.h"
#include "viz/dot_writer.h"

int main(int argc, char** argv) {
  using namespace airscope;
  bench::PrintMachine();
  int max_nodes = argc > 1 ? std::atoi(argv[1]) : 5000;
  std::string path = fmt::format("/tmp/airscope_render_bench_{}.svg", getpid());
  fmt::print("{:>8} {:>8} {:>12} {:>12}\n", "nodes", "layout", "dot text s", "svg s");
  for (int n : {500, 2000, 5000, 10000}) {
    if (n > max_nodes) break;
    auto graph = ChainWithBranches(n);
    auto start = std::chrono::steady_clock::now();
    Result<std::string> dot = GraphToDot(*graph);
    double dot_s = bench::SecondsSince(start);
    start = std::chrono::steady_clock::now();
    Result<RenderInfo> info = RenderGraph(*graph, "svg", path);
    double svg_s = bench::SecondsSince(start);
    if (!dot.ok() || !info.ok()) {
      fmt::print(stderr, "render failed: {}\n", !dot.ok() ? dot.status().message() : info.status().message());
      return 1;
    }
    fmt::print("{:>8} {:>8} {:>12.3f} {:>12.3f}\n", n, info->engine, dot_s, svg_s);
  }
  unlink(path.c_str());
  return 0;
}

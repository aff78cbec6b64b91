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
#include "core/ir/graph.h"
#include "viz/dot_writer.h"

namespace airscope {
namespace {

std::unique_ptr<Graph> ChainWithBranches(int n) {
  auto g = std::make_unique<Graph>("chain");
  NodeSpec input;
  input.op = OpKind::kPlaceholder;
  input.target = input.name = "x";
  Node* prev = *g->AppendNamed(input);
  Node* branch = prev;
  NodeMeta meta;
  meta.tensors.push_back(*TensorMeta::ParseAnnotation("f32[8, 8]"));
  prev->set_meta(meta);
  for (int i = 1; i + 1 < n; ++i) {
    NodeSpec spec;
    spec.target = i % 5 == 0 ? "torch.ops.aten.add.Tensor" : "torch.ops.aten.relu.default";
    spec.args = {Argument::NodeRef(prev)};
    if (i % 5 == 0) spec.args.push_back(Argument::NodeRef(branch));
    Node* node = g->Append(std::move(spec));
    node->set_meta(meta);
    if (i % 5 == 0) branch = node;
    prev = node;
  }
  NodeSpec out;
  out.op = OpKind::kOutput;
  out.target = out.name = "output";
  out.args = {Argument::Tuple({Argument::NodeRef(prev)})};
  g->Append(std::move(out));
  return g;
}

}  // namespace
}  // namespace airscope

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

// cse on large graphs with many duplicates: the pass is one hashed walk, so
// time grows linearly with the node count. Target: under 60 ms at 125,000
// nodes. Each size is run on fresh clones (cloning is not timed); the best of
// 5 runs is reported. Prints a table.
//   cse_bench [MAX_NODES]   (default 125000)
//   cse_bench --file PATH   cse on an FX text, for bench/cse_vs_torch.py
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "core/file_util.h"
#include "core/fx/fx_text.h"
#include "core/ir/graph.h"
#include "core/pass/builtin_passes.h"
#include "core/pass/pass.h"

namespace airscope {
namespace {

// Pointwise ops over 64 inputs, each reading recent values (a window of 256,
// like a real graph's locality); every value is computed twice (a duplicate
// right after it, with the same operands) and later nodes read either copy,
// so after merging, some of them become duplicates too. The output returns
// the last 64 values. Deterministic (a fixed LCG).
std::unique_ptr<Graph> Duplicated(int nodes) {
  auto g = std::make_unique<Graph>("dup");
  std::vector<Node*> pool;
  for (int i = 0; i < 64; ++i) {
    NodeSpec spec;
    spec.op = OpKind::kPlaceholder;
    spec.target = spec.name = fmt::format("x{}", i);
    pool.push_back(*g->AppendNamed(spec));
  }
  const char* targets[] = {"torch.ops.aten.add.Tensor", "torch.ops.aten.mul.Tensor", "torch.ops.aten.sub.Tensor",
                           "torch.ops.aten.exp.default"};
  uint64_t state = 12345;
  auto next = [&state]() {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<size_t>(state >> 33);
  };
  while (static_cast<int>(g->size()) + 2 < nodes) {
    size_t t = next() % 4;
    size_t window = std::min<size_t>(pool.size(), 256);
    Node* a = pool[pool.size() - 1 - next() % window];
    Node* b = pool[pool.size() - 1 - next() % window];
    NodeSpec spec;
    spec.target = targets[t];
    spec.args = {Argument::NodeRef(a)};
    if (t < 3) spec.args.push_back(Argument::NodeRef(b));
    NodeSpec dup = spec;
    Node* first = g->Append(std::move(spec));
    Node* second = g->Append(std::move(dup));
    pool.push_back(next() % 2 ? first : second);
  }
  std::vector<Node*> outputs(pool.end() - 64, pool.end());
  NodeSpec out;
  out.op = OpKind::kOutput;
  out.target = out.name = "output";
  std::vector<Argument> values;
  for (Node* n : outputs) values.push_back(Argument::NodeRef(n));
  out.args = {Argument::Tuple(std::move(values))};
  g->Append(std::move(out));
  return g;
}

// `--file PATH`: cse on the FX text in PATH (see bench/cse_vs_torch.py,
// which writes the graph it times torch.fx's CSEPass on). Loading and
// cloning are not timed; prints "cse_file nodes=N removed=R median_s=S".
int RunOnFile(const std::string& path) {
  Result<std::string> text = ReadFile(path);
  if (!text.ok()) {
    fmt::print(stderr, "{}\n", text.status().message());
    return 1;
  }
  auto graph = ParseFxText(*text, path);
  if (!graph.ok()) {
    fmt::print(stderr, "{}\n", graph.status().message());
    return 1;
  }
  PassInfo cse = CsePass();
  size_t removed = 0;
  bool failed = false;
  std::vector<std::unique_ptr<Graph>> copies;
  for (int i = 0; i < 5; ++i) copies.push_back((*graph)->Clone());
  size_t next_copy = 0;
  double seconds = bench::MedianSeconds(5, [&] {
    Graph& copy = *copies[next_copy++];
    PassContext context;
    context.registry = &OpRegistry::Builtin();
    failed |= !cse.run(copy, context).ok();
    removed = (*graph)->size() - copy.size();
  });
  if (failed) {
    fmt::print(stderr, "cse failed\n");
    return 1;
  }
  fmt::print("cse_file nodes={} removed={} median_s={:.6f}\n", (*graph)->size(), removed, seconds);
  return 0;
}

int Main(int argc, char** argv) {
  bench::PrintMachine();
  if (argc > 2 && std::string_view(argv[1]) == "--file") return RunOnFile(argv[2]);
  int max_nodes = argc > 1 ? std::atoi(argv[1]) : 125000;
  PassInfo cse = CsePass();
  fmt::print("{:>9}  {:>9}  {:>9}  {:>9}\n", "nodes", "removed", "best ms", "ns/node");
  for (int nodes : {1000, 10000, 50000, 125000, 250000}) {
    if (nodes > max_nodes) break;
    auto graph = Duplicated(nodes);
    double best = 1e9;
    size_t removed = 0;
    for (int run = 0; run < 5; ++run) {
      auto copy = graph->Clone();
      PassContext context;
      context.registry = &OpRegistry::Builtin();
      auto start = std::chrono::steady_clock::now();
      auto changed = cse.run(*copy, context);
      double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      if (!changed.ok()) {
        fmt::print(stderr, "cse failed: {}\n", changed.status().message());
        return 1;
      }
      best = std::min(best, ms);
      removed = graph->size() - copy->size();
    }
    fmt::print("{:>9}  {:>9}  {:>9.2f}  {:>9.1f}\n", graph->size(), removed, best, best * 1e6 / graph->size());
  }
  return 0;
}

}  // namespace
}  // namespace airscope

int main(int argc, char** argv) { return airscope::Main(argc, argv); }

// fx_load_bench: how fast a large FX graph text loads, lints and prints, and
// how much memory the loaded graph costs per node.
//
// Generates a synthetic torch 2.x style FX text in memory (default 1,000,000
// nodes, about 125 MB: placeholders, then chains of add/relu/mul/view/
// getitem) and prints one plain table: the parser in this process, then
// what a user waits for, the airscope binary's `load FILE; stats` on the
// same text written to a file (median wall time and peak RSS of 5 runs),
// next to the floor measured in the same run (reading that file + memchr).
// Targets (issue 13): `load; stats` < 1 s and peak RSS <= 300 bytes/node.
// Usage: fx_load_bench [nodes] [fanout] [BINARY]   (BINARY default repl/airscope,
// relative to the build directory; skipped if it is not there)
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "core/file_util.h"
#include "core/fx/fx_text.h"

namespace {

using airscope::Graph;

// Each `add` is a residual connection: it reads the previous node and the
// previous add (the first one reads `x`), so fan-out stays at most 2 like in
// real models. With `fanout`, every add reads `x` instead, which gives one
// node a very large users list (the worst case for use/def bookkeeping).
// Writes the text to `file` a megabyte at a time, so this process never
// holds it whole: a child's peak RSS starts from its parent's (Linux keeps
// the larger at exec), and the binary's figures must be its own.
void Generate(size_t nodes, bool fanout, std::FILE* file) {
  fmt::memory_buffer out;
  auto put = [&out, file]<typename... Args>(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
    if (out.size() > (size_t{1} << 20)) {
      std::fwrite(out.data(), 1, out.size(), file);
      out.clear();
    }
  };
  size_t body = nodes - 3;  // two placeholders and the output
  size_t adds = (body + 4) / 5;
  put("graph():\n    %x : [num_users={}] = placeholder[target=x]", fanout ? adds : 1);
  put("\n    %other_input : [num_users=1] = placeholder[target=other_input]");
  std::string prev = "other_input";
  std::string last_add = "x";
  for (size_t i = 0; i < body; ++i) {
    // The next node reads this one (the output reads the last); an add is also read by the next add.
    size_t users = 1 + (!fanout && i % 5 == 0 && i + 5 < body ? 1 : 0);
    std::string name;
    switch (i % 5) {
      case 0:
        name = fmt::format("add_{}", i);
        put("\n    %{} : [num_users={}] = call_function[target=torch.ops.aten.add.Tensor]"
            "(args = (%{}, %{}), kwargs = {{}})",
            name, users, prev, fanout ? std::string("x") : last_add);
        last_add = name;
        break;
      case 1:
        name = fmt::format("relu_{}", i);
        put("\n    %{} : [num_users={}] = call_function[target=torch.ops.aten.relu.default]"
            "(args = (%{},), kwargs = {{}})",
            name, users, prev);
        break;
      case 2:
        name = fmt::format("mul_{}", i);
        put("\n    %{} : [num_users={}] = call_function[target=torch.ops.aten.mul.Tensor]"
            "(args = (%{}, 0.5), kwargs = {{}})",
            name, users, prev);
        break;
      case 3:
        name = fmt::format("view_{}", i);
        put("\n    %{} : [num_users={}] = call_function[target=torch.ops.aten.view.default]"
            "(args = (%{}, [16, 64]), kwargs = {{}})",
            name, users, prev);
        break;
      default:
        name = fmt::format("getitem_{}", i);
        put("\n    %{} : [num_users={}] = call_function[target=operator.getitem]"
            "(args = (%{}, 0), kwargs = {{}})",
            name, users, prev);
        break;
    }
    prev = std::move(name);
  }
  put("\n    return ({},)", prev);
  std::fwrite(out.data(), 1, out.size(), file);
}

// The binary first (while this process is still small), then the parser in
// this process on the same text.
int Measure(const std::string& path, size_t nodes, bool fanout, double gen_s, const std::string& binary) {
  constexpr int kRuns = 5;
  std::optional<double> floor = airscope::bench::ReadFloorSeconds(path, kRuns);
  std::vector<airscope::bench::ChildRun> runs;
  bool have_binary = ::access(binary.c_str(), X_OK) == 0;
  for (int i = 0; have_binary && i < kRuns; ++i)
    runs.push_back(airscope::bench::RunAirscope(binary, fmt::format("load {}; stats", path)));
  for (const airscope::bench::ChildRun& run : runs) {
    if (!run.ok) {
      fmt::print(stderr, "{} -c 'load; stats' failed\n", binary);
      return 1;
    }
  }

  airscope::Result<std::string> text = airscope::ReadFile(path);
  if (!text.ok()) {
    fmt::print(stderr, "{}\n", text.status().message());
    return 1;
  }
  size_t rss_before = airscope::bench::ResidentBytes();
  auto t0 = std::chrono::steady_clock::now();
  auto graph = airscope::ParseFxText(*text, "synthetic.graph.txt");
  double parse_s = airscope::bench::SecondsSince(t0);
  size_t rss_after = airscope::bench::ResidentBytes();
  if (!graph.ok()) {
    fmt::print(stderr, "parse failed: {}\n", graph.status().message());
    return 1;
  }

  t0 = std::chrono::steady_clock::now();
  airscope::Status lint = (*graph)->Lint();
  double lint_s = airscope::bench::SecondsSince(t0);
  if (!lint.ok()) {
    fmt::print(stderr, "lint failed: {}\n", lint.message());
    return 1;
  }

  t0 = std::chrono::steady_clock::now();
  std::string printed = airscope::PrintFxText(**graph);
  double print_s = airscope::bench::SecondsSince(t0);
  bool same = printed == *text;

  double per_node = static_cast<double>(rss_after - rss_before) / static_cast<double>((*graph)->size());
  fmt::print("fx_load_bench: {} nodes{}, {:.1f} MB of FX text (generated in {:.2f} s)\n", (*graph)->size(),
             fanout ? " (one node with a user per add)" : "", static_cast<double>(text->size()) / 1e6, gen_s);
  fmt::print("{:<24} {:>12}\n", "measure", "value");
  fmt::print("{:<24} {:>12.3f}\n", "parse (s)", parse_s);
  fmt::print("{:<24} {:>12.3f}\n", "parse (MB/s)", static_cast<double>(text->size()) / 1e6 / parse_s);
  fmt::print("{:<24} {:>12.3f}\n", "lint (s)", lint_s);
  fmt::print("{:<24} {:>12.3f}\n", "print (s)", print_s);
  fmt::print("{:<24} {:>12.1f}\n", "RSS growth (MB)", static_cast<double>(rss_after - rss_before) / 1e6);
  fmt::print("{:<24} {:>12.1f}\n", "bytes/node (parse)", per_node);
  fmt::print("{:<24} {:>12}\n", "print == input", same ? "yes" : "NO");
  if (!same) return 1;

  if (!have_binary) {
    fmt::print("({} not found: the `load; stats` rows are skipped)\n", binary);
    return 0;
  }
  auto median = [&runs](auto field) {
    std::vector<double> values;
    for (const airscope::bench::ChildRun& run : runs) values.push_back(run.*field);
    return airscope::bench::Median(std::move(values));
  };
  double wall = median(&airscope::bench::ChildRun::seconds);
  double peak = median(&airscope::bench::ChildRun::peak_rss_bytes);
  fmt::print("{:<24} {:>12.3f}  target < 1 s; {}\n", "load; stats (s)", wall,
             floor ? airscope::bench::VsFloor(wall, *floor) : std::string("no floor"));
  fmt::print("{:<24} {:>12.3f}\n", "floor: read+memchr (s)", floor.value_or(0));
  fmt::print("{:<24} {:>12.1f}  target <= 300\n", "peak RSS bytes/node", peak / static_cast<double>(nodes));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  airscope::bench::PrintMachine();
  size_t nodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  if (nodes < 8) nodes = 8;
  bool fanout = argc > 2 && std::string_view(argv[2]) == "fanout";
  std::string binary = "repl/airscope";
  for (int i = 2; i < argc; ++i) {
    if (std::string_view(argv[i]) != "fanout") binary = argv[i];
  }
  std::string path =
      fmt::format("{}/fx_load_bench.{}.graph.txt", std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp", ::getpid());
  auto t0 = std::chrono::steady_clock::now();
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (!file) {
    fmt::print(stderr, "cannot write {}\n", path);
    return 1;
  }
  Generate(nodes, fanout, file);
  bool written = std::fclose(file) == 0;
  double gen_s = airscope::bench::SecondsSince(t0);
  int code = written ? Measure(path, nodes, fanout, gen_s, binary) : 1;
  ::unlink(path.c_str());
  return code;
}

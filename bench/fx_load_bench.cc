// fx_load_bench: how fast a large FX graph text loads, lints and prints, and
// how much memory the loaded graph costs per node.
//
// Generates a synthetic torch 2.x style FX text in memory (default 1,000,000
// nodes, about 130 MB: placeholders, then chains of add/relu/mul/view/
// getitem) and prints one plain table. Usage: fx_load_bench [nodes] [fanout]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "core/fx/fx_text.h"

namespace {

using airscope::Graph;

// Each `add` is a residual connection: it reads the previous node and the
// previous add (the first one reads `x`), so fan-out stays at most 2 like in
// real models. With `fanout`, every add reads `x` instead, which gives one
// node a very large users list (the worst case for use/def bookkeeping).
std::string Generate(size_t nodes, bool fanout) {
  fmt::memory_buffer out;
  out.reserve(nodes * 135);
  auto put = [&out]<typename... Args>(fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
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
  return std::string(out.data(), out.size());
}

size_t RssBytes() {
  FILE* f = std::fopen("/proc/self/statm", "r");
  if (!f) return 0;
  unsigned long size = 0, resident = 0;
  int n = std::fscanf(f, "%lu %lu", &size, &resident);
  std::fclose(f);
  return n == 2 ? resident * static_cast<size_t>(sysconf(_SC_PAGESIZE)) : 0;
}

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

int main(int argc, char** argv) {
  size_t nodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1000000;
  if (nodes < 8) nodes = 8;
  bool fanout = argc > 2 && std::string_view(argv[2]) == "fanout";
  auto t0 = std::chrono::steady_clock::now();
  std::string text = Generate(nodes, fanout);
  double gen_s = Seconds(t0);

  size_t rss_before = RssBytes();
  t0 = std::chrono::steady_clock::now();
  auto graph = airscope::ParseFxText(text, "synthetic.graph.txt");
  double parse_s = Seconds(t0);
  size_t rss_after = RssBytes();
  if (!graph.ok()) {
    fmt::print(stderr, "parse failed: {}\n", graph.status().message());
    return 1;
  }

  t0 = std::chrono::steady_clock::now();
  airscope::Status lint = (*graph)->Lint();
  double lint_s = Seconds(t0);
  if (!lint.ok()) {
    fmt::print(stderr, "lint failed: {}\n", lint.message());
    return 1;
  }

  t0 = std::chrono::steady_clock::now();
  std::string printed = airscope::PrintFxText(**graph);
  double print_s = Seconds(t0);
  bool same = printed == text;

  double per_node = static_cast<double>(rss_after - rss_before) / static_cast<double>((*graph)->size());
  fmt::print("fx_load_bench: {} nodes{}, {:.1f} MB of FX text (generated in {:.2f} s)\n", (*graph)->size(),
             fanout ? " (one node with a user per add)" : "", static_cast<double>(text.size()) / 1e6, gen_s);
  fmt::print("{:<24} {:>12}\n", "measure", "value");
  fmt::print("{:<24} {:>12.3f}\n", "parse (s)", parse_s);
  fmt::print("{:<24} {:>12.3f}\n", "parse (MB/s)", static_cast<double>(text.size()) / 1e6 / parse_s);
  fmt::print("{:<24} {:>12.3f}\n", "lint (s)", lint_s);
  fmt::print("{:<24} {:>12.3f}\n", "print (s)", print_s);
  fmt::print("{:<24} {:>12.1f}\n", "RSS growth (MB)", static_cast<double>(rss_after - rss_before) / 1e6);
  fmt::print("{:<24} {:>12.1f}\n", "bytes/node (parse)", per_node);
  fmt::print("{:<24} {:>12}\n", "print == input", same ? "yes" : "NO");
  return same ? 0 : 1;
}

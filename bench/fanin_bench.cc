// Wide fan-in (issue 29 item 2): a cat of k copies of one node, the graph
// TorchAir's remove_cat_ops turns into an empty buffer and k out= writes into
// its slices. The effect check spelled the buffer's whole value after every
// write, k^2/2 pieces: 16,000 took 2.5 GB and 13 s in `run`. Measured two
// ways a user gets such a graph: as a file (`load; run`), and as a
// decomposition template that builds the wide list (`decomp add` of
// aten.relu.default as cat([$0, ..., $0])). Linear work gives 4x and 16x the
// 1k figures (above the process's fixed start-up cost); k^2 gives 16x and 256x.
//   fanin_bench [BINARY] [K...]   (default repl/airscope relative to the build directory; K 1000 4000 16000)
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"

namespace airscope {
namespace {

constexpr int kRuns = 3;

// FX text of x -> add(x, x) -> cat([add] * k, 0): about 4 bytes per k.
std::string CatGraph(size_t k) {
  std::string items;
  items.reserve(k * 6);
  for (size_t i = 0; i < k; ++i) items += i ? ", %a" : "%a";
  return fmt::format(
      "graph():\n"
      "    %x : [num_users=1] = placeholder[target=x]\n"
      "    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, %x), kwargs = {{}})\n"
      "    %cat : [num_users=1] = call_function[target=torch.ops.aten.cat.default](args = ([{}], 0), kwargs = {{}})\n"
      "    return (cat,)\n",
      items);
}

// relu(add(x, x)), whose relu a template decomposes into the wide cat.
constexpr std::string_view kReluGraph =
    "graph():\n"
    "    %x : [num_users=1] = placeholder[target=x]\n"
    "    %a : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, %x), kwargs = {})\n"
    "    %r : [num_users=1] = call_function[target=torch.ops.aten.relu.default](args = (%a,), kwargs = {})\n"
    "    return (r,)\n";

std::string CatTemplate(size_t k) {
  std::string items;
  items.reserve(k * 4);
  for (size_t i = 0; i < k; ++i) items += i ? ", $0" : "$0";
  return fmt::format("aten.cat.default([{}], 0)", items);
}

bool WriteText(const std::string& path, std::string_view text) {
  std::FILE* file = std::fopen(path.c_str(), "w");
  bool written = file && std::fwrite(text.data(), 1, text.size(), file) == text.size();
  if (file) written = std::fclose(file) == 0 && written;
  if (!written) fmt::print(stderr, "cannot write {}\n", path);
  return written;
}

struct Figure {
  double seconds = 0;
  double peak_mb = 0;
};

// The median time and the largest peak RSS of kRuns runs of `commands`.
std::optional<Figure> Measure(const std::string& binary, const std::string& commands) {
  std::vector<double> seconds;
  Figure figure;
  for (int i = 0; i < kRuns; ++i) {
    bench::ChildRun run = bench::RunAirscope(binary, commands);
    if (!run.ok) return std::nullopt;
    seconds.push_back(run.seconds);
    figure.peak_mb = std::max(figure.peak_mb, run.peak_rss_bytes / 1e6);
  }
  figure.seconds = bench::Median(seconds);
  return figure;
}

int Main(int argc, char** argv) {
  std::string binary = argc > 1 ? argv[1] : "repl/airscope";
  std::vector<size_t> ks;
  for (int i = 2; i < argc; ++i) ks.push_back(std::strtoull(argv[i], nullptr, 10));
  if (ks.empty()) ks = {1000, 4000, 16000};
  bench::PrintMachine();
  if (::access(binary.c_str(), X_OK) != 0) {
    fmt::print(stderr, "{} not found (give the airscope binary as the first argument)\n", binary);
    return 1;
  }
  std::string dir = std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp";
  std::string relu = fmt::format("{}/fanin_bench.{}.relu.graph.txt", dir, ::getpid());
  if (!WriteText(relu, kReluGraph)) return 1;
  fmt::print("{:>7}  {:>22}  {:>22}   (median of {} runs of `airscope -c ...`; peak RSS)\n", "k", "cat of k: load; run",
             "template: load; run", kRuns);
  std::optional<Figure> base_file, base_template;
  int status = 0;
  for (size_t k : ks) {
    std::string graph = fmt::format("{}/fanin_bench.{}.cat{}.graph.txt", dir, ::getpid(), k);
    std::string script = fmt::format("{}/fanin_bench.{}.cat{}.airscript", dir, ::getpid(), k);
    if (!WriteText(graph, CatGraph(k)) ||
        !WriteText(script, fmt::format("decomp add aten.relu.default \"{}\"\nload {} --shapes x=f32[2,3]\nrun\n",
                                       CatTemplate(k), relu))) {
      return 1;
    }
    std::optional<Figure> file = Measure(binary, fmt::format("load {} --shapes x=f32[2,3]; run", graph));
    std::optional<Figure> templ = Measure(binary, fmt::format("source {}", script));
    ::unlink(graph.c_str());
    ::unlink(script.c_str());
    if (!file || !templ) {
      fmt::print(stderr, "k = {}: airscope failed\n", k);
      status = 1;
      break;
    }
    if (!base_file) base_file = file, base_template = templ;
    auto cell = [](const Figure& f, const Figure& base) {
      return fmt::format("{:.2f} s {:>5.0f} MB {:>5.1f}x", f.seconds, f.peak_mb, f.seconds / base.seconds);
    };
    fmt::print("{:>7}  {:>22}  {:>22}\n", k, cell(*file, *base_file), cell(*templ, *base_template));
  }
  ::unlink(relu.c_str());
  fmt::print("(x: time relative to the first k; linear work gives about k/k0 less start-up, quadratic (k/k0)^2)\n");
  return status;
}

}  // namespace
}  // namespace airscope

int main(int argc, char** argv) { return airscope::Main(argc, argv); }

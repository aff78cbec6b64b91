// torch_logs_bench: how fast TORCH_LOGS text is read, and in how much memory.
//
// Generates a synthetic glog-layout log (default 200 MB): mostly the lines a
// `TORCH_LOGS=+dynamo,graph_code,guards,recompiles` run prints between the
// things airscope keeps (trace_source lines), with a compile's graph_code
// TRACED GRAPH, its TREE_GUARD_MANAGER guards and a recompile message every
// few thousand lines. Measures the reader in memory, LoadTorchLogsFile on the
// file next to the read + memchr floor, and `airscope -c 'load FILE'`'s peak
// RSS: the file is streamed, so the peak stays far below the file's size.
// Usage: torch_logs_bench [megabytes] [path of the airscope binary]
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "formats/torch_logs.h"

namespace {

using namespace airscope;

// Writes the log to `file` a compile at a time: the bench stays small until
// the child airscope has run (its peak RSS starts from ours).
size_t Generate(size_t bytes, std::ofstream& file) {
  size_t written = 0;
  for (int compile = 0; written < bytes; ++compile) {
    std::string out;
    std::string id = fmt::format("{}/{}", compile % 50, compile / 50);
    auto prefix = [&id](std::string_view file, int line, std::string_view artifact) {
      return fmt::format("V1121 00:37:54.{:06d} 2422825 site-packages/torch/_dynamo/{}:{}] [{}] [__{}] ",
                         line % 1000000, file, line, id, artifact);
    };
    std::string trace = prefix("symbolic_convert.py", 699, "trace_source");
    for (int i = 0; i < 4000; ++i) out += trace + fmt::format("TRACE starts_line /home/u/model.py:{} in forward\n", i);
    std::string code = prefix("output_graph.py", 1983, "graph_code");
    out += code + "TRACED GRAPH\n" + code + " ===== __compiled_fn_1 =====\n" + code +
           " /opt/torch/fx/_lazy_graph_module.py class GraphModule(torch.nn.Module):\n" + code +
           "    def forward(self, L_x_: \"f32[8, 64][64, 1]cpu\"):\n" + code + "        l_x_ = L_x_\n";
    for (int i = 0; i < 40; ++i) {
      out += code + fmt::format("        mul_{0}: \"f32[8, 64][64, 1]cpu\" = l_x_ * {0}\n", i);
    }
    out += code + "        return (mul_0,)\n";
    std::string guards = prefix("guards.py", 2590, "guards");
    out += guards + "GUARDS:\n" + guards + "\n" + guards + "TREE_GUARD_MANAGER:\n" + guards + "+- RootGuardManager\n";
    for (int i = 0; i < 20; ++i) {
      out += guards + fmt::format(
                          "| +- TENSOR_MATCH: check_tensor(L['x{}'], Tensor, DispatchKeySet(CPU), torch.float32, "
                          "device=None, requires_grad=False, size=[8, 64], stride=[64, 1])\n",
                          i);
    }
    std::string recompile = prefix("guards.py", 2590, "recompiles");
    out += recompile + "Recompiling function forward in /home/u/model.py:7\n" + recompile +
           "    triggered by the following guard failure(s):\n" + recompile +
           "    - 0/0: tensor 'L['x']' size mismatch at index 0. expected 8, actual 9\n";
    file.write(out.data(), static_cast<std::streamsize>(out.size()));
    written += out.size();
  }
  return written;
}

}  // namespace

int main(int argc, char** argv) {
  bench::PrintMachine();
  size_t megabytes = argc > 1 ? static_cast<size_t>(std::atol(argv[1])) : 200;
  std::string binary = argc > 2 ? argv[2] : "build/repl/airscope";
  std::string path = fmt::format("/tmp/airscope_torch_logs_bench_{}.log", getpid());
  size_t size = 0;
  {
    std::ofstream file(path, std::ios::binary);
    size = Generate(megabytes << 20, file);
  }
  double mb = static_cast<double>(size) / (1 << 20);
  bench::ChildRun run = bench::RunAirscope(binary, fmt::format("set max-file-size 1099511627776; load {}", path));
  std::optional<double> read_floor = bench::ReadFloorSeconds(path, 3);
  size_t graphs = 0;
  bool loaded = true;
  double load_seconds = bench::MedianSeconds(3, [&] {
    Result<TorchLogs> l = LoadTorchLogsFile(path, uint64_t{1} << 40);
    loaded = loaded && l.ok();
    if (l.ok()) graphs = l->graphs.size();
  });
  std::string log;
  {
    std::ifstream in(path, std::ios::binary);
    log.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  unlink(path.c_str());
  auto start = std::chrono::steady_clock::now();
  TorchLogs parsed = ParseTorchLogs(log, "synthetic.log");
  double seconds = bench::SecondsSince(start);
  if (!read_floor || !loaded || parsed.graphs.size() != graphs) {
    fmt::print(stderr, "cannot read back {}\n", path);
    return 1;
  }
  fmt::print("{:<30} {:>10}\n", "log size (MB)", fmt::format("{:.1f}", mb));
  fmt::print("{:<30} {:>10}\n", "lines", parsed.lines);
  fmt::print("{:<30} {:>10}\n", "graphs kept", parsed.graphs.size());
  fmt::print("{:<30} {:>10}\n", "guard sets / recompiles",
             fmt::format("{} / {}", parsed.guards.size(), parsed.recompiles.size()));
  fmt::print("{:<30} {:>10}\n", "parse in memory MB/s", fmt::format("{:.0f}", mb / seconds));
  fmt::print("{:<30} {:>10}\n", "floor: read+memchr MB/s", fmt::format("{:.0f}", mb / *read_floor));
  fmt::print("{:<30} {:>10}  {}\n", "load file MB/s", fmt::format("{:.0f}", mb / load_seconds),
             bench::VsFloor(load_seconds, *read_floor));
  if (run.ok) {
    fmt::print("{:<30} {:>10}\n", "airscope load: seconds", fmt::format("{:.2f}", run.seconds));
    fmt::print("{:<30} {:>10}\n", "airscope load: peak RSS (MB)",
               fmt::format("{:.1f}", run.peak_rss_bytes / (1 << 20)));
  } else {
    fmt::print("{:<30} {:>10}\n", "airscope load", "failed (give the binary's path)");
  }
  return parsed.problems.empty() ? 0 : 1;
}

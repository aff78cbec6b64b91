// rank_logs_bench: a distributed job's TORCH_TRACE logs, one per rank, loaded
// the way `load DIR` does (issue 33: 64 ranks, 1 GB, under 5 s, with the
// per-rank divergence summary).
//
// Writes RANKS logs named dedicated_log_torch_trace_rank_N.log (as
// TORCH_TRACE=DIR writes them) into a temporary directory, MEGABYTES in all.
// Each rank logs the same compiles of an LLM-like job: a few frames, each
// with a big dynamo_output_graph and aot_forward_graph (print_readable text
// with `# File:` comments), guards, compilation metrics and chromium events.
// Two ranks diverge, as real jobs do: rank 1 guards one compile on a
// different size, and the last rank recompiles one frame once more.
// Then `airscope -c 'load DIR'` runs (median of 3): wall time, peak RSS, and
// the floor (reading every file, memchr over its lines) measured in the same
// run.
// Usage: rank_logs_bench [megabytes] [ranks] [BINARY]  (default 1024 64
// repl/airscope, relative to the build directory)
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "bench/trace_records.h"

namespace {

using airscope::bench::Record;

// A decoder layer's worth of print_readable text, `layers` times: nodes with
// shapes and a `# File:` comment where the source line changes.
std::string GraphText(int layers) {
  std::string text =
      "class GraphModule(torch.nn.Module):\n"
      "    def forward(self, L_x_: \"bf16[s0, 4096]\", L_w_: \"bf16[4096, 4096]\"):\n"
      "        h_0: \"bf16[s0, 4096]\" = torch.ops.aten.clone.default(L_x_)\n";
  for (int l = 0; l < layers; ++l) {
    text += fmt::format(
        "        # File: /models/llama.py:{0} in forward, code: h = self.norm(h)\n"
        "        pow_{1}: \"bf16[s0, 4096]\" = torch.ops.aten.pow.Tensor_Scalar(h_{1}, 2)\n"
        "        mean_{1}: \"bf16[s0, 1]\" = torch.ops.aten.mean.dim(pow_{1}, [-1], True)\n"
        "        rsqrt_{1}: \"bf16[s0, 1]\" = torch.ops.aten.rsqrt.default(mean_{1})\n"
        "        norm_{1}: \"bf16[s0, 4096]\" = torch.ops.aten.mul.Tensor(h_{1}, rsqrt_{1})\n"
        "        # File: /models/llama.py:{2} in forward, code: h = h + self.mlp(h)\n"
        "        mm_{1}: \"bf16[s0, 4096]\" = torch.ops.aten.mm.default(norm_{1}, L_w_)\n"
        "        silu_{1}: \"bf16[s0, 4096]\" = torch.ops.aten.silu.default(mm_{1})\n"
        "        h_{3}: \"bf16[s0, 4096]\" = torch.ops.aten.add.Tensor(h_{1}, silu_{1})\n",
        100 + l, l, 101 + l, l + 1);
  }
  text += fmt::format("        return (h_{},)\n        ", layers);
  return text;
}

std::string Guards(int rank, int compile) {
  std::string guards = "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n";
  // Rank 1 saw another hidden size at compile 3: the divergence `load DIR` must name.
  int size = rank == 1 && compile == 3 ? 8192 : 4096;
  guards += fmt::format(
      "| +- TENSOR_MATCH: check_tensor(L['x'], Tensor, DispatchKeySet(PrivateUse1, BackendSelect, ADInplaceOrView, "
      "AutogradPrivateUse1), torch.bfloat16, device=0, requires_grad=False, size=[None, {}], stride=[{}, 1])\n",
      size, size);
  guards += "Guard latency = 12.50 us\n";
  return guards;
}

std::string RankLog(int rank, int ranks, size_t bytes) {
  constexpr int kFrames = 4;
  constexpr int kLayers = 400;  // ~3,000 nodes a graph
  const std::string graph = GraphText(kLayers);
  std::string chromium =
      "{\n\"name\": \"inductor_compile\",\n\"ts\": 1733527096845517.0,\n\"args\": {\n\"compile_id\": "
      "\"0/0\"\n},\n\"ph\": \"E\",\n\"cat\": \"dynamo_timed\",\n\"tid\": 0,\n\"pid\": 0\n}";
  std::string out;
  out.reserve(bytes + (1 << 20));
  // Every rank logs as many compiles as fit in `bytes` (the size of one
  // compile's records is known after the first); the last rank one more.
  int compiles = 1;
  for (int compile = 0; compile < compiles; ++compile) {
    std::string ids = fmt::format("\"frame_id\": {}, \"frame_compile_id\": {}, \"attempt\": 0, \"rank\": {}",
                                  compile % kFrames, compile / kFrames, rank);
    Record(out,
           fmt::format(
               "{{\"dynamo_start\": {{\"stack\": [{{\"line\": 7, \"name\": \"forward\", \"filename\": 0}}]}}, {}", ids),
           "");
    Record(out, fmt::format("{{\"dynamo_output_graph\": {{\"sizes\": {{\"l_x_\": [\"s0\", 4096]}}}}, {}", ids), graph);
    Record(out, fmt::format("{{\"aot_forward_graph\": {{}}, {}", ids), graph);
    for (int i = 0; i < 10; ++i) Record(out, fmt::format("{{\"chromium_event\": {{}}, {}", ids), chromium);
    Record(out, fmt::format("{{\"dynamo_cpp_guards_str\": {{}}, {}", ids), Guards(rank, compile));
    Record(out,
           fmt::format("{{\"compilation_metrics\": {{\"co_name\": \"forward\", \"co_filename\": \"m.py\", "
                       "\"co_firstlineno\": 7, \"cache_size\": {}, \"guard_count\": 1, \"graph_op_count\": {}, "
                       "\"fail_type\": null, \"restart_reasons\": []}}, {}",
                       compile / kFrames, kLayers * 7, ids),
           "");
    if (compile == 0)
      compiles = static_cast<int>(std::max<size_t>(1, bytes / out.size())) + (rank == ranks - 1 ? 1 : 0);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  namespace bench = airscope::bench;
  bench::PrintMachine();
  const size_t megabytes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 1024;
  const int ranks = argc > 2 ? std::atoi(argv[2]) : 64;
  const std::string binary = argc > 3 ? argv[3] : "repl/airscope";
  if (ranks < 2 || megabytes == 0) {
    fmt::print(stderr, "usage: rank_logs_bench [megabytes] [ranks >= 2] [BINARY]\n");
    return 2;
  }
  const std::string dir = fmt::format("/tmp/airscope_rank_logs_bench_{}", getpid());
  std::filesystem::create_directories(dir);
  size_t total = 0;
  std::vector<std::string> files;
  for (int rank = 0; rank < ranks; ++rank) {
    std::string log = RankLog(rank, ranks, (megabytes << 20) / static_cast<size_t>(ranks));
    files.push_back(fmt::format("{}/dedicated_log_torch_trace_rank_{}.log", dir, rank));
    std::ofstream(files.back(), std::ios::binary).write(log.data(), static_cast<std::streamsize>(log.size()));
    total += log.size();
  }
  double floor = 0;
  for (const std::string& file : files) floor += bench::ReadFloorSeconds(file, 1).value_or(0);
  std::vector<double> seconds;
  double peak = 0;
  bool ok = true;
  for (int run = 0; run < 3; ++run) {
    bench::ChildRun child = bench::RunAirscope(binary, fmt::format("load {}", dir));
    ok = ok && child.ok;
    seconds.push_back(child.seconds);
    peak = std::max(peak, child.peak_rss_bytes);
  }
  // The summary itself, once, to show it is there.
  std::string summary_path = dir + "/summary.txt";
  std::string command = fmt::format("{} -c 'load {}' > {} 2>&1", binary, dir, summary_path);
  ok = ok && std::system(command.c_str()) == 0;
  std::ifstream summary(summary_path);
  std::string line;
  std::vector<std::string> divergence;
  bool in_summary = false;
  size_t not_loaded = 0;  // graphs the loader refused: the bench's text would be wrong
  while (std::getline(summary, line)) {
    if (line.find("not loaded") != std::string::npos) ++not_loaded;
    if (line.starts_with("where the ranks diverge")) in_summary = true;
    if (in_summary) divergence.push_back(line);
  }
  if (std::getenv("KEEP") != nullptr) {
    fmt::print("kept {}\n", dir);
  } else {
    std::filesystem::remove_all(dir);
  }
  double mb = static_cast<double>(total) / (1 << 20);
  double median = bench::Median(seconds);
  fmt::print("{:<34} {:>10}\n", "ranks", ranks);
  fmt::print("{:<34} {:>10}\n", "logs (MB)", fmt::format("{:.0f}", mb));
  fmt::print("{:<34} {:>10}\n", "load DIR (s, median of 3)", fmt::format("{:.2f}", median));
  fmt::print("{:<34} {:>10}\n", "MB/s", fmt::format("{:.0f}", mb / median));
  fmt::print("{:<34} {:>10}\n", "floor: read+memchr all (s)", fmt::format("{:.2f}", floor));
  fmt::print("{:<34} {:>10}\n", "peak RSS (MB)", fmt::format("{:.0f}", peak / (1 << 20)));
  fmt::print("the summary `load DIR` printed:\n");
  for (const std::string& l : divergence) fmt::print("  {}\n", l);
  if (not_loaded > 0) fmt::print(stderr, "{} graph(s) of the generated logs did not load\n", not_loaded);
  return ok && not_loaded == 0 && !divergence.empty() ? 0 : 1;
}

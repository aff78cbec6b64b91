// trace_log_bench: how fast a TORCH_TRACE log is read (envelopes parsed,
// every payload md5-checked, graphs and guards kept).
//
// Generates a synthetic log in memory (default 100 MB) from records shaped
// like the tlparse samples: dynamo_start, dynamo_output_graph and
// aot_forward_graph payloads, dynamo_cpp_guards_str, compilation_metrics,
// fx_graph_cache artifacts and chromium events. Target: 100 MB under 2 s.
// The log is also written to a temporary file and loaded the way `load`
// does (LoadTraceLogFile), next to the floor for that file measured in the
// same run: reading it whole and memchr-counting its lines.
// Usage: trace_log_bench [megabytes]
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "bench/trace_records.h"
#include "formats/md5.h"
#include "formats/torch_trace.h"

namespace {

using namespace airscope;
using airscope::bench::Record;

std::string Generate(size_t bytes) {
  std::string graph = "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_: \"f32[8, 64]\"):\n";
  for (int i = 0; i < 40; ++i) {
    graph += fmt::format("        mul_{0}: \"f32[8, 64]\" = torch.ops.aten.mul.Tensor(L_x_, {0});  L_x_ = None\n", i);
  }
  graph += "        return (mul_0,)\n        ";
  std::string guards = "\nTREE_GUARD_MANAGER:\n+- RootGuardManager\n";
  for (int i = 0; i < 20; ++i) {
    guards += fmt::format(
        "| +- TENSOR_MATCH: check_tensor(L['x{}'], Tensor, DispatchKeySet(PrivateUse1, BackendSelect, "
        "ADInplaceOrView, AutogradPrivateUse1), torch.float32, device=0, requires_grad=False, "
        "size=[8, 64], stride=[64, 1])\n",
        i);
  }
  std::string chromium =
      "{\n\"name\": \"inductor_compile\",\n\"ts\": 1733527096845517.0,\n\"args\": {\n\"compile_id\": "
      "\"0/0\"\n},\n\"ph\": \"E\",\n\"cat\": \"dynamo_timed\",\n\"tid\": 0,\n\"pid\": 0\n}";
  std::string out;
  out.reserve(bytes + (1 << 20));
  for (int compile = 0; out.size() < bytes; ++compile) {
    std::string ids =
        fmt::format("\"frame_id\": {}, \"frame_compile_id\": {}, \"attempt\": 0", compile % 50, compile / 50);
    Record(out,
           fmt::format(
               "{{\"dynamo_start\": {{\"stack\": [{{\"line\": 7, \"name\": \"forward\", \"filename\": 0}}]}}, {}", ids),
           "");
    Record(out, fmt::format("{{\"dynamo_output_graph\": {{\"sizes\": {{\"l_x_\": [8, 64]}}}}, {}", ids), graph);
    Record(out, fmt::format("{{\"aot_forward_graph\": {{}}, {}", ids), graph);
    for (int i = 0; i < 10; ++i) Record(out, fmt::format("{{\"chromium_event\": {{}}, {}", ids), chromium);
    Record(out, fmt::format("{{\"artifact\": {{\"name\": \"fx_graph_cache_miss\", \"encoding\": \"json\"}}, {}", ids),
           "{\"key\": \"abc\"}");
    Record(out, fmt::format("{{\"dynamo_cpp_guards_str\": {{}}, {}", ids), guards);
    Record(out,
           fmt::format("{{\"compilation_metrics\": {{\"co_name\": \"forward\", \"co_filename\": \"m.py\", "
                       "\"co_firstlineno\": 7, \"cache_size\": 0, \"guard_count\": 20, \"graph_op_count\": 40, "
                       "\"fail_type\": null, \"restart_reasons\": []}}, {}",
                       ids),
           "");
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  bench::PrintMachine();
  size_t megabytes = argc > 1 ? static_cast<size_t>(std::atol(argv[1])) : 100;
  std::string log = Generate(megabytes << 20);
  auto start = std::chrono::steady_clock::now();
  TraceLog parsed = ParseTraceLog(log, "synthetic.log");
  double seconds = airscope::bench::SecondsSince(start);
  auto md5_start = std::chrono::steady_clock::now();
  std::string digest = Md5Hex(log);
  double md5_seconds = airscope::bench::SecondsSince(md5_start);
  double mb = static_cast<double>(log.size()) / (1 << 20);

  // From a file: the floor (read + memchr), then the loader itself.
  std::string path = fmt::format("/tmp/airscope_trace_log_bench_{}.log", getpid());
  std::ofstream(path, std::ios::binary).write(log.data(), static_cast<std::streamsize>(log.size()));
  double scan_floor = bench::ScanFloorSeconds(log, 5);
  std::optional<double> read_floor = bench::ReadFloorSeconds(path, 3);
  bool loaded = true;
  double load_seconds = bench::MedianSeconds(3, [&] {
    Result<TraceLog> l = LoadTraceLogFile(path, uint64_t{1} << 40);
    loaded = loaded && l.ok() && l->records == parsed.records;
  });
  unlink(path.c_str());
  if (!read_floor || !loaded) {
    fmt::print(stderr, "cannot read back {}\n", path);
    return 1;
  }

  fmt::print("{:<28} {:>10}\n", "log size (MB)", fmt::format("{:.1f}", mb));
  fmt::print("{:<28} {:>10}\n", "lines", parsed.lines);
  fmt::print("{:<28} {:>10}\n", "records", parsed.records);
  fmt::print("{:<28} {:>10}\n", "compiles", parsed.compiles.size());
  fmt::print("{:<28} {:>10}\n", "graphs kept", parsed.graphs.size());
  fmt::print("{:<28} {:>10}\n", "problems", parsed.problems.size());
  fmt::print("{:<28} {:>10}\n", "parse time (s)", fmt::format("{:.3f}", seconds));
  fmt::print("{:<28} {:>10}\n", "parse MB/s", fmt::format("{:.0f}", mb / seconds));
  fmt::print("{:<28} {:>10}\n", "md5 alone MB/s", fmt::format("{:.0f}", mb / md5_seconds));
  fmt::print("{:<28} {:>10}\n", "floor: memchr MB/s", fmt::format("{:.0f}", mb / scan_floor));
  fmt::print("{:<28} {:>10}\n", "floor: read+memchr MB/s", fmt::format("{:.0f}", mb / *read_floor));
  fmt::print("{:<28} {:>10}  {}\n", "load file MB/s", fmt::format("{:.0f}", mb / load_seconds),
             bench::VsFloor(load_seconds, *read_floor));
  return parsed.problems.empty() ? 0 : 1;
}

// `plan capture` of a piecewise model, in-process through the real shell:
// tests/data/vllm_two_layers.readable.py repeated to N layers (--layers),
// every piece captured at every size of vLLM's 67 default sizes (1, 2, 4,
// 8..512 by 8) on a scratch device. Given sizes with no stream limit (every
// size captured), and `auto` under vllm-ascend's 1920 streams (the probe
// capture, then the kept sizes captured again).
// Target (issue 32): 94 layers x 67 sizes in under 2 s.
//   capture_plan_bench [LAYERS...]        default: 48 94
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "repl/command_table.h"
#include "repl/interpreter.h"
#include "repl/session.h"

namespace {

class QuietSink : public airscope::OutputSink {
 public:
  airscope::Status Output(const airscope::CommandOutput& out) override {
    text += out.Text();
    return airscope::Status::Ok();
  }
  void Error(std::string_view) override {}
  std::string text;
};

}  // namespace

int main(int argc, char** argv) {
  airscope::bench::PrintMachine();
  std::vector<long> layers;
  for (int i = 1; i < argc; ++i) layers.push_back(std::strtol(argv[i], nullptr, 10));
  if (layers.empty()) layers = {48, 94};
  const std::string graph = std::string(AIRSCOPE_SOURCE_DIR) + "/tests/data/vllm_two_layers.readable.py";
  fmt::print("{:<8} {:<34} {:>8} {:>8} {:>10} {:>8}\n", "layers", "plan", "graphs", "sizes", "wall s", "cpu s");
  struct Case {
    const char* label;
    const char* flags;
  };
  for (long n : layers) {
    for (Case c :
         {Case{"67 sizes, no stream limit", "--sizes auto --streams 0"},
          Case{"auto, 1920 streams, aiv, tp 8, ep 8", "--sizes auto --streams 1920 --hccl aiv --tp 8 --ep 8"}}) {
      airscope::Session session;
      airscope::CommandTable table = airscope::BuildCommandTable();
      QuietSink sink;
      airscope::Interpreter shell(session, table, sink);
      if (!shell.ExecuteLine(fmt::format("load {} as g", graph)).ok()) return 1;
      std::string line = fmt::format("plan capture {} --layers {}", c.flags, n);
      auto t0 = std::chrono::steady_clock::now();
      std::clock_t cpu0 = std::clock();
      airscope::Status status = shell.ExecuteLine(line);
      double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
      if (!status.ok()) {
        fmt::print(stderr, "{}: {}\n", line, status.message());
        return 1;
      }
      fmt::print("{:<8} {:<34} {:>8} {:>8} {:>10.2f} {:>8.2f}\n", n, c.label, (n + 1) * 67, 67, wall, cpu);
    }
  }
  fmt::print("target: 94 layers x 67 sizes in under 2 s\n");
  return 0;
}

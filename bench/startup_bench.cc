// Startup time of `airscope -c quit`: spawn the real binary N times and
// print a table of wall-clock times. Target: under 30 ms.
//   startup_bench [PATH_TO_AIRSCOPE] [RUNS]
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"

int main(int argc, char** argv) {
  airscope::bench::PrintMachine();
  std::string binary = argc > 1 ? argv[1] : "repl/airscope";
  int runs = argc > 2 ? std::atoi(argv[2]) : 50;
  std::vector<double> ms;
  for (int i = 0; i < runs; ++i) {
    airscope::bench::ChildRun run = airscope::bench::RunAirscope(binary, "quit");
    if (!run.ok) {
      fmt::print(stderr, "{} -c quit failed\n", binary);
      return 1;
    }
    ms.push_back(run.seconds * 1e3);
  }
  std::sort(ms.begin(), ms.end());
  double mean = 0;
  for (double m : ms) mean += m;
  mean /= static_cast<double>(ms.size());
  fmt::print("{:<28} {:>10} {:>10} {:>10} {:>10}\n", "airscope -c quit", "mean ms", "p50 ms", "p90 ms", "max ms");
  fmt::print("{:<28} {:>10.2f} {:>10.2f} {:>10.2f} {:>10.2f}\n", fmt::format("{} runs", runs), mean, ms[ms.size() / 2],
             ms[ms.size() * 9 / 10], ms.back());
  fmt::print("target: under 30 ms\n");
  return 0;
}

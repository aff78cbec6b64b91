// `minify "capture"` on generated graphs with one planted capture-forbidden
// op (bench/planted_graphs.h: an .item() that capture refuses with
// ACL_ERROR_RT_STREAM_CAPTURED 107027), in-process through the real shell.
// Target (issue 30): 100,000 nodes shrink to at most 3 nodes in under 60 s.
//   minify_bench [NODES...]        default: 5000 20000 100000
#include <chrono>
#include <ctime>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "bench/planted_graphs.h"
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
  std::vector<size_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::strtoull(argv[i], nullptr, 10));
  if (sizes.empty()) sizes = {5000, 20000, 100000};
  // CPU seconds beside wall seconds: on a loaded machine (CI runs two builds
  // at once) the wall clock measures the neighbours too.
  fmt::print("{:<12} {:>10} {:>8} {:>10} {:>10} {:>12}\n", "nodes", "left", "tries", "load s", "minify s",
             "minify cpu s");
  for (size_t nodes : sizes) {
    std::string path = fmt::format("/tmp/airscope_minify_bench_{}.readable.py", nodes);
    std::ofstream(path) << airscope::PlantedHostSyncReadable(nodes > 2 ? nodes - 2 : 1);
    airscope::Session session;
    airscope::CommandTable table = airscope::BuildCommandTable();
    QuietSink sink;
    airscope::Interpreter shell(session, table, sink);
    auto t0 = std::chrono::steady_clock::now();
    if (!shell.ExecuteLine(fmt::format("load {} as g", path)).ok()) return 1;
    auto t1 = std::chrono::steady_clock::now();
    std::clock_t cpu0 = std::clock();
    airscope::Status status = shell.ExecuteLine("minify \"capture\"");
    auto t2 = std::chrono::steady_clock::now();
    double cpu = static_cast<double>(std::clock() - cpu0) / CLOCKS_PER_SEC;
    std::remove(path.c_str());
    if (!status.ok()) {
      fmt::print(stderr, "minify failed: {}\n", status.message());
      return 1;
    }
    size_t tries = 0;
    if (size_t at = sink.text.find(" tries"); at != std::string::npos) {
      size_t from = sink.text.rfind(' ', at - 1);
      tries = std::strtoull(sink.text.c_str() + from + 1, nullptr, 10);
    }
    fmt::print("{:<12} {:>10} {:>8} {:>10.2f} {:>10.2f} {:>12.2f}\n", nodes, (*session.CurrentGraph())->size(), tries,
               std::chrono::duration<double>(t1 - t0).count(), std::chrono::duration<double>(t2 - t1).count(), cpu);
  }
  fmt::print("target: 100000 nodes to <= 3 nodes in under 60 s\n");
  return 0;
}

// The report of a big session (issue 33): a synthetic TORCH_TRACE log of
// 125 compiles (25 frames, each recompiled 4 times for a new size, with the
// recompile reasons torch logs; their stacks share a script's outer frames,
// so the index draws them as a tree) and 8 graphs each, 1,000 graphs in all,
// loaded and reported by the binary; then headless Chromium opening the
// index, the log's page, a graph page and the device page, next to the floor
// of an empty page.
// Targets: the report in under 10 s; every page opens in under 3 s.
//   report_session_bench [BINARY] [CHROMIUM]   (repl/airscope, chromium from PATH)
//   report_session_bench --write-log PATH      (only write the log)
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "bench/trace_records.h"
#include "core/file_util.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;
constexpr int kRuns = 3;
constexpr int kFrames = 25;
constexpr int kCompilesPerFrame = 5;

// The graph kinds a compile logs (tlparse's names for the *_graph records).
constexpr const char* kKinds[] = {"dynamo_output_graph",      "aot_joint_graph",         "aot_forward_graph",
                                  "aot_backward_graph",       "inductor_pre_grad_graph", "inductor_post_grad_graph",
                                  "optimize_ddp_split_graph", "compiled_autograd_graph"};

std::string Log() {
  std::string out;
  // dynamo_start's stacks name files by index into "str" records; every
  // stack shares a training script's outer frames, then the frame's layer.
  bench::Record(out, "{\"str\": [\"/home/user/project/train.py\", 0]", "");
  bench::Record(out, "{\"str\": [\"/home/user/project/model.py\", 1]", "");
  constexpr const char* kOuter =
      "{\"line\": 200, \"name\": \"<module>\", \"filename\": 0}, {\"line\": 150, \"name\": \"main\", "
      "\"filename\": 0}, {\"line\": 88, \"name\": \"step\", \"filename\": 0}, {\"line\": 40, \"name\": "
      "\"forward\", \"filename\": 1}";
  for (int frame = 0; frame < kFrames; ++frame) {
    for (int k = 0; k < kCompilesPerFrame; ++k) {
      int batch = 2 + k;
      std::string ids = fmt::format("\"frame_id\": {}, \"frame_compile_id\": {}, \"attempt\": 0", frame, k);
      bench::Record(out,
                    fmt::format("{{\"dynamo_start\": {{\"stack\": [{}, {{\"line\": {}, \"name\": \"layer_{}\", "
                                "\"filename\": 1}}]}}, {}",
                                kOuter, 7 + frame, frame, ids),
                    "");
      if (k > 0) {
        bench::Record(out,
                      fmt::format("{{\"recompile_reasons\": [\"{}/{}: tensor 'L['x']' size mismatch at index 0. "
                                  "expected {}, actual {}\"], {}",
                                  frame, k - 1, batch - 1, batch, ids),
                      "");
      }
      std::string graph = fmt::format(
          "class GraphModule(torch.nn.Module):\n    def forward(self, L_x_: \"f32[{0}, 64]\"):\n"
          "        relu: \"f32[{0}, 64]\" = torch.relu(L_x_);  L_x_ = None\n"
          "        mul: \"f32[{0}, 64]\" = relu * 2;  relu = None\n"
          "        return (mul,)\n        ",
          batch);
      for (const char* kind : kKinds) {
        bench::Record(out, fmt::format("{{\"{}\": {{\"sizes\": {{\"l_x_\": [{}, 64]}}}}, {}", kind, batch, ids), graph);
      }
      bench::Record(out,
                    fmt::format("{{\"compilation_metrics\": {{\"co_name\": \"layer_{}\", \"co_filename\": \"m.py\", "
                                "\"co_firstlineno\": {}, \"cache_size\": {}, \"guard_count\": 4, "
                                "\"graph_op_count\": 2, \"fail_type\": null, \"restart_reasons\": []}}, {}",
                                frame, 7 + frame, k, ids),
                    "");
    }
  }
  return out;
}

std::optional<double> OpenSeconds(const std::string& chromium, const std::string& url, const std::string& profile) {
  std::string command = fmt::format(
      "'{}' --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking "
      "--disable-component-update --disable-sync --user-data-dir='{}' --dump-dom '{}' > /dev/null 2>&1",
      chromium, profile, url);
  auto start = std::chrono::steady_clock::now();
  if (std::system(command.c_str()) != 0) return std::nullopt;
  return bench::SecondsSince(start);
}

int Main(int argc, char** argv) {
  std::string binary = argc > 1 ? argv[1] : "repl/airscope";
  if (binary == "--write-log" && argc > 2) return WriteFile(argv[2], Log()).ok() ? 0 : 1;  // the log alone, to look at
  std::string chromium = argc > 2 ? argv[2] : "chromium";
  bench::PrintMachine();
  fs::path work = fs::temp_directory_path() / fmt::format("report_session_bench.{}", ::getpid());
  fs::create_directories(work);
  std::string log = (work / "session.log").string();
  if (!WriteFile(log, Log()).ok()) {
    fmt::print(stderr, "cannot write {}\n", log);
    return 1;
  }
  std::string report = (work / "report").string();
  std::vector<double> load, with_report;
  for (int i = 0; i < kRuns; ++i) {
    bench::ChildRun a = bench::RunAirscope(binary, fmt::format("load {}", log));
    bench::ChildRun b = bench::RunAirscope(binary, fmt::format("load {}; report {} --force", log, report));
    if (!a.ok || !b.ok) {
      fmt::print(stderr, "{} failed on the session log\n", binary);
      return 1;
    }
    load.push_back(a.seconds);
    with_report.push_back(b.seconds);
  }
  double base = bench::Median(load), total = bench::Median(with_report);
  uint64_t bytes = 0;
  size_t pages = 0;
  for (const auto& entry : fs::recursive_directory_iterator(report)) {
    if (!entry.is_regular_file()) continue;
    bytes += entry.file_size();
    pages += entry.path().extension() == ".html";
  }
  fmt::print(
      "{} compiles, {} graphs: load {:.2f} s, load; report {:.2f} s: the report takes {:.2f} s "
      "({} pages, {:.1f} MB) (median of {})\n",
      kFrames * kCompilesPerFrame, kFrames * kCompilesPerFrame * std::size(kKinds), base, total, total - base, pages,
      static_cast<double>(bytes) / 1e6, kRuns);

  std::string profile = (work / "profile").string();
  std::string blank = (work / "blank.html").string();
  (void)WriteFile(blank, "<!DOCTYPE html><title>blank</title>");
  auto open = [&](const std::string& path) -> std::optional<double> {
    std::vector<double> times;
    for (int i = 0; i < kRuns; ++i) {
      std::optional<double> t = OpenSeconds(chromium, "file://" + path, profile);
      if (!t) return std::nullopt;
      times.push_back(*t);
    }
    return bench::Median(times);
  };
  std::optional<double> floor = open(blank);
  if (!floor) {
    fmt::print("({} could not open a page: the browser rows are skipped)\n", chromium);
  } else {
    fmt::print("headless Chromium, median of {}: empty page {:.2f} s (the floor)\n", kRuns, *floor);
    for (std::string_view page : {"index.html", "log-0.html", "graph-999.html", "device.html"}) {
      if (std::optional<double> t = open(fmt::format("{}/{}", report, page))) {
        fmt::print("  {:<16} {:.2f} s ({:+.2f} s over the floor)\n", page, *t, *t - *floor);
      }
    }
  }
  fmt::print("targets (issue 33): the report under 10 s, every page open under 3 s\n");
  fs::remove_all(work);
  return 0;
}

}  // namespace
}  // namespace airscope

int main(int argc, char** argv) { return airscope::Main(argc, argv); }

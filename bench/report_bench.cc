// The HTML report of a big graph (issue 14): `airscope -c 'load; run; report
// DIR'` on a 10,000-node transformer-like graph (bench/transformer_graph.h),
// and how long headless Chromium takes to open its pages, next to the floor
// of opening an empty page in the same run.
// Targets: the report written in under 10 s; a page opens in under 3 s.
//   report_bench [NODES] [BINARY] [CHROMIUM]   (10000, repl/airscope, chromium from PATH)
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "bench/transformer_graph.h"
#include "core/file_util.h"
#include "core/fx/readable.h"

namespace airscope {
namespace {

namespace fs = std::filesystem;
constexpr int kRuns = 3;

// Seconds for Chromium to load `url` and run its scripts (--dump-dom waits for both).
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
  size_t nodes = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 10000;
  std::string binary = argc > 2 ? argv[2] : "repl/airscope";
  std::string chromium = argc > 3 ? argv[3] : "chromium";
  bench::PrintMachine();
  fs::path work = fs::temp_directory_path() / fmt::format("report_bench.{}", ::getpid());
  fs::create_directories(work);
  std::string graph = (work / "graph.readable.py").string();
  if (!WriteFile(graph, PrintReadable(*bench::Transformer(nodes))).ok()) {
    fmt::print(stderr, "cannot write {}\n", graph);
    return 1;
  }
  std::string report = (work / "report").string();
  std::vector<double> load_run, with_report;
  for (int i = 0; i < kRuns; ++i) {
    bench::ChildRun a = bench::RunAirscope(binary, fmt::format("load {}; run", graph));
    bench::ChildRun b = bench::RunAirscope(binary, fmt::format("load {}; run; report {}", graph, report));
    if (!a.ok || !b.ok) {
      fmt::print(stderr, "{} failed on the {}-node graph\n", binary, nodes);
      return 1;
    }
    load_run.push_back(a.seconds);
    with_report.push_back(b.seconds);
  }
  std::sort(load_run.begin(), load_run.end());
  std::sort(with_report.begin(), with_report.end());
  double base = load_run[kRuns / 2], total = with_report[kRuns / 2];
  uint64_t bytes = 0;
  size_t pages = 0;
  for (const auto& entry : fs::recursive_directory_iterator(report)) {
    if (!entry.is_regular_file()) continue;
    bytes += entry.file_size();
    pages += entry.path().extension() == ".html";
  }
  fmt::print(
      "{}-node graph: load; run {:.2f} s, load; run; report {:.2f} s: the report takes {:.2f} s "
      "({} pages, {:.1f} MB) (median of {})\n",
      nodes, base, total, total - base, pages, static_cast<double>(bytes) / 1e6, kRuns);

  // Opening pages: the floor is an empty page; the heaviest page is the stage
  // of the first pass that changed the graph (its drawing and diff).
  std::string profile = (work / "profile").string();
  std::string blank = (work / "blank.html").string();
  (void)WriteFile(blank, "<!DOCTYPE html><title>blank</title>");
  std::string heaviest;
  uintmax_t heaviest_size = 0;
  for (const auto& entry : fs::directory_iterator(report)) {
    if (entry.path().filename().string().rfind("stage-", 0) != 0) continue;
    Result<std::string> page = ReadFile(entry.path().string());
    if (!page.ok() || page->find("What changed") == std::string::npos) continue;
    uintmax_t size = entry.file_size();
    if (size > heaviest_size) heaviest_size = size, heaviest = entry.path().string();
  }
  auto open = [&](const std::string& path) -> std::optional<double> {
    std::vector<double> times;
    for (int i = 0; i < kRuns; ++i) {
      std::optional<double> t = OpenSeconds(chromium, "file://" + path, profile);
      if (!t) return std::nullopt;
      times.push_back(*t);
    }
    std::sort(times.begin(), times.end());
    return times[kRuns / 2];
  };
  std::optional<double> floor = open(blank);
  if (!floor) {
    fmt::print("({} could not open a page: the browser rows are skipped)\n", chromium);
  } else {
    fmt::print("headless Chromium, median of {}: empty page {:.2f} s (the floor)\n", kRuns, *floor);
    for (const std::string& page : {report + "/index.html", report + "/graph-0.html", heaviest}) {
      if (page.empty()) continue;
      if (std::optional<double> t = open(page)) {
        fmt::print("  {:<24} {:.2f} s ({:+.2f} s over the floor)\n", fs::path(page).filename().string(), *t,
                   *t - *floor);
      }
    }
  }
  fmt::print("targets (issue 14): the report under 10 s, a page open under 3 s\n");
  fs::remove_all(work);
  return 0;
}

}  // namespace
}  // namespace airscope

int main(int argc, char** argv) { return airscope::Main(argc, argv); }

#include "viz/timeline.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "viz/run_stats.h"

namespace airscope {
namespace {

char FillChar(SliceCategory c) {
  switch (c) {
    case SliceCategory::kKernel: return '#';
    case SliceCategory::kMemcpy: return '=';
    case SliceCategory::kLaunch: return '.';
    case SliceCategory::kDispatch: return 'd';
    case SliceCategory::kGraphLaunch: return 'G';
    case SliceCategory::kEvent: return 'r';
    case SliceCategory::kWait: return '~';
    case SliceCategory::kSync: return 'S';
    case SliceCategory::kCapture: return 'C';
    case SliceCategory::kError: return '!';
  }
  return '?';
}

// Draw order: lower first, so kernels win a cell over the wait that led to them.
int Rank(SliceCategory c) {
  switch (c) {
    case SliceCategory::kWait:
    case SliceCategory::kSync: return 0;
    case SliceCategory::kEvent: return 2;
    case SliceCategory::kError: return 3;
    default: return 1;
  }
}

// Axis label: the value in the run's unit, without trailing zeros.
std::string Label(double ns, double unit, const char* suffix) {
  return fmt::format("{:g}{}", std::round(ns / unit * 100) / 100, suffix);
}

}  // namespace

std::string RenderTimeline(const Trace& trace, int width) {
  width = std::max(width, 10);
  int64_t span = std::max<int64_t>(trace.end_ns, 1);
  double unit = span < 10000 ? 1 : span < 10000000 ? 1e3 : 1e6;
  const char* suffix = unit == 1 ? "ns" : unit == 1e3 ? "us" : "ms";
  size_t label_w = 4;
  for (const std::string& t : trace.tracks) label_w = std::max(label_w, t.size());

  std::string out = fmt::format("timeline: {} ({}), 0 .. {}, 1 column = {}\n", trace.title, trace.device,
                                FormatNs(trace.end_ns), Label(static_cast<double>(span) / width, unit, suffix));
  // Axis: a label every 10 columns where it fits.
  std::string labels(static_cast<size_t>(width) + 12, ' ');
  std::string ticks(static_cast<size_t>(width) + 1, '-');
  for (int c = 0; c <= width; c += 10) {
    ticks[c] = '+';
    std::string l = Label(static_cast<double>(span) * c / width, unit, suffix);
    if (c + l.size() <= labels.size()) labels.replace(c, l.size(), l);
  }
  while (!labels.empty() && labels.back() == ' ') labels.pop_back();
  out += fmt::format("{:<{}} {}\n", "", label_w, labels);
  out += fmt::format("{:<{}} {}\n", "", label_w, ticks);

  // A column from 0 to width whatever the time: a slice before 0 (a file's
  // negative time) or past the trace's end (an end_ns that does not cover
  // it) is drawn at the edge, never indexed outside the row.
  auto col = [&](int64_t ns) {
    int64_t clamped = std::clamp<int64_t>(ns, 0, span);
    return static_cast<int>(static_cast<__int128>(clamped) * width / span);
  };
  for (size_t t = 0; t < trace.tracks.size(); ++t) {
    std::string row(static_cast<size_t>(width), ' ');
    std::vector<int> rank(static_cast<size_t>(width), -1);
    for (int pass = 0; pass <= 3; ++pass) {
      for (const Slice& s : trace.slices) {
        if (s.track != t || Rank(s.category) != pass) continue;
        int c0 = std::min(col(s.start_ns), width - 1);
        int c1 = std::max(c0 + 1, col(s.end_ns()));  // c0 < c1 <= width
        if (s.dur_ns == 0) {
          // A point (record, error): only into an empty cell, unless it is an error.
          if (rank[c0] < 0 || s.category == SliceCategory::kError) {
            row[c0] = FillChar(s.category);
            rank[c0] = pass;
          }
          continue;
        }
        for (int c = c0; c < c1; ++c) {
          row[c] = FillChar(s.category);
          rank[c] = pass;
        }
        std::string_view name = s.name;
        if (s.category == SliceCategory::kKernel && static_cast<int>(name.size()) <= c1 - c0) {
          row.replace(c0, name.size(), name);
        }
      }
    }
    while (!row.empty() && row.back() == ' ') row.pop_back();
    out += fmt::format("{:<{}} |{}\n", trace.tracks[t], label_w, row);
  }
  out +=
      "legend: # kernel (name where it fits)  = memcpy  ~ wait  r record  . launch  d dispatch  G graph launch"
      "  S sync  C capture  ! error\n";
  for (const Slice& s : trace.slices) {
    if (s.category == SliceCategory::kError) out += fmt::format("error at {}: {}\n", FormatNs(s.start_ns), s.name);
  }
  RunStats stats = ComputeRunStats(trace);
  out += fmt::format("{:<{}}  {:>10}  {:>6}  {}\n", "stream", label_w, "busy", "util", "longest idle gap");
  for (const TrackStats& ts : stats.streams) {
    std::string gap = ts.longest_gap_ns > 0 ? fmt::format("{} at {}: {}", FormatNs(ts.longest_gap_ns),
                                                          FormatNs(ts.gap_start_ns), ts.gap_cause)
                                            : "none";
    out += fmt::format("{:<{}}  {:>10}  {:>5.1f}%  {}\n", ts.name, label_w, FormatNs(ts.busy_ns), ts.busy_pct, gap);
  }
  return out;
}

}  // namespace airscope

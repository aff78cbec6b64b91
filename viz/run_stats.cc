#include "viz/run_stats.h"

#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

namespace airscope {

std::string FormatNs(int64_t ns) {
  if (ns < 1000 && ns > -1000) return fmt::format("{} ns", ns);
  if (ns < 1000000 && ns > -1000000) return fmt::format("{:.2f} us", ns / 1e3);
  if (ns < 1000000000 && ns > -1000000000) return fmt::format("{:.3f} ms", ns / 1e6);
  return fmt::format("{:.3f} s", ns / 1e9);
}

namespace {

bool IsBusy(SliceCategory c) { return c == SliceCategory::kKernel || c == SliceCategory::kMemcpy; }

}  // namespace

RunStats ComputeRunStats(const Trace& trace) {
  RunStats stats;
  stats.span_ns = trace.end_ns;
  size_t tracks = trace.tracks.size();
  std::vector<std::vector<uint32_t>> busy(tracks), waits(tracks);
  for (uint32_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    if (s.track >= tracks) continue;
    if (s.track == 0) {
      if (s.category != SliceCategory::kSync && s.category != SliceCategory::kError) stats.host_busy_ns += s.dur_ns;
      continue;
    }
    if (IsBusy(s.category) && s.dur_ns > 0) busy[s.track].push_back(i);
    if (s.category == SliceCategory::kWait && s.dur_ns > 0) waits[s.track].push_back(i);
  }
  // The host slice that launched each device slice.
  std::map<uint32_t, uint32_t> launched_by;
  for (const Flow& f : trace.flows) {
    if (f.kind == FlowKind::kLaunch) launched_by[f.to] = f.from;
  }
  std::vector<std::pair<int64_t, int>> edges;
  for (size_t t = 1; t < tracks; ++t) {
    TrackStats ts;
    ts.name = trace.tracks[t];
    int64_t cursor = 0;
    auto consider_gap = [&](int64_t a, int64_t b, int64_t next_slice) {
      if (b - a <= ts.longest_gap_ns) return;
      ts.longest_gap_ns = b - a;
      ts.gap_start_ns = a;
      ts.gap_cause = "nothing to do";
      for (uint32_t w : waits[t]) {
        const Slice& ws = trace.slices[w];
        if (ws.start_ns < b && ws.end_ns() > a) {
          ts.gap_cause = fmt::format("waiting on event ({})", ws.name);
          return;
        }
      }
      if (next_slice >= 0) {
        auto it = launched_by.find(static_cast<uint32_t>(next_slice));
        if (it != launched_by.end() && trace.slices[it->second].end_ns() > a) ts.gap_cause = "host launch bound";
      }
    };
    for (uint32_t i : busy[t]) {
      const Slice& s = trace.slices[i];
      ts.busy_ns += s.dur_ns;
      if (s.start_ns > cursor) consider_gap(cursor, s.start_ns, i);
      cursor = std::max(cursor, s.end_ns());
      edges.push_back({s.start_ns, +1});
      edges.push_back({s.end_ns(), -1});
    }
    if (trace.end_ns > cursor) consider_gap(cursor, trace.end_ns, -1);
    ts.busy_pct = trace.end_ns > 0 ? 100.0 * static_cast<double>(ts.busy_ns) / static_cast<double>(trace.end_ns) : 0;
    stats.streams.push_back(std::move(ts));
  }
  // Sweep: ends sort before starts at the same time, so touching slices do not overlap.
  std::sort(edges.begin(), edges.end());
  int depth = 0;
  int64_t last = 0;
  for (const auto& [at, delta] : edges) {
    if (depth >= 2) stats.overlap_ns += at - last;
    depth += delta;
    last = at;
  }
  return stats;
}

}  // namespace airscope

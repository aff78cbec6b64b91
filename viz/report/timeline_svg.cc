#include "viz/report/timeline_svg.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include <fmt/format.h>

#include "core/device/allocator.h"
#include "viz/report/report_html.h"
#include "viz/run_stats.h"

namespace airscope {
namespace {

constexpr int kLabelWidth = 130;
constexpr int kAxisHeight = 28;
constexpr int kRowHeight = 30;
constexpr int kSliceHeight = 20;
constexpr double kMinSliceWidth = 0.5;  // narrower slices merge with their neighbours
constexpr double kMinGapWidth = 3;      // idle gaps narrower than this are not marked

// A round tick step (1, 2 or 5 times a power of ten) giving about `ticks` ticks over `span`.
int64_t TickStep(int64_t span, int ticks) {
  double raw = static_cast<double>(std::max<int64_t>(span, 1)) / ticks;
  double power = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0}) {
    if (m * power >= raw) return std::max<int64_t>(1, static_cast<int64_t>(m * power));
  }
  return std::max<int64_t>(1, static_cast<int64_t>(10 * power));
}

struct Scale {
  double left = kLabelWidth;
  double width = 1;  // pixels of time
  int64_t span = 1;
  double X(int64_t ns) const { return left + width * static_cast<double>(ns) / static_cast<double>(span); }
};

std::string CategoryClass(SliceCategory category) { return fmt::format("k-{}", SliceCategoryName(category)); }

void Axis(std::string& svg, const Scale& scale, int height) {
  int64_t step = TickStep(scale.span, 10);
  svg += "<g class=\"axis\">";
  for (int64_t t = 0; t <= scale.span; t += step) {
    double x = scale.X(t);
    svg += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\"/>", x, kAxisHeight - 6, height);
    svg += fmt::format("<text x=\"{:.1f}\" y=\"{}\">{}</text>", x + 2, kAxisHeight - 10, HtmlEscape(FormatNs(t)));
  }
  svg += "</g>";
}

}  // namespace

std::string TimelineSvg(const Trace& trace, const TimelineSvgOptions& options) {
  Scale scale;
  scale.width = std::max(100, options.width - kLabelWidth - 10);
  scale.span = std::max<int64_t>(trace.end_ns, 1);
  const int rows = static_cast<int>(trace.tracks.size());
  const int height = kAxisHeight + rows * kRowHeight + 6;
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"timeline\" width=\"{0}\" height=\"{1}\" "
      "viewBox=\"0 0 {0} {1}\"><title>{2}</title>",
      options.width, height, HtmlEscape(trace.title));
  svg +=
      "<defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" "
      "markerHeight=\"6\" orient=\"auto-start-reverse\"><path d=\"M 0 0 L 10 5 L 0 10 z\"/></marker></defs>";
  Axis(svg, scale, height);

  // Slices by track, in time order (the trace keeps each track's slices in order).
  std::vector<std::vector<uint32_t>> by_track(trace.tracks.size());
  for (uint32_t i = 0; i < trace.slices.size(); ++i) {
    const Slice& s = trace.slices[i];
    if (s.track < by_track.size()) by_track[s.track].push_back(i);
  }
  auto row_top = [](uint32_t track) { return kAxisHeight + static_cast<int>(track) * kRowHeight; };
  // Marked tasks' notes, and each task's first slice on a stream row (for links).
  std::map<int64_t, std::string> notes;
  for (const TimelineMark& m : options.marks) {
    std::string& note = notes[m.task];
    note += (note.empty() ? "" : "; ") + m.note;
  }
  std::map<int64_t, uint32_t> first_slice;
  if (!options.links.empty()) {
    for (uint32_t i = 0; i < trace.slices.size(); ++i) {
      const Slice& s = trace.slices[i];
      if (s.track > 0 && s.task >= 0) first_slice.try_emplace(s.task, i);
    }
  }
  auto marked = [&](const Slice& s) { return s.track > 0 && s.task >= 0 && notes.count(s.task) > 0; };
  for (uint32_t track = 0; track < trace.tracks.size(); ++track) {
    int top = row_top(track);
    const bool host = track == 0;
    svg += fmt::format("<g class=\"{}\" data-track=\"{}\">", host ? "host-row" : "stream-row",
                       HtmlEscape(trace.tracks[track]));
    svg += fmt::format("<rect class=\"row-bg\" x=\"0\" y=\"{}\" width=\"{}\" height=\"{}\"/>", top, options.width,
                       kRowHeight);
    svg += fmt::format("<text class=\"row-label\" x=\"6\" y=\"{}\">{}</text>", top + kRowHeight / 2 + 4,
                       HtmlEscape(host ? "host" : "stream " + trace.tracks[track]));
    const std::vector<uint32_t>& slices = by_track[track];
    // Idle gaps between device work on a stream.
    if (!host) {
      for (size_t k = 1; k < slices.size(); ++k) {
        int64_t from = trace.slices[slices[k - 1]].end_ns(), to = trace.slices[slices[k]].start_ns;
        if (to <= from || scale.X(to) - scale.X(from) < kMinGapWidth) continue;
        svg += fmt::format(
            "<rect class=\"gap\" x=\"{:.1f}\" y=\"{}\" width=\"{:.1f}\" height=\"{}\"><title>idle {}</title></rect>",
            scale.X(from), top + 3, scale.X(to) - scale.X(from), kRowHeight - 6, HtmlEscape(FormatNs(to - from)));
      }
    }
    for (size_t k = 0; k < slices.size();) {
      const Slice& first = trace.slices[slices[k]];
      double x0 = scale.X(first.start_ns);
      double x1 = scale.X(first.end_ns());
      size_t merged = 1;
      // Merge the run of slices that would each be thinner than kMinSliceWidth
      // (a marked one stands alone: its mark must show).
      while (x1 - x0 < kMinSliceWidth && k + merged < slices.size() && !marked(first)) {
        const Slice& next = trace.slices[slices[k + merged]];
        if (scale.X(next.end_ns()) - x0 > 2 * kMinSliceWidth || marked(next)) break;
        x1 = scale.X(next.end_ns());
        ++merged;
      }
      double width = std::max(x1 - x0, kMinSliceWidth);
      if (merged == 1) {
        const bool hazard = marked(first);
        svg += fmt::format(
            "<rect class=\"slice {}{}\" x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"{}\"><title>{} ({}) at {}, "
            "{}{}</title></rect>",
            CategoryClass(first.category), hazard ? " hazard" : "", x0, top + (kRowHeight - kSliceHeight) / 2, width,
            kSliceHeight, HtmlEscape(first.name), SliceCategoryName(first.category),
            HtmlEscape(FormatNs(first.start_ns)), HtmlEscape(FormatNs(first.dur_ns)),
            hazard ? HtmlEscape("; check: " + notes.at(first.task)) : "");
      } else {
        svg += fmt::format(
            "<rect class=\"slice k-many\" x=\"{:.2f}\" y=\"{}\" width=\"{:.2f}\" height=\"{}\"><title>{} tasks from "
            "{}</title></rect>",
            x0, top + (kRowHeight - kSliceHeight) / 2, width, kSliceHeight, merged,
            HtmlEscape(FormatNs(first.start_ns)));
      }
      k += merged;
    }
    svg += "</g>";
  }
  // record -> wait arrows.
  svg += "<g class=\"flows\">";
  for (const Flow& flow : trace.flows) {
    if (flow.kind != FlowKind::kEvent || flow.from >= trace.slices.size() || flow.to >= trace.slices.size()) continue;
    const Slice& from = trace.slices[flow.from];
    const Slice& to = trace.slices[flow.to];
    svg += fmt::format(
        "<line class=\"event-flow\" x1=\"{:.2f}\" y1=\"{}\" x2=\"{:.2f}\" y2=\"{}\" "
        "marker-end=\"url(#arrow)\"><title>{} -> {}</title></line>",
        scale.X(from.end_ns()), row_top(from.track) + kRowHeight / 2, scale.X(to.start_ns),
        row_top(to.track) + kRowHeight / 2, HtmlEscape(from.name), HtmlEscape(to.name));
  }
  svg += "</g>";
  // Hazard links: what `check` found between two tasks that ran.
  if (!options.links.empty()) {
    svg += "<g class=\"hazards\">";
    for (const TimelineLink& link : options.links) {
      auto a = first_slice.find(link.first);
      auto b = first_slice.find(link.second);
      if (a == first_slice.end() || b == first_slice.end()) continue;
      const Slice& from = trace.slices[a->second];
      const Slice& to = trace.slices[b->second];
      svg += fmt::format(
          "<line class=\"hazard-link\" x1=\"{:.2f}\" y1=\"{}\" x2=\"{:.2f}\" y2=\"{}\"><title>{}</title></line>",
          (scale.X(from.start_ns) + scale.X(from.end_ns())) / 2, row_top(from.track) + kRowHeight / 2,
          (scale.X(to.start_ns) + scale.X(to.end_ns())) / 2, row_top(to.track) + kRowHeight / 2, HtmlEscape(link.note));
    }
    svg += "</g>";
  }
  svg += "</svg>";
  return svg;
}

std::string MemorySvg(const Trace& trace, const TimelineSvgOptions& options) {
  if (trace.counters.empty()) return "";
  std::map<std::string, std::vector<const Counter*>> series;  // name -> samples in time order
  int64_t peak = 1;
  for (const Counter& c : trace.counters) {
    series[c.name].push_back(&c);
    peak = std::max(peak, c.value);
  }
  Scale scale;
  scale.width = std::max(100, options.width - kLabelWidth - 10);
  scale.span = std::max<int64_t>(trace.end_ns, 1);
  const int plot_height = 180;
  const int legend_height = 18 * static_cast<int>(series.size());
  const int height = kAxisHeight + plot_height + 10 + legend_height;
  auto y = [&](int64_t value) {
    return kAxisHeight + plot_height - plot_height * static_cast<double>(value) / static_cast<double>(peak);
  };
  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"memory\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} "
      "{1}\">",
      options.width, height);
  Axis(svg, scale, kAxisHeight + plot_height);
  svg += fmt::format("<text class=\"row-label\" x=\"6\" y=\"{}\">{}</text>", kAxisHeight + 12,
                     HtmlEscape(FormatBytes(peak)));
  svg += fmt::format("<text class=\"row-label\" x=\"6\" y=\"{}\">0 B</text>", kAxisHeight + plot_height);
  int index = 0;
  for (const auto& [name, samples] : series) {
    std::string points;
    int64_t last = 0;
    points += fmt::format("{:.1f},{:.1f} ", scale.X(0), y(0));
    for (const Counter* c : samples) {
      // A step: the value holds until the next sample.
      points += fmt::format("{:.1f},{:.1f} {:.1f},{:.1f} ", scale.X(c->ts_ns), y(last), scale.X(c->ts_ns), y(c->value));
      last = c->value;
    }
    points += fmt::format("{:.1f},{:.1f}", scale.X(scale.span), y(last));
    svg += fmt::format("<polyline class=\"series s{}\" points=\"{}\"><title>{}</title></polyline>", index % 6, points,
                       HtmlEscape(name));
    int legend_y = kAxisHeight + plot_height + 22 + 18 * index;
    svg += fmt::format("<rect class=\"legend s{}\" x=\"{}\" y=\"{}\" width=\"12\" height=\"4\"/>", index % 6,
                       kLabelWidth, legend_y - 6);
    svg += fmt::format("<text class=\"row-label\" x=\"{}\" y=\"{}\">{} (peak {})</text>", kLabelWidth + 18, legend_y,
                       HtmlEscape(name),
                       HtmlEscape(FormatBytes((*std::max_element(samples.begin(), samples.end(), [](auto* a, auto* b) {
                                                return a->value < b->value;
                                              }))->value)));
    ++index;
  }
  svg += "</svg>";
  return svg;
}

}  // namespace airscope

#include "formats/chrome_trace.h"

#include <nlohmann/json.hpp>

namespace airscope {
namespace {

using Json = nlohmann::ordered_json;
constexpr int kHostPid = 1;
constexpr int kDevicePid = 2;

double Us(int64_t ns) { return static_cast<double>(ns) / 1000.0; }

int Pid(uint32_t track) { return track == 0 ? kHostPid : kDevicePid; }
int Tid(uint32_t track) { return track == 0 ? 1 : static_cast<int>(track); }

Json Meta(const char* name, int pid, int tid, Json args) {
  Json e;
  e["name"] = name;
  e["ph"] = "M";
  e["pid"] = pid;
  e["tid"] = tid;
  e["args"] = std::move(args);
  return e;
}

}  // namespace

std::string ChromeTraceJson(const Trace& trace) {
  Json events = Json::array();
  events.push_back(Meta("process_name", kHostPid, 1, {{"name", "host"}}));
  events.push_back(Meta("process_sort_index", kHostPid, 1, {{"sort_index", 0}}));
  events.push_back(Meta("thread_name", kHostPid, 1, {{"name", "host thread"}}));
  events.push_back(Meta("thread_sort_index", kHostPid, 1, {{"sort_index", 0}}));
  events.push_back(Meta("process_name", kDevicePid, 1, {{"name", "NPU (" + trace.device + ")"}}));
  events.push_back(Meta("process_sort_index", kDevicePid, 1, {{"sort_index", 1}}));
  for (uint32_t t = 1; t < trace.tracks.size(); ++t) {
    events.push_back(Meta("thread_name", kDevicePid, Tid(t), {{"name", "stream " + trace.tracks[t]}}));
    events.push_back(Meta("thread_sort_index", kDevicePid, Tid(t), {{"sort_index", t}}));
  }
  for (const Slice& s : trace.slices) {
    Json e;
    e["name"] = s.name;
    e["cat"] = std::string(SliceCategoryName(s.category));
    if (s.category == SliceCategory::kError) {
      e["ph"] = "i";
      e["s"] = "g";
      e["pid"] = Pid(s.track);
      e["tid"] = Tid(s.track);
      e["ts"] = Us(s.start_ns);
    } else {
      e["ph"] = "X";
      e["pid"] = Pid(s.track);
      e["tid"] = Tid(s.track);
      e["ts"] = Us(s.start_ns);
      e["dur"] = Us(s.dur_ns);
      Json args;
      if (s.task >= 0) args["task"] = s.task;
      args["iteration"] = s.iteration;
      e["args"] = std::move(args);
    }
    events.push_back(std::move(e));
  }
  int id = 1;
  for (const Flow& f : trace.flows) {
    const Slice& from = trace.slices[f.from];
    const Slice& to = trace.slices[f.to];
    const char* name = f.kind == FlowKind::kLaunch ? "launch" : "event";
    Json s;
    s["name"] = name;
    s["cat"] = "flow";
    s["ph"] = "s";
    s["id"] = id;
    s["pid"] = Pid(from.track);
    s["tid"] = Tid(from.track);
    s["ts"] = Us(from.start_ns);
    events.push_back(std::move(s));
    Json e;
    e["name"] = name;
    e["cat"] = "flow";
    e["ph"] = "f";
    e["bp"] = "e";
    e["id"] = id;
    e["pid"] = Pid(to.track);
    e["tid"] = Tid(to.track);
    e["ts"] = Us(to.start_ns);
    events.push_back(std::move(e));
    ++id;
  }
  for (const Counter& c : trace.counters) {
    Json e;
    e["name"] = c.name;
    e["ph"] = "C";
    e["pid"] = kDevicePid;
    e["ts"] = Us(c.ts_ns);
    e["args"] = {{"bytes", c.value}};
    events.push_back(std::move(e));
  }
  Json doc;
  doc["traceEvents"] = std::move(events);
  doc["displayTimeUnit"] = "ns";
  doc["otherData"] = {{"title", trace.title}, {"device", trace.device}};
  return doc.dump(1) + "\n";
}

}  // namespace airscope

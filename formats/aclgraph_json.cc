#include "formats/aclgraph_json.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/check/hazards.h"
#include "core/fx/json_text.h"

namespace airscope {
namespace {

using Json = nlohmann::ordered_json;

// stream.hpp:37-40, 62-65: how far a task moves its stream's ts, and its dur.
struct DumpLayout {
  int64_t advance;
  double dur;
};
DumpLayout LayoutOf(std::string_view task_type) {
  if (task_type == "NOP") return {1, 0.5};
  if (task_type.find("RECORD") != std::string_view::npos) return {5, 4.5};
  if (task_type.find("WAIT") != std::string_view::npos) return {15, 14.5};
  return {10, 9.5};
}

constexpr std::string_view kRecordPrefixes[] = {"EVENT_RECORD_", "MEM_WRITE_VALUE_"};
constexpr std::string_view kWaitPrefixes[] = {"EVENT_WAIT_", "MEM_WAIT_VALUE_"};

// deadlock_check.py _get_sync_handle: the all-digit tail after a sync prefix.
std::string SyncHandle(std::string_view name, bool* record) {
  auto tail = [&](std::string_view prefix) -> std::string {
    if (!name.starts_with(prefix)) return "";
    std::string_view rest = name.substr(prefix.size());
    bool digits = !rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; });
    return digits ? std::string(rest) : "";
  };
  for (std::string_view p : kRecordPrefixes) {
    if (std::string h = tail(p); !h.empty()) {
      *record = true;
      return h;
    }
  }
  for (std::string_view p : kWaitPrefixes) {
    if (std::string h = tail(p); !h.empty()) {
      *record = false;
      return h;
    }
  }
  return "";
}

}  // namespace

TaskGraph ToAclGraphDump(const TaskGraph& captured, int64_t model_id, int64_t device_vectorcores) {
  TaskGraph out = captured;
  std::map<std::string, std::string> stream_name;
  std::map<std::string, int64_t> stream_id;
  out.streams.clear();
  for (size_t i = 0; i < captured.streams.size(); ++i) {
    stream_name[captured.streams[i]] = fmt::format("stream{}", i);
    stream_id[captured.streams[i]] = static_cast<int64_t>(i);
    out.streams.push_back(stream_name[captured.streams[i]]);
  }
  std::map<std::string, int64_t> event_id;   // in order of first use
  std::map<std::string, int64_t> next_task;  // per stream
  std::map<std::string, double> ts;          // per stream
  for (DeviceTask& t : out.tasks) {
    if (t.launch) continue;  // read from a dump: as it was
    DeviceTask::LaunchRecord l;
    l.model_id = model_id;
    l.stream_id = stream_id.count(t.stream) ? stream_id[t.stream] : -1;
    l.task_id = next_task[t.stream]++;
    l.pid = "0 aclGraph";
    std::string name = t.node;
    switch (t.kind) {
      case TaskKind::kEventRecord:
      case TaskKind::kEventWait: {
        auto [it, fresh] = event_id.try_emplace(t.event, static_cast<int64_t>(event_id.size()));
        l.task_type = t.kind == TaskKind::kEventRecord ? "EVENT_RECORD" : "EVENT_WAIT";
        name = fmt::format("{}_{}", l.task_type, it->second);
        t.event = std::to_string(it->second);
        break;
      }
      case TaskKind::kMemcpy:
        l.task_type = "MEMCPY_ASYNC";
        name = l.task_type;
        break;
      default: {
        CoreDemand demand = VectorCoreDemand(t, device_vectorcores);
        if (demand.candidate) {
          l.task_type = "KERNEL_AIVEC";
          l.num_blocks = demand.vectorcores;
          l.schem_mode = 1;
        } else {
          l.task_type = "KERNEL_AICORE";
        }
      }
    }
    DumpLayout layout = LayoutOf(l.task_type);
    l.ts_us = ts[t.stream];
    l.dur_us = layout.dur;
    ts[t.stream] += static_cast<double>(layout.advance);
    t.node = name;
    t.op = l.task_type;
    t.launch = std::move(l);
  }
  for (DeviceTask& t : out.tasks) {
    if (auto it = stream_name.find(t.stream); it != stream_name.end()) t.stream = it->second;
  }
  return out;
}

std::string AclGraphJson(const TaskGraph& dump) {
  // Stream after stream (the graph's order), each by task id.
  std::map<std::string, std::vector<const DeviceTask*>> by_stream;
  std::vector<std::string> order = dump.streams;
  for (const DeviceTask& t : dump.tasks) {
    if (std::find(order.begin(), order.end(), t.stream) == order.end()) order.push_back(t.stream);
    by_stream[t.stream].push_back(&t);
  }
  std::vector<std::string> lines;
  for (const std::string& stream : order) {
    std::vector<const DeviceTask*>& tasks = by_stream[stream];
    std::stable_sort(tasks.begin(), tasks.end(),
                     [](const DeviceTask* a, const DeviceTask* b) { return a->launch->task_id < b->launch->task_id; });
    for (const DeviceTask* t : tasks) {
      const DeviceTask::LaunchRecord& l = *t->launch;
      Json e;
      e["name"] = t->node;
      e["pid"] = l.pid;
      e["tid"] = t->stream;
      // ts as the runtime writes it, an integer, unless the file had a fraction.
      if (l.ts_us == std::floor(l.ts_us) && std::abs(l.ts_us) < 9e15) {
        e["ts"] = static_cast<int64_t>(l.ts_us);
      } else {
        e["ts"] = l.ts_us;
      }
      e["dur"] = l.dur_us;
      e["ph"] = "X";
      Json args;
      args["Model Id"] = l.model_id;
      args["Stream Id"] = l.stream_id;
      args["Task Id"] = l.task_id;
      args["Task Type"] = l.task_type;
      if (!l.extend_info.empty()) args["ExtendInfo"] = l.extend_info;
      if (l.active_stream_id >= 0) args["Active Stream Id"] = l.active_stream_id;
      if (l.num_blocks >= 0) args["Numblocks"] = l.num_blocks;
      if (l.task_ration >= 0) args["Task Ration"] = l.task_ration;
      if (l.schem_mode >= 0) args["Schem Mode"] = l.schem_mode;
      if (l.kernel_args_size >= 0) {
        args["Kernel Args"] = l.kernel_args;
        args["Kernel Args Size"] = l.kernel_args_size;
      }
      e["args"] = std::move(args);
      lines.push_back(e.dump());
    }
  }
  return fmt::format("[\n{}\n]", fmt::join(lines, ",\n"));
}

bool LooksLikeAclGraphDump(std::string_view content) {
  size_t first = content.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || (content[first] != '[' && content[first] != '{')) return false;
  // The first event's args come early; a verbose dump's kernel arguments may
  // push them a few KiB in.
  return content.substr(0, 1 << 20).find("\"Task Type\"") != std::string_view::npos;
}

namespace {

struct RawTask {
  std::string tid;
  std::string name;
  DeviceTask::LaunchRecord launch;
  size_t index;  // in the file
};

// Where each event starts in the text, for errors that name its line and
// column: the elements of the top-level array, or of the (last, as nlohmann
// keeps the last) "traceEvents" member of a top-level object. The text has
// already parsed, so the scan only needs to skip strings and nesting.
class EventOffsets {
 public:
  explicit EventOffsets(std::string_view text) : text_(text) {
    size_t at = SkipSpace(0);
    if (at < text_.size() && text_[at] == '{') at = LastMember(at, "traceEvents");
    if (at < text_.size() && text_[at] == '[') offsets_ = Elements(at);
  }
  // "FILE:LINE:COL: event N" (or "FILE: event N" should the scan disagree with the parser).
  std::string Where(std::string_view file, size_t index) const {
    if (index >= offsets_.size()) return fmt::format("{}: event {}", file, index);
    TextPosition pos = PositionOfOffset(text_, offsets_[index]);
    return fmt::format("{}:{}:{}: event {}", file, pos.line, pos.column, index);
  }

 private:
  size_t SkipSpace(size_t at) const {
    while (at < text_.size() && (text_[at] == ' ' || text_[at] == '\t' || text_[at] == '\r' || text_[at] == '\n')) {
      ++at;
    }
    return at;
  }
  // Past the value that starts at `at`.
  size_t SkipValue(size_t at) const {
    int depth = 0;
    bool in_string = false;
    for (; at < text_.size(); ++at) {
      char c = text_[at];
      if (in_string) {
        if (c == '\\') {
          ++at;
        } else if (c == '"') {
          in_string = false;
          if (depth == 0) return at + 1;
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '[' || c == '{') {
        ++depth;
      } else if (c == ']' || c == '}') {
        if (depth == 0) return at;  // the end of the enclosing container: a scalar ended
        if (--depth == 0) return at + 1;
      } else if (depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\r' || c == '\n')) {
        return at;
      }
    }
    return at;
  }
  // The offset of the value of the last member `key` of the object at `open`, or npos.
  size_t LastMember(size_t open, std::string_view key) const {
    size_t found = std::string_view::npos;
    size_t at = SkipSpace(open + 1);
    while (at < text_.size() && text_[at] == '"') {
      size_t key_end = SkipValue(at);
      bool match = text_.substr(at + 1, key_end - at - 2) == key;
      at = SkipSpace(key_end);
      if (at >= text_.size() || text_[at] != ':') break;
      at = SkipSpace(at + 1);
      if (match) found = at;
      at = SkipSpace(SkipValue(at));
      if (at >= text_.size() || text_[at] != ',') break;
      at = SkipSpace(at + 1);
    }
    return found;
  }
  std::vector<size_t> Elements(size_t open) const {
    std::vector<size_t> out;
    size_t at = SkipSpace(open + 1);
    while (at < text_.size() && text_[at] != ']') {
      out.push_back(at);
      at = SkipSpace(SkipValue(at));
      if (at >= text_.size() || text_[at] != ',') break;
      at = SkipSpace(at + 1);
    }
    return out;
  }

  std::string_view text_;
  std::vector<size_t> offsets_;
};

Result<int64_t> IntField(const Json& args, const char* key, int64_t absent, const std::string& where) {
  auto it = args.find(key);
  if (it == args.end()) return absent;
  if (it->is_number_integer()) return it->get<int64_t>();
  if (it->is_number_float()) {
    double v = it->get<double>();
    if (std::floor(v) == v && std::abs(v) < 9e18) return static_cast<int64_t>(v);
  }
  return Status::Errorf("{}: args \"{}\" is not an integer", where, key);
}

// A task's ts or dur in microseconds: a finite number from 0 to kMaxDumpTimeUs.
// The runtime's layout puts ts at 0 and advances it by at most 15 per task
// (stream.hpp:37-65), so a real dump stays far below the limit; times past it
// (or negative) are no dump's, and as nanoseconds they would overflow the
// timeline's int64 clock.
constexpr double kMaxDumpTimeUs = 1e12;
Result<double> TimeField(const nlohmann::json& e, const char* key, const std::string& where) {
  if (!e.contains(key)) return 0.0;
  const nlohmann::json& v = e[key];
  if (!v.is_number()) return Status::Errorf("{}: \"{}\" is not a number", where, key);
  double us = v.get<double>();
  if (!std::isfinite(us) || us < 0 || us > kMaxDumpTimeUs) {
    return Status::Errorf(
        "{}: \"{}\" is {}: a capture dump's times are microseconds from 0 to {:g} (the runtime lays tasks out "
        "10 apart from 0)",
        where, key, v.dump(), kMaxDumpTimeUs);
  }
  return us;
}

}  // namespace

Result<AclGraphDump> ParseAclGraphJson(std::string_view content, std::string_view filename) {
  AIRSCOPE_ASSIGN_OR_RETURN(nlohmann::json parsed, ParseJsonText(content, filename));
  const nlohmann::json* events = &parsed;
  if (events->is_object()) {
    auto it = events->find("traceEvents");
    if (it == events->end()) return Status::Errorf("{}: a JSON object without \"traceEvents\"", filename);
    events = &*it;
  }
  if (!events->is_array()) return Status::Errorf("{}: expected a JSON array of trace events", filename);
  // deadlock_check.py _build_stream_tasks: "X" events with a tid and args.
  std::vector<RawTask> raw;
  EventOffsets offsets(content);
  for (size_t i = 0; i < events->size(); ++i) {
    const nlohmann::json& e = (*events)[i];
    // (Fields are type-checked before they are read: nlohmann's value()
    // throws on a type it did not expect.)
    if (!e.is_object() || !e.contains("ph") || e["ph"] != "X" || !e.contains("tid") || !e.contains("args")) continue;
    const std::string where = offsets.Where(filename, i);
    const nlohmann::json& args = e["args"];
    if (!args.is_object()) return Status::Errorf("{}: \"args\" is not an object", where);
    RawTask t;
    t.index = i;
    const nlohmann::json& tid = e["tid"];
    if (tid.is_string()) {
      t.tid = tid.get<std::string>();
    } else if (tid.is_number_integer()) {
      t.tid = std::to_string(tid.get<int64_t>());
    } else {
      return Status::Errorf("{}: \"tid\" is neither a string nor an integer", where);
    }
    if (!e.contains("name") || !e["name"].is_string()) {
      return Status::Errorf("{}: \"name\" is missing or not a string", where);
    }
    t.name = e["name"].get<std::string>();
    DeviceTask::LaunchRecord& l = t.launch;
    AIRSCOPE_ASSIGN_OR_RETURN(l.ts_us, TimeField(e, "ts", where));
    AIRSCOPE_ASSIGN_OR_RETURN(l.dur_us, TimeField(e, "dur", where));
    if (e.contains("pid")) l.pid = e["pid"].is_string() ? e["pid"].get<std::string>() : e["pid"].dump();
    if (args.contains("Task Type") && !args["Task Type"].is_string()) {
      return Status::Errorf("{}: \"Task Type\" is not a string", where);
    }
    l.task_type = args.value("Task Type", "");
    struct Field {
      const char* key;
      int64_t* into;
      int64_t absent;
    };
    for (const Field& f :
         {Field{"Model Id", &l.model_id, -1}, Field{"Stream Id", &l.stream_id, -1}, Field{"Task Id", &l.task_id, 0},
          Field{"Numblocks", &l.num_blocks, -1}, Field{"Task Ration", &l.task_ration, -1},
          Field{"Schem Mode", &l.schem_mode, -1}, Field{"Active Stream Id", &l.active_stream_id, -1},
          Field{"Kernel Args Size", &l.kernel_args_size, -1}}) {
      AIRSCOPE_ASSIGN_OR_RETURN(int64_t v, IntField(args, f.key, f.absent, where));
      *f.into = v;
    }
    if (args.contains("ExtendInfo")) {
      if (!args["ExtendInfo"].is_string()) return Status::Errorf("{}: \"ExtendInfo\" is not a string", where);
      l.extend_info = args["ExtendInfo"].get<std::string>();
    }
    if (args.contains("Kernel Args") && args["Kernel Args"].is_string())
      l.kernel_args = args["Kernel Args"].get<std::string>();
    raw.push_back(std::move(t));
  }
  if (raw.empty()) return Status::Errorf("{}: no \"X\" task events with \"tid\" and \"args\"", filename);

  AclGraphDump dump;
  // Streams in order of first appearance; each stream's tasks, file order.
  std::vector<std::string> streams;
  std::map<std::string, std::vector<size_t>> of_stream;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (!of_stream.count(raw[i].tid)) streams.push_back(raw[i].tid);
    of_stream[raw[i].tid].push_back(i);
  }
  // _merge_stream_active: by ts, a STREAM_ACTIVE task's Active Stream Id
  // ("stream<id>") moves that stream's tasks onto the task's own stream.
  std::vector<size_t> actives;
  for (size_t i = 0; i < raw.size(); ++i) {
    if ((raw[i].launch.task_type == "STREAM_ACTIVE" || raw[i].name == "STREAM_ACTIVE") &&
        raw[i].launch.active_stream_id >= 0) {
      actives.push_back(i);
    }
  }
  std::stable_sort(actives.begin(), actives.end(),
                   [&](size_t a, size_t b) { return raw[a].launch.ts_us < raw[b].launch.ts_us; });
  for (size_t a : actives) {
    std::string source = fmt::format("stream{}", raw[a].launch.active_stream_id);
    const std::string target = raw[a].tid;
    auto src = of_stream.find(source);
    if (source == target || src == of_stream.end() || src->second.empty()) continue;
    std::vector<size_t>& into = of_stream[target];
    double target_end = 0, source_min = 0;
    bool first = true;
    for (size_t i : into) target_end = std::max(target_end, raw[i].launch.ts_us + raw[i].launch.dur_us);
    for (size_t i : src->second) {
      source_min = first ? raw[i].launch.ts_us : std::min(source_min, raw[i].launch.ts_us);
      first = false;
    }
    // The target's stream id, when its name is stream<id> with an id that
    // fits int64 (std::stoll threw on "stream18446744073709551616": found by
    // fuzz_driver); else the moved tasks keep theirs.
    int64_t target_id = -1;
    if (target.starts_with("stream") && target.size() > 6) {
      const char* begin = target.data() + 6;
      const char* end = target.data() + target.size();
      int64_t id = 0;
      auto [at, error] = std::from_chars(begin, end, id);
      if (error == std::errc() && at == end && id >= 0) target_id = id;
    }
    for (size_t i : src->second) {
      raw[i].launch.ts_us += target_end - source_min;
      // Each merge can push a stream as far again as the one it joins: a
      // chain of them must not leave the range a time is read in.
      if (raw[i].launch.ts_us + raw[i].launch.dur_us > kMaxDumpTimeUs) {
        return Status::Errorf("{}: merging {} into {} (STREAM_ACTIVE) puts its tasks past {:g} us", filename, source,
                              target, kMaxDumpTimeUs);
      }
      raw[i].tid = target;
      if (target_id >= 0 && raw[i].launch.stream_id >= 0) raw[i].launch.stream_id = target_id;
      into.push_back(i);
    }
    of_stream.erase(src);
    streams.erase(std::find(streams.begin(), streams.end(), source));
    dump.merged.push_back(fmt::format("{} -> {}", source, target));
  }
  for (auto& [tid, list] : of_stream) {
    std::stable_sort(list.begin(), list.end(),
                     [&](size_t a, size_t b) { return raw[a].launch.task_id < raw[b].launch.task_id; });
  }
  // An issue order: streams in turn, each as far as it can go; a wait can go
  // once a record of its event has gone. A wait whose record never comes (or a
  // cycle of waits) goes unbound when nothing else can.
  std::map<std::string, size_t> next;
  std::map<std::string, int64_t> latest_record;  // handle -> task id
  TaskGraph& g = dump.tasks;
  g.streams = streams;
  size_t left = raw.size();
  auto issue = [&](const std::string& tid) {
    const RawTask& r = raw[of_stream[tid][next[tid]++]];
    DeviceTask t;
    t.id = static_cast<uint32_t>(g.tasks.size());
    t.node = r.name;
    t.op = r.launch.task_type.empty() ? "?" : r.launch.task_type;
    t.stream = tid;
    t.launch = r.launch;
    bool record = false;
    std::string handle = SyncHandle(r.name, &record);
    if (!handle.empty()) {
      t.kind = record ? TaskKind::kEventRecord : TaskKind::kEventWait;
      t.event = handle;
      if (record) {
        latest_record[handle] = t.id;
      } else if (auto it = latest_record.find(handle); it != latest_record.end()) {
        t.deps = {static_cast<uint32_t>(it->second)};
      }
    } else {
      t.kind = r.launch.task_type.starts_with("MEMCPY") ? TaskKind::kMemcpy : TaskKind::kKernel;
    }
    g.tasks.push_back(std::move(t));
    --left;
  };
  auto ready = [&](const std::string& tid) {
    const std::vector<size_t>& list = of_stream[tid];
    if (next[tid] >= list.size()) return false;
    bool record = false;
    std::string handle = SyncHandle(raw[list[next[tid]]].name, &record);
    return handle.empty() || record || latest_record.count(handle);
  };
  while (left > 0) {
    bool progress = false;
    for (const std::string& tid : streams) {
      while (ready(tid)) {
        issue(tid);
        progress = true;
      }
    }
    if (progress) continue;
    for (const std::string& tid : streams) {
      if (next[tid] < of_stream[tid].size()) {
        issue(tid);  // a wait nothing records (before it): unbound
        break;
      }
    }
  }
  // The capture (origin) stream: the first that does not begin with a wait
  // (a side stream joins by waiting); else the first.
  dump.capture_stream = streams.front();
  for (const std::string& tid : streams) {
    bool record = false;
    if (SyncHandle(raw[of_stream[tid].front()].name, &record).empty() || record) {
      dump.capture_stream = tid;
      break;
    }
  }
  dump.model_id = raw.front().launch.model_id;
  return dump;
}

Trace AclGraphTrace(const TaskGraph& dump, std::string title) {
  Trace t;
  t.title = std::move(title);
  t.device = "aclgraph dump";
  t.tracks.push_back("host");
  std::map<std::string, uint32_t> track;
  for (const std::string& s : dump.streams) {
    track.emplace(s, static_cast<uint32_t>(t.tracks.size()));
    t.tracks.push_back(s);
  }
  std::vector<int32_t> slice_of(dump.tasks.size(), -1);
  // Saturating: a dump the reader accepted stays far inside int64 ns, but
  // this is also called on tasks built elsewhere.
  auto ns = [](double us) -> int64_t {
    double v = us * 1000.0;
    if (std::isnan(v)) return 0;
    if (v <= -9.2e18) return std::numeric_limits<int64_t>::min();
    if (v >= 9.2e18) return std::numeric_limits<int64_t>::max();
    return static_cast<int64_t>(std::llround(v));
  };
  for (const DeviceTask& task : dump.tasks) {
    auto [it, fresh] = track.try_emplace(task.stream, static_cast<uint32_t>(t.tracks.size()));
    if (fresh) t.tracks.push_back(task.stream);
    SliceCategory category = task.kind == TaskKind::kEventRecord ? SliceCategory::kEvent
                             : task.kind == TaskKind::kEventWait ? SliceCategory::kWait
                             : task.kind == TaskKind::kMemcpy    ? SliceCategory::kMemcpy
                                                                 : SliceCategory::kKernel;
    double ts = task.launch ? task.launch->ts_us : 0, dur = task.launch ? task.launch->dur_us : 0;
    slice_of[task.id] = static_cast<int32_t>(t.slices.size());
    t.slices.push_back({it->second, category, task.node, ns(ts), ns(dur), 0, task.id});
    t.end_ns = std::max(t.end_ns, t.slices.back().end_ns());
  }
  for (const DeviceTask& task : dump.tasks) {
    if (task.kind != TaskKind::kEventWait) continue;
    for (uint32_t d : task.deps) {
      if (dump.tasks[d].kind == TaskKind::kEventRecord) {
        t.flows.push_back(
            {FlowKind::kEvent, static_cast<uint32_t>(slice_of[d]), static_cast<uint32_t>(slice_of[task.id])});
      }
    }
  }
  return t;
}

}  // namespace airscope

#include "formats/torch_trace.h"

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/fx/json_text.h"
#include "core/line_reader.h"
#include "core/text.h"
#include "formats/md5.h"

namespace airscope {
namespace {

// nlohmann's parser and dump() recurse once per nesting level: a record
// nested 70,000 deep crashed dump(). Deeper than any real log nests, and far
// from the stack's end, JSON counts as unparsable (a discarded value).
constexpr size_t kMaxRecordDepth = 256;
nlohmann::json ParseBoundedJson(std::string_view text) {
  if (!CheckJsonDepth(text, kMaxRecordDepth).ok()) return nlohmann::json(nlohmann::json::value_t::discarded);
  return nlohmann::json::parse(text, nullptr, false);
}

// The JSON part of a glog-prefixed record, or npos: `[VIWEF]MMDD hh:mm:ss.uuuuuu TID FILE:LINE] {...}`.
size_t JsonStart(std::string_view line) {
  if (line.size() < 20 || (line[0] != 'V' && line[0] != 'I' && line[0] != 'W' && line[0] != 'E' && line[0] != 'F')) {
    return std::string_view::npos;
  }
  for (size_t i = 1; i <= 4; ++i) {
    if (!IsDigit(line[i])) return std::string_view::npos;
  }
  if (line[5] != ' ') return std::string_view::npos;
  size_t close = line.find("] ", 6);
  if (close == std::string_view::npos) return std::string_view::npos;
  return close + 2;
}

// The first key of the envelope object as written (nlohmann sorts keys).
std::string_view FirstKey(std::string_view json) {
  if (json.size() < 4 || json[0] != '{' || json[1] != '"') return {};
  size_t end = json.find('"', 2);
  return end == std::string_view::npos ? std::string_view() : json.substr(2, end - 2);
}

bool IsCacheArtifact(std::string_view name) {
  for (std::string_view cache : {"fx_graph_cache_", "aotautograd_cache_", "autograd_cache_"}) {
    if (name.substr(0, cache.size()) != cache) continue;
    std::string_view outcome = name.substr(cache.size());
    return outcome == "hit" || outcome == "miss" || outcome == "bypass";
  }
  return false;
}

bool IsGraphStage(std::string_view key) { return key.size() > 6 && key.substr(key.size() - 6) == "_graph"; }

int64_t IntOr(const nlohmann::json& object, const char* key, int64_t fallback) {
  auto it = object.find(key);
  return it != object.end() && it->is_number_integer() ? it->get<int64_t>() : fallback;
}

std::string StringOr(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The fields of a chromium_event payload airscope reads: name, ph, ts, dur at
// the top level, args.compile_id (torch/_dynamo/utils.py ChromiumEventLogger).
struct ChromiumEvent : nlohmann::json_sax<nlohmann::json> {
  std::string name, ph, compile_id;
  double ts = 0, dur = 0;
  bool has_ts = false, has_dur = false;
  int depth = 0;
  bool in_args = false;
  std::string current_key;

  void Number(double v) {
    if (depth != 1) return;
    if (current_key == "ts") {
      ts = v;
      has_ts = true;
    } else if (current_key == "dur") {
      dur = v;
      has_dur = true;
    }
  }
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t v) override {
    Number(static_cast<double>(v));
    return true;
  }
  bool number_unsigned(number_unsigned_t v) override {
    Number(static_cast<double>(v));
    return true;
  }
  bool number_float(number_float_t v, const string_t&) override {
    Number(v);
    return true;
  }
  bool string(string_t& v) override {
    if (depth == 1 && current_key == "name") name = v;
    if (depth == 1 && current_key == "ph") ph = v;
    if (depth == 2 && in_args && current_key == "compile_id") compile_id = v;
    return true;
  }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    in_args = depth == 1 && current_key == "args";
    ++depth;
    return true;
  }
  bool end_object() override {
    if (--depth == 1) in_args = false;
    return true;
  }
  bool start_array(std::size_t) override {
    ++depth;
    return true;
  }
  bool end_array() override {
    --depth;
    return true;
  }
  bool key(string_t& k) override {
    current_key = k;
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return false; }
};

}  // namespace

const TraceCompile* TraceLog::FindCompile(std::string_view id) const {
  for (const TraceCompile& c : compiles) {
    if (c.id == id) return &c;
  }
  return nullptr;
}

size_t TraceLog::CountArtifacts(std::string_view cache, std::string_view outcome) const {
  size_t n = 0;
  for (const TraceArtifact& a : cache_artifacts) {
    bool cache_ok = cache == "fx_graph"
                        ? a.name.starts_with("fx_graph_cache_")
                        : (a.name.starts_with("aotautograd_cache_") || a.name.starts_with("autograd_cache_"));
    n += cache_ok && a.name.ends_with(std::string("_") + std::string(outcome));
  }
  return n;
}

bool LooksLikeTraceLog(std::string_view first_line) {
  size_t start = JsonStart(first_line);
  return start != std::string_view::npos && start < first_line.size() && first_line[start] == '{';
}

struct TraceLogReader::State {
  TraceLog log;
  std::map<std::string, size_t, std::less<>> compile_index;
  std::vector<std::string> strings;  // the "str" table: index -> file name
  // The record whose payload lines are being read.
  bool open = false;
  bool orphan_reported = false;
  // Empty lines met while a payload was open: inside it if a TAB line follows
  // (torch writes a TAB on every payload line, even an empty one, but an
  // editor that strips trailing blanks leaves none), else its end.
  size_t blank_lines = 0;
  bool blank_noted = false;  // said once a record
  bool mixed_ranks_reported = false;
  std::string kind;
  std::string compile_id;  // the trace id: compile id and `_ATTEMPT`
  std::string base_id;     // the compile id
  std::string expected_md5;
  std::string artifact;
  std::string output_file;
  size_t line = 0;
  size_t payload_lines = 0;
  Md5 md5;
  std::string payload;

  void AppendPayloadLine(std::string_view text) {
    if (payload_lines++ > 0) {
      md5.Update("\n");
      payload += '\n';
    }
    md5.Update(text);
    payload.append(text);
  }

  TraceCompile& Compile(const std::string& id, int frame, int compile, int ca, size_t at) {
    auto it = compile_index.find(id);
    if (it != compile_index.end()) return log.compiles[it->second];
    compile_index.emplace(id, log.compiles.size());
    TraceCompile c;
    c.id = id;
    c.frame_id = frame;
    c.frame_compile_id = compile;
    c.compiled_autograd_id = ca;
    c.line = at;
    c.status = "unknown";
    log.compiles.push_back(std::move(c));
    return log.compiles.back();
  }

  void Problem(size_t at, std::string message) {
    // A damaged log of a billion lines must not keep a billion warnings.
    if (log.problems.size() >= TraceLog::kMaxProblems) {
      ++log.more_problems;
      return;
    }
    log.problems.push_back({at, std::move(message)});
  }

  void CloseRecord() {
    if (!open) return;
    open = false;
    if (expected_md5.empty()) return;  // a broken record's payload: already reported
    std::string digest = md5.HexDigest();
    md5 = Md5();
    log.payload_bytes += payload.size();
    if (digest != expected_md5) {
      std::string detail;
      if (!payload.empty() && (payload[0] == '{' || payload[0] == '[')) {
        nlohmann::json parsed = ParseBoundedJson(payload);
        if (parsed.is_discarded()) detail = "; its JSON does not parse";
      }
      // Kept, as tlparse keeps it (it counts fail_payload_md5 and goes on).
      Problem(line, fmt::format("{} payload md5 mismatch (has_payload {}, computed {}){}: the payload may be damaged; "
                                "kept as it is",
                                kind, expected_md5, digest, detail));
    }
    KeepPayload();
  }

  // torch.export's `ExportedProgram:` text (ExportedProgram.__str__): the
  // graph module's print_readable code indented by 4, then a "Graph
  // signature: " and a "Range constraints: " line.
  void KeepExport() {
    TraceExport exported;
    exported.line = line;
    std::string code;
    bool in_graph = false;
    ForEachLine(payload, [&](std::string_view l) {
      if (l.starts_with("ExportedProgram:")) {
        in_graph = true;
      } else if (l.starts_with("Graph signature: ")) {
        exported.graph_signature = l.substr(17);
      } else if (l.starts_with("Range constraints: ")) {
        exported.range_constraints = l.substr(19);
      }
      if (!in_graph || l.starts_with("ExportedProgram:")) return;
      if (!l.empty() && l[0] != ' ') {
        in_graph = false;
        return;
      }
      code.append(l.substr(std::min<size_t>(4, l.size())));
      code += '\n';
    });
    if (code.find_first_not_of(" \n") == std::string::npos) {
      Problem(line, "exported_program payload without an `ExportedProgram:` graph: no graph kept");
    } else {
      log.graphs.push_back({compile_id, kind, std::move(code), line});
    }
    log.exports.push_back(std::move(exported));
  }

  // The payloads kept, by the record's kind (or its artifact's name).
  void KeepPayload() {
    if (kind == "inductor_output_code") {
      size_t lines = payload.empty() ? 0 : 1 + static_cast<size_t>(std::count(payload.begin(), payload.end(), '\n'));
      log.output_code.push_back({base_id, output_file, lines, payload.size(), line});
    }
    if (kind == "artifact" && artifact == "dynamo_error") log.errors.push_back({base_id, payload, line});
    if (kind == "artifact" && artifact == "dynamo_graph_break_reason") {
      std::string_view text(payload);
      auto line_of = [&text](size_t at) {
        size_t end = text.find('\n', at);
        std::string_view l = text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
        while (!l.empty() && (l.front() == ' ')) l.remove_prefix(1);
        return std::string(l.substr(0, 200));
      };
      std::string summary = line_of(0);
      if (size_t reason = text.find("Reason:"); reason != std::string_view::npos) summary += " " + line_of(reason);
      log.graph_breaks.push_back({base_id, std::move(summary), line});
    }
    if (kind == "chromium_event") {
      Phase(payload);
    } else if (kind == "exported_program") {
      KeepExport();
    } else if (IsGraphStage(kind)) {
      log.graphs.push_back({compile_id, kind, payload, line});
    } else if (kind == "dynamo_cpp_guards_str") {
      log.cpp_guards[base_id] = payload;
    } else if (kind == "dynamo_guards") {
      log.dynamo_guards[base_id] = payload;
    } else if (kind == "recompile_reasons" || artifact == "recompile_reasons") {
      TraceRecompile r{base_id, line, {}};
      nlohmann::json parsed = ParseBoundedJson(payload);
      if (parsed.is_array()) {
        for (const auto& reason : parsed)
          r.reasons.push_back(reason.is_string() ? reason.get<std::string>() : reason.dump());
      } else if (!payload.empty()) {
        r.reasons.push_back(payload);
      }
      log.recompiles.push_back(std::move(r));
    }
  }

  // What a record's envelope says about where it belongs.
  struct Envelope {
    const nlohmann::json& body;  // the value under the record's kind
    int frame = -1;
    int compile = -1;
    int ca = -1;  // compiled_autograd_id
    size_t at = 0;
  };

  // The "str" table: index -> file name, for dynamo_start's stack.
  void OnString(const Envelope& e) {
    const nlohmann::json& body = e.body;
    if (!body.is_array() || body.size() != 2 || !body[0].is_string() || !body[1].is_number_integer()) return;
    size_t index = body[1].get<size_t>();
    if (index >= 1000000) return;
    if (strings.size() <= index) strings.resize(index + 1);
    strings[index] = body[0].get<std::string>();
  }

  std::string FileName(int64_t index) const {
    return index >= 0 && static_cast<size_t>(index) < strings.size() ? strings[static_cast<size_t>(index)] : "?";
  }

  void OnDynamoStart(const Envelope& e) {
    if (base_id.empty()) return;
    TraceCompile& c = Compile(base_id, e.frame, e.compile, e.ca, e.at);
    ++c.starts;
    const nlohmann::json& body = e.body;
    if (!body.is_object() || !body.contains("stack") || !body["stack"].is_array() || body["stack"].empty()) return;
    const nlohmann::json& top = body["stack"].back();
    if (c.function.empty()) c.function = StringOr(top, "name");
    int64_t file = IntOr(top, "filename", -1);
    if (c.filename.empty() && file >= 0 && static_cast<size_t>(file) < strings.size()) {
      c.filename = fmt::format("{}:{}", strings[static_cast<size_t>(file)], IntOr(top, "line", 0));
    }
    if (!c.stack.empty()) return;
    for (const nlohmann::json& frame_json : body["stack"]) {
      if (!frame_json.is_object()) continue;
      c.stack.push_back(fmt::format("{}:{} in {}", FileName(IntOr(frame_json, "filename", -1)),
                                    IntOr(frame_json, "line", 0), StringOr(frame_json, "name")));
    }
  }

  void OnCompilationMetrics(const Envelope& e) {
    const nlohmann::json& body = e.body;
    if (base_id.empty() || !body.is_object()) return;
    TraceCompile& c = Compile(base_id, e.frame, e.compile, e.ca, e.at);
    // A second record for one compile id: a log of several runs (a reused
    // TORCH_TRACE file, torch._dynamo.reset()). The last one is shown; an
    // earlier run that ended otherwise is said, not merged away.
    std::string previous = c.has_metrics ? c.status : "";
    c.has_metrics = true;
    if (std::string name = StringOr(body, "co_name"); !name.empty()) c.function = name;
    if (std::string file = StringOr(body, "co_filename"); !file.empty()) {
      c.filename = fmt::format("{}:{}", file, IntOr(body, "co_firstlineno", 0));
    }
    c.graph_op_count = IntOr(body, "graph_op_count", -1);
    c.graph_node_count = IntOr(body, "graph_node_count", -1);
    c.graph_input_count = IntOr(body, "graph_input_count", -1);
    c.cache_size = IntOr(body, "cache_size", -1);
    c.accumulated_cache_size = IntOr(body, "accumulated_cache_size", -1);
    c.guard_count = IntOr(body, "guard_count", -1);
    c.shape_env_guard_count = IntOr(body, "shape_env_guard_count", -1);
    c.metric_times.clear();
    c.started_at = c.ended_at = -1;
    for (const auto& [key, value] : body.items()) {
      if (!value.is_number()) continue;
      const double number = value.get<double>();
      // Timestamps first: start_time_us ends like a duration but is not one.
      if (key == "start_time_us") {
        c.started_at = number / 1e6;
      } else if (key == "end_time_us") {
        c.ended_at = number / 1e6;
      } else if (key == "start_time") {
        if (c.started_at < 0) c.started_at = number;  // the legacy field: the same instant, in seconds
      } else if (key.ends_with("_time_s")) {
        c.metric_times.emplace_back(key, number);
      } else if (key.ends_with("_time_us") || key == "duration_us") {
        c.metric_times.emplace_back(key, number / 1e6);
      } else if (key.ends_with("_time_ms")) {
        c.metric_times.emplace_back(key, number / 1e3);
      }
    }
    std::string fail_type = StringOr(body, "fail_type");
    std::vector<std::string> restarts;
    if (auto it = body.find("restart_reasons"); it != body.end() && it->is_array()) {
      for (const auto& r : *it) restarts.push_back(r.is_string() ? r.get<std::string>() : r.dump());
    }
    if (!fail_type.empty()) {
      c.status = "failure";
      c.reason = fmt::format("{}: {}", fail_type, StringOr(body, "fail_reason"));
    } else if (!restarts.empty()) {
      c.status = "restart";
      c.reason = fmt::format("{}", fmt::join(restarts, "; "));
    } else {
      c.status = "success";
      c.reason.clear();
    }
    if (!previous.empty() && previous != c.status) {
      Problem(e.at, fmt::format("compile {} has compilation_metrics again (a log of several runs): airscope shows "
                                "this run's status ({}); an earlier run's was {}",
                                c.id, c.status, previous));
    }
  }

  void OnArtifact(const Envelope& e) {
    if (!e.body.is_object()) return;
    artifact = StringOr(e.body, "name");
    if (IsCacheArtifact(artifact)) log.cache_artifacts.push_back({base_id, artifact, e.at});
  }

  // Older logs put the reasons in the envelope itself (newer ones in the payload, see CloseRecord).
  void OnRecompileReasons(const Envelope& e) {
    if (!e.body.is_array()) return;
    TraceRecompile r{base_id, e.at, {}};
    for (const auto& reason : e.body)
      r.reasons.push_back(reason.is_string() ? reason.get<std::string>() : reason.dump());
    log.recompiles.push_back(std::move(r));
  }

  void OnOutputCode(const Envelope& e) {
    if (e.body.is_object()) output_file = StringOr(e.body, "filename");
  }

  void OnSpecialization(const Envelope& e) {
    const nlohmann::json& body = e.body;
    if (!body.is_object()) return;
    std::vector<std::string> sources;
    if (auto it = body.find("sources"); it != body.end() && it->is_array()) {
      for (const auto& src : *it) sources.push_back(src.is_string() ? src.get<std::string>() : src.dump());
    }
    log.specializations.push_back({base_id, StringOr(body, "symbol"), StringOr(body, "value"), StringOr(body, "reason"),
                                   fmt::format("{}", fmt::join(sources, ", ")), e.at});
  }

  void OnGuardAdded(const Envelope& e) {
    if (!e.body.is_object()) return;
    TraceGuardAdded g{base_id, StringOr(e.body, "expr"), e.at, {}, {}, {}};
    if (auto stack = e.body.find("user_stack");
        stack != e.body.end() && stack->is_array() && !stack->empty() && stack->back().is_object()) {
      const nlohmann::json& top = stack->back();
      g.user_frame = fmt::format("{}:{} in {}", FileName(IntOr(top, "filename", -1)), IntOr(top, "line", 0),
                                 StringOr(top, "name"));
      if (std::string code = StringOr(top, "loc"); !code.empty()) g.user_frame += ": " + code;
    }
    if (auto locals = e.body.find("frame_locals");
        g.user_frame.empty() && locals != e.body.end() && locals->is_object()) {
      g.code = StringOr(*locals, "loc");
    }
    if (auto sources = e.body.find("symbol_to_sources"); sources != e.body.end() && sources->is_object()) {
      for (const auto& [symbol, source] : sources->items()) {
        if (source.is_string()) g.symbol_sources.push_back(fmt::format("{} = {}", symbol, source.get<std::string>()));
      }
    }
    log.guards_added.push_back(std::move(g));
  }

  struct KindHandler {
    std::string_view kind;
    void (State::*handle)(const Envelope&);
  };
  // The record kinds read from the envelope; the rest are kept (or not) by
  // their payload in CloseRecord, or counted and skipped.
  static constexpr KindHandler kHandlers[] = {
      {"str", &State::OnString},
      {"dynamo_start", &State::OnDynamoStart},
      {"compilation_metrics", &State::OnCompilationMetrics},
      {"artifact", &State::OnArtifact},
      {"recompile_reasons", &State::OnRecompileReasons},
      {"inductor_output_code", &State::OnOutputCode},
      {"symbolic_shape_specialization", &State::OnSpecialization},
      {"guard_added", &State::OnGuardAdded},
      {"guard_added_fast", &State::OnGuardAdded},
  };

  // torch/_guards.py CompileId.__str__: "!ca/frame/compile", "!ca" or "frame/compile";
  // TraceId.__str__ adds "_attempt" when attempt > 0.
  void SetIds(int frame, int compile, int ca, int attempt) {
    base_id.clear();
    if (ca >= 0) {
      base_id = frame >= 0 && compile >= 0 ? fmt::format("!{}/{}/{}", ca, frame, compile) : fmt::format("!{}", ca);
    } else if (frame >= 0 && compile >= 0) {
      base_id = fmt::format("{}/{}", frame, compile);
    }
    compile_id = !base_id.empty() && attempt > 0 ? fmt::format("{}_{}", base_id, attempt) : base_id;
  }

  // A log is one rank's; a record of another rank is reported once.
  void NoteRank(const nlohmann::json& envelope, size_t at) {
    int64_t rank = IntOr(envelope, "rank", -1);
    if (rank < 0) return;
    if (log.rank < 0) {
      log.rank = static_cast<int>(rank);
    } else if (log.rank != rank && !mixed_ranks_reported) {
      Problem(at, fmt::format("a record of rank {} in a log of rank {}", rank, log.rank));
      mixed_ranks_reported = true;
    }
  }

  // Open "B" events per compile id: (name, ts, line, phases index placeholder).
  struct OpenPhase {
    std::string name;
    double ts = 0;
    size_t line = 0;
  };
  std::map<std::string, std::vector<OpenPhase>, std::less<>> open_phases;
  static constexpr size_t kMaxPhases = 1000000;

  void Phase(std::string_view payload) {
    ChromiumEvent event;
    // SAX: no DOM for the most frequent record of a log (nlohmann's parser still checks the JSON,
    // and keeps its own stack of open brackets: a deep payload cannot overflow ours).
    if (!nlohmann::json::sax_parse(payload, &event) || !event.has_ts) {
      return;
    }
    const std::string& name = event.name;
    const std::string& ph = event.ph;
    double ts = event.ts;
    const std::string& id = event.compile_id;
    if (name.empty() || id.empty() || id == "None" || log.phases.size() >= kMaxPhases)
      return;  // compile_file: no compile
    std::vector<OpenPhase>& stack = open_phases[id];
    if (ph == "B") {
      stack.push_back({name, ts, line});
    } else if (ph == "E") {
      auto it = std::find_if(stack.rbegin(), stack.rend(), [&name](const OpenPhase& p) { return p.name == name; });
      if (it == stack.rend()) {
        ++log.unmatched_phase_events;
        return;
      }
      size_t depth = static_cast<size_t>(stack.rend() - it) - 1;
      log.phases.push_back({id, name, it->ts, (ts - it->ts) / 1e6, static_cast<int>(depth), it->line});
      log.unmatched_phase_events += static_cast<size_t>(it - stack.rbegin());  // inner ones never closed
      stack.erase(std::next(it).base(), stack.end());
    } else if (ph == "X" && event.has_dur) {
      log.phases.push_back({id, name, ts, event.dur / 1e6, static_cast<int>(stack.size()), line});
    }
  }

  void FinishPhases() {
    for (const auto& [id, stack] : open_phases) log.unmatched_phase_events += stack.size();
    std::stable_sort(log.phases.begin(), log.phases.end(),
                     [](const TracePhase& a, const TracePhase& b) { return a.start_us < b.start_us; });
  }

  void Record(std::string_view json_text, size_t at) {
    std::string_view key = FirstKey(json_text);
    nlohmann::json envelope = ParseBoundedJson(json_text);
    if (envelope.is_discarded() || !envelope.is_object() || key.empty()) {
      Problem(at, "broken JSON envelope: the record was skipped");
      open = true;  // swallow its payload lines, unchecked
      kind = "";
      expected_md5 = "";
      payload.clear();
      return;
    }
    ++log.records;
    kind = std::string(key);
    artifact.clear();
    output_file.clear();
    line = at;
    int attempt = static_cast<int>(IntOr(envelope, "attempt", 0));
    Envelope e{envelope[kind], static_cast<int>(IntOr(envelope, "frame_id", -1)),
               static_cast<int>(IntOr(envelope, "frame_compile_id", -1)),
               static_cast<int>(IntOr(envelope, "compiled_autograd_id", -1)), at};
    SetIds(e.frame, e.compile, e.ca, attempt);
    NoteRank(envelope, at);
    for (const KindHandler& h : kHandlers) {
      if (h.kind == kind) {
        (this->*h.handle)(e);
        break;
      }
    }
    if (!base_id.empty()) {
      auto it = compile_index.find(base_id);
      if (it != compile_index.end()) {
        TraceCompile& c = log.compiles[it->second];
        c.attempts = std::max(c.attempts, attempt + 1);
      }
    }
    expected_md5 = StringOr(envelope, "has_payload");
    payload.clear();
    payload_lines = 0;
    blank_noted = false;
    open = !expected_md5.empty();
  }
};

TraceLogReader::TraceLogReader(std::string path) : state_(std::make_unique<State>()) {
  state_->log.path = std::move(path);
}
TraceLogReader::~TraceLogReader() = default;

void TraceLogReader::AddLine(std::string_view line) {
  State& s = *state_;
  size_t at = ++s.log.lines;
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  if (!line.empty() && line[0] == '\t') {
    if (!s.open) {
      if (!s.orphan_reported) s.Problem(at, "payload line (starts with a TAB) without a record that has a payload");
      s.orphan_reported = true;
      return;
    }
    if (s.expected_md5.empty()) return;  // the payload of a broken record
    if (s.blank_lines > 0) {
      if (!s.blank_noted) {
        s.Problem(at - s.blank_lines,
                  fmt::format("empty line inside the {} payload of line {}, read as an empty payload line (torch "
                              "writes a TAB on each: the file was edited, e.g. its trailing blanks stripped)",
                              s.kind, s.line));
      }
      s.blank_noted = true;
      for (; s.blank_lines > 0; --s.blank_lines) s.AppendPayloadLine("");
    }
    s.AppendPayloadLine(line.substr(1));
    return;
  }
  if (line.empty() && s.open && !s.expected_md5.empty()) {
    ++s.blank_lines;
    return;
  }
  s.blank_lines = 0;
  s.CloseRecord();
  s.orphan_reported = false;
  if (line.empty()) return;
  size_t start = JsonStart(line);
  if (start == std::string_view::npos || start >= line.size() || line[start] != '{') {
    s.Problem(at, "not a TORCH_TRACE record (expected a glog prefix and a JSON object)");
    return;
  }
  s.Record(line.substr(start), at);
}

TraceLog TraceLogReader::Finish() {
  state_->CloseRecord();
  state_->FinishPhases();
  return std::move(state_->log);
}

std::string DescribeGuardAdded(const TraceGuardAdded& guard) {
  std::string text = fmt::format("{} (line {})", guard.expr, guard.line);
  if (!guard.user_frame.empty()) text += " at " + guard.user_frame;
  if (!guard.code.empty()) text += ", code: " + guard.code;
  if (!guard.symbol_sources.empty()) text += fmt::format(" ({})", fmt::join(guard.symbol_sources, ", "));
  return text;
}

std::string DescribeExport(const TraceExport& exported, std::string_view detail) {
  return fmt::format("torch.export's program (line {}): {}range constraints {}", exported.line, detail,
                     exported.range_constraints.empty() ? "not logged" : exported.range_constraints);
}

TraceLog ParseTraceLog(std::string_view content, std::string path) {
  TraceLogReader reader(std::move(path));
  ForEachLine(content, [&reader](std::string_view line) { reader.AddLine(line); });
  return reader.Finish();
}

Result<TraceLog> LoadTraceLogFile(const std::string& path, uint64_t max_bytes) {
  TraceLogReader reader(path);
  Status status = ReadFileLines(path, max_bytes, [&reader](std::string_view line) { reader.AddLine(line); });
  if (!status.ok()) return status;
  return reader.Finish();
}

}  // namespace airscope

#include "repl/call_history.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <map>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "repl/cache_state.h"
#include "repl/tokenizer.h"

namespace airscope {
namespace {

constexpr int64_t kUnnamedDimSize = 8;  // a dim the log never names: one size in every call

// The frame a compile id belongs to: "0/3" -> "0"; "" when it is no compile id.
std::string FrameOfId(std::string_view id) {
  if (id.starts_with('!')) return "";  // compiled autograd: no frame of the user's
  size_t slash = id.find('/');
  return slash == std::string_view::npos ? "" : std::string(id.substr(0, slash));
}

// "0/3_1" -> 3; -1 when it is none.
int64_t CompileOfId(std::string_view id) {
  size_t slash = id.find('/');
  if (slash == std::string_view::npos) return -1;
  int64_t value = -1;
  std::string_view rest = id.substr(slash + 1);
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
  return ec == std::errc() ? value : -1;
}

// "cache_size_limit (8)" -> 8.
std::optional<size_t> LimitValue(std::string_view limit) {
  size_t open = limit.find('(');
  if (open == std::string_view::npos) return std::nullopt;
  size_t value = 0;
  std::string_view rest = limit.substr(open + 1);
  auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), value);
  if (ec != std::errc()) return std::nullopt;
  return value;
}

// "'fn' (/path/playground.py:5)" -> "fn".
std::string QuotedFunction(std::string_view function) {
  if (function.size() > 1 && function.front() == '\'') {
    size_t close = function.find('\'', 1);
    if (close != std::string_view::npos) return std::string(function.substr(1, close - 1));
  }
  return std::string(function);
}

// One message of the frame, in log order: a recompile (a call that missed
// every entry) or a cache-limit warning (a call that ran eager).
struct Event {
  size_t line = 0;
  std::string id;  // the compile id the log put on it
  bool is_limit = false;
  bool raised = false;  // FailOnRecompileLimitHit followed the warning (fullgraph=True)
  size_t limit = 0;     // the recompile limit the warning prints (0: it prints none)
  std::vector<GuardFailure> failures;
};

// A slot: one value a call passes that a guard can see. Tensor sizes are
// (input, dim); scalars and pseudo inputs (input, -1).
using Slot = std::pair<std::string, int64_t>;

struct Value {
  std::string text;
  bool assumed = false;
};

std::string PseudoPrefix(GuardFailure::Kind kind) {
  switch (kind) {
    case GuardFailure::Kind::kObjectId: return "id";
    case GuardFailure::Kind::kTypeId: return "type";
    case GuardFailure::Kind::kGlobalState: return "state";
    case GuardFailure::Kind::kLength: return "len";
    case GuardFailure::Kind::kDtype: return "dtype";
    case GuardFailure::Kind::kDevice: return "device";
    case GuardFailure::Kind::kRequiresGrad: return "grad";
    case GuardFailure::Kind::kRank: return "rank";
    case GuardFailure::Kind::kNotTensor: return "kind";
    case GuardFailure::Kind::kStride: return "stride";
    case GuardFailure::Kind::kSize: return "size";  // a parameter's
    default: return "v";
  }
}

// A pseudo input's value: a str constant, quoted as the shell passes one to `call` ("'id1405...'").
std::string PseudoWord(std::string_view text) { return fmt::format("\"'{}'\"", text); }
std::string PseudoValue(GuardFailure::Kind kind, std::string_view printed) {
  std::string value = PseudoPrefix(kind);
  for (char c : printed) value += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return PseudoWord(value);
}

// Replayed as a str constant: every class but a size or a constant, and a
// parameter's size (Dynamo keeps parameters static, see call_history.h).
bool IsPseudo(const GuardFailure& f) {
  return (f.kind != GuardFailure::Kind::kSize && f.kind != GuardFailure::Kind::kConstant) || f.parameter;
}

// The input a failure is about, and its slot.
Slot SlotOf(const GuardFailure& f) {
  if (f.kind == GuardFailure::Kind::kSize && f.parameter) {
    return {fmt::format("{}_size{}", SourceInputName(f.source), f.dim), -1};
  }
  if (f.kind == GuardFailure::Kind::kSize) return {SourceInputName(f.source), f.dim};
  if (f.kind == GuardFailure::Kind::kConstant) return {SourceInputName(f.source), -1};
  std::string base = f.source.empty() ? std::string("global") : SourceInputName(f.source);
  return {fmt::format("{}_{}", base, PseudoPrefix(f.kind)), -1};
}

std::string EntryValue(const GuardFailure& f) { return IsPseudo(f) ? PseudoValue(f.kind, f.expected) : f.expected; }

std::optional<std::string> CallValue(const GuardFailure& f) {
  if (!f.actual) return std::nullopt;
  return IsPseudo(f) ? PseudoValue(f.kind, *f.actual) : *f.actual;
}

bool IsIntText(std::string_view text) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  return ec == std::errc() && end == text.data() + text.size();
}

// A value no known call of the slot has: the smallest integer >= 2 unused,
// a float past the largest, True/False's other, or a new word.
std::string FreshValue(const HistoryInput& input, const std::set<std::string>& used) {
  if (input.kind == HistoryInput::Kind::kPseudo) {
    for (int n = 1;; ++n) {
      std::string v = PseudoWord(fmt::format("{}_new{}", PseudoPrefix(input.guard), n));
      if (!used.count(v)) return v;
    }
  }
  bool all_int = std::all_of(used.begin(), used.end(), [](const std::string& v) { return IsIntText(v); });
  if (all_int) {
    for (int64_t n = 2;; ++n) {
      std::string v = fmt::format("{}", n);
      if (!used.count(v)) return v;
    }
  }
  if (used.count("True") || used.count("False")) return used.count("True") ? "False" : "True";
  double largest = 0;
  for (const std::string& v : used) {
    double d = 0;
    auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), d);
    if (ec == std::errc()) largest = std::max(largest, d);
  }
  for (double d = std::floor(largest) + 1.5;; d += 1.0) {
    std::string v = fmt::format("{}", d);
    if (!used.count(v)) return v;
  }
}

std::string SlotName(const Slot& slot) {
  return slot.second < 0 ? slot.first : fmt::format("{}.size({})", slot.first, slot.second);
}

// The messages of a log, per frame, in log order: what a TORCH_LOGS text or
// a TORCH_TRACE log says of recompiles, whichever it is.
struct FrameEvents {
  // Dynamo's `create_symbol s0 = 3 for L['x'].size()[0] ...` (TORCH_LOGS=dynamic) in compile F/K:
  // entry K was compiled for a call whose x.size(0) was 3, and that dim varied.
  struct Symbol {
    std::string frame;
    size_t entry = 0;
    std::string input;
    int64_t dim = 0;
    std::string value;
  };
  std::vector<Symbol> symbols;
  std::map<std::string, std::vector<Event>> frames;
  std::vector<std::string> order;
  std::map<std::string, std::string> function_of;

  // The frame is the compile id's F; a log without ids: the failures' ids, else the function.
  void Add(Event event, const std::string& function_name, const std::string& function) {
    std::string frame = FrameOfId(event.id);
    for (const GuardFailure& f : event.failures) {
      if (frame.empty()) frame = FrameOfId(f.entry);
    }
    if (frame.empty()) frame = function_name;
    if (!frames.count(frame)) order.push_back(frame);
    if (!function.empty() && function_of[frame].empty()) function_of[frame] = function;
    frames[frame].push_back(std::move(event));
  }
};

Result<CallHistory> Reconstruct(FrameEvents log, const std::string& origin, const std::string& path,
                                const std::string& wanted_frame);

}  // namespace

Result<CallHistory> HistoryFromLogs(const TorchLogs& logs, const std::string& wanted_frame) {
  FrameEvents log;
  for (const TorchLogsRecompile& r : logs.recompiles) {
    Event event;
    event.line = r.line;
    event.id = r.id;
    for (const std::string& line : r.failures) event.failures.push_back(ParseGuardFailure(line));
    log.Add(std::move(event), r.function,
            r.location.empty() ? r.function : fmt::format("{} in {}", r.function, r.location));
  }
  for (const TorchLogsSymbol& sym : logs.symbols) {
    size_t size_at = sym.source.find(".size()[");
    int64_t entry = CompileOfId(sym.id);
    if (size_at == std::string::npos || entry < 0 || FrameOfId(sym.id).empty()) continue;
    int64_t dim = -1;
    std::string_view rest = std::string_view(sym.source).substr(size_at + 8);
    std::from_chars(rest.data(), rest.data() + rest.size(), dim);
    if (dim < 0 || !IsIntText(sym.value)) continue;
    log.symbols.push_back({FrameOfId(sym.id), static_cast<size_t>(entry),
                           SourceInputName(sym.source.substr(0, size_at)), dim, sym.value});
  }
  for (size_t i = 0; i < logs.cache_limits.size(); ++i) {
    const TorchLogsCacheLimit& c = logs.cache_limits[i];
    Event event;
    event.line = c.line;
    // The exception, when it comes before the next warning, is this call's.
    size_t next = i + 1 < logs.cache_limits.size() ? logs.cache_limits[i + 1].line : SIZE_MAX;
    for (size_t raised : logs.limit_raised_lines) event.raised = event.raised || (raised > c.line && raised < next);
    event.id = c.id;
    event.limit = LimitValue(c.limit).value_or(0);
    event.is_limit = true;
    if (!c.last_reason.empty()) event.failures.push_back(ParseGuardFailure(c.last_reason));
    std::string name = QuotedFunction(c.function);
    log.Add(std::move(event), name, c.function.empty() ? "" : name + c.function.substr(name.size() + 2));
  }
  return Reconstruct(std::move(log), fmt::format("TORCH_LOGS text {}", logs.path), logs.path, wanted_frame);
}

Result<CallHistory> HistoryFromTrace(const TraceLog& trace, const std::string& wanted_frame) {
  // recompile_reasons records (guards.py): the failures, with the compile they start as the record's id.
  FrameEvents log;
  for (const TraceRecompile& r : trace.recompiles) {
    Event event;
    event.line = r.line;
    event.id = r.compile_id;
    for (const std::string& line : r.reasons) event.failures.push_back(ParseGuardFailure(line));
    log.Add(std::move(event), "", "");
  }
  return Reconstruct(std::move(log), fmt::format("TORCH_TRACE log {}", trace.path), trace.path, wanted_frame);
}

namespace {

Result<CallHistory> Reconstruct(FrameEvents log, const std::string& origin, const std::string& path,
                                const std::string& wanted_frame) {
  auto& frames = log.frames;
  const std::vector<std::string>& frame_order = log.order;
  if (frames.empty()) {
    return Status::Errorf(
        "{}: no recompile message or cache-limit warning: nothing to replay (run with TORCH_LOGS=recompiles)", path);
  }
  // Log order within each frame (recompiles were added before limits).
  for (auto& [frame, events] : frames) {
    std::stable_sort(events.begin(), events.end(), [](const Event& a, const Event& b) { return a.line < b.line; });
  }
  std::string frame = wanted_frame;
  if (frame.empty()) {
    size_t most = 0;
    for (const std::string& f : frame_order) {
      if (frames[f].size() > most) {
        most = frames[f].size();
        frame = f;
      }
    }
  } else if (!frames.count(frame)) {
    return Status::Errorf("{}: no frame '{}' in the log (its frames: {})", path, frame, fmt::join(frame_order, ", "));
  }
  CallHistory h;
  h.origin = origin;
  h.frame = frame;
  h.function = log.function_of[frame].empty() ? "a function the log does not name" : log.function_of[frame];
  h.from_log = true;
  for (const std::string& f : frame_order) {
    if (f != frame) h.other_frames.push_back(fmt::format("{} ({} messages)", f, frames[f].size()));
  }
  std::vector<Event>& events = frames[frame];

  // The recompile limit, and failures without a compile id (logs before
  // torch 2.4): Dynamo lists entries newest first.
  for (Event& e : events) {
    if (e.is_limit && e.limit > 0) h.logged_limit = e.limit;
    bool unnumbered = false;
    for (size_t i = 0; i < e.failures.size(); ++i) {
      if (e.failures[i].entry.empty() && !e.is_limit) {
        e.failures[i].entry = fmt::format("{}/{}", frame, e.failures.size() - 1 - i);
        unnumbered = true;
      }
    }
    if (unnumbered) {
      h.assumptions.push_back(fmt::format(
          "log line {}: the failures carry no compile ids; they are taken as Dynamo lists them, newest entry first",
          e.line));
    }
  }

  // A source torch calls a parameter on any of its failures is one on all of them.
  std::set<std::string> parameters;
  for (const Event& e : events) {
    for (const GuardFailure& f : e.failures) {
      if (f.parameter) parameters.insert(f.source);
    }
  }
  for (Event& e : events) {
    for (GuardFailure& f : e.failures) f.parameter = f.kind == GuardFailure::Kind::kSize && parameters.count(f.source);
  }

  // Inputs, from every failure of the frame; and the guards no setting fixes.
  std::map<std::string, HistoryInput> inputs;
  std::vector<std::string> input_order;
  std::map<std::pair<int, std::string>, size_t> unfixable_index;
  for (const Event& e : events) {
    for (const GuardFailure& f : e.failures) {
      Slot slot = SlotOf(f);
      HistoryInput& in = inputs[slot.first];
      if (in.name.empty()) {
        input_order.push_back(slot.first);
        in.name = slot.first;
        in.source = f.source.empty() ? "___check_global_state()" : f.source;
        in.kind = IsPseudo(f)                               ? HistoryInput::Kind::kPseudo
                  : f.kind == GuardFailure::Kind::kConstant ? HistoryInput::Kind::kScalar
                                                            : HistoryInput::Kind::kTensor;
        in.guard = f.kind;
      }
      if (in.kind == HistoryInput::Kind::kTensor) in.rank = std::max(in.rank, static_cast<size_t>(f.dim + 1));
      if (IsPseudo(f)) {
        auto key = std::make_pair(static_cast<int>(f.kind), in.source);
        auto [it, added] = unfixable_index.emplace(key, h.unfixable.size());
        if (added) h.unfixable.push_back({f.kind, in.source, 0, f.reason, e.line, f.parameter});
        ++h.unfixable[it->second].failures;
      }
    }
  }

  // A dim a compile made a symbol of is a tensor input's dim that varied.
  for (const FrameEvents::Symbol& sym : log.symbols) {
    if (sym.frame != frame) continue;
    HistoryInput& in = inputs[sym.input];
    if (in.name.empty()) {
      input_order.push_back(sym.input);
      in.name = sym.input;
      in.source = sym.input;
      in.kind = HistoryInput::Kind::kTensor;
    }
    if (in.kind == HistoryInput::Kind::kTensor) in.rank = std::max(in.rank, static_cast<size_t>(sym.dim + 1));
  }

  if (input_order.empty()) {
    return Status::Errorf(
        "{}: the messages of frame {} print no guard failure (a cut `last reason`, or none): no call can be rebuilt "
        "to replay",
        path, frame);
  }

  // Entries and what their guards expect; the calls the events are.
  size_t entries = 0;
  std::map<size_t, std::map<Slot, std::string>> expected;  // entry -> slot -> value
  for (const Event& e : events) {
    for (const GuardFailure& f : e.failures) {
      if (FrameOfId(f.entry) != frame) continue;
      int64_t k = CompileOfId(f.entry);
      if (k < 0) continue;
      entries = std::max(entries, static_cast<size_t>(k + 1));
      expected[static_cast<size_t>(k)][SlotOf(f)] = EntryValue(f);
    }
  }
  for (const FrameEvents::Symbol& sym : log.symbols) {
    if (sym.frame != frame || inputs[sym.input].kind != HistoryInput::Kind::kTensor) continue;
    expected[sym.entry].emplace(Slot{sym.input, sym.dim}, sym.value);  // a failure's value wins
    entries = std::max(entries, sym.entry + 1);
  }
  struct Pending {
    std::optional<size_t> creates;  // the entry this call compiled; nullopt: it ran eager
    const Event* event = nullptr;   // the message it is (nullptr: an entry without one)
  };
  std::map<size_t, const Event*> creator;  // entry -> the recompile message that made it
  std::vector<const Event*> eager_events;
  const Event* last_eager = nullptr;
  std::set<const Event*> raised;  // the eager calls that raised FailOnRecompileLimitHit instead
  for (const Event& e : events) {
    if (e.is_limit) {
      // A warning right after an eager recompile message is that same call.
      if (last_eager && !last_eager->is_limit && (e.id.empty() || e.id == last_eager->id)) {
        if (e.raised) raised.insert(last_eager);
        last_eager = nullptr;
        continue;
      }
      if (e.raised) raised.insert(&e);
      eager_events.push_back(&e);
      continue;
    }
    size_t missed = e.failures.size();
    int64_t numbered = CompileOfId(e.id);
    size_t n = numbered >= 0 ? static_cast<size_t>(numbered) : missed;
    if (h.logged_limit && n >= *h.logged_limit) {
      eager_events.push_back(&e);
      last_eager = &e;
      continue;
    }
    last_eager = nullptr;
    creator[n] = &e;
    entries = std::max(entries, n + 1);
  }
  if (entries == 0) entries = 1;          // a limit line alone: at least entry 0 existed
  const size_t entries_in_log = entries;  // named by a compile id or a failure; the rest the limit implies
  if (h.logged_limit && entries < *h.logged_limit && !eager_events.empty()) {
    h.assumptions.push_back(fmt::format(
        "the log shows {} of the {} entries the recompile limit needs before a call runs eager; the calls of the "
        "others are assumed (a value no other call has where the log shows one varying)",
        entries, *h.logged_limit));
    entries = *h.logged_limit;
  }
  std::vector<Pending> order;
  for (size_t k = 0; k < entries; ++k) {
    auto it = creator.find(k);
    order.push_back({k, it == creator.end() ? nullptr : it->second});
  }
  for (const Event* e : eager_events) order.push_back({std::nullopt, e});

  // Every known value per slot, and which slots vary.
  std::map<Slot, std::set<std::string>> known;
  for (const auto& [k, slots] : expected) {
    for (const auto& [slot, v] : slots) known[slot].insert(v);
  }
  for (const Event& e : events) {
    for (const GuardFailure& f : e.failures) {
      if (std::optional<std::string> v = CallValue(f)) known[SlotOf(f)].insert(*v);
    }
  }
  std::set<Slot> varying;
  for (const Event& e : events) {
    for (const GuardFailure& f : e.failures) varying.insert(SlotOf(f));
  }
  for (const FrameEvents::Symbol& sym : log.symbols) {
    if (sym.frame == frame) varying.insert({sym.input, sym.dim});
  }
  std::vector<Slot> slots;
  for (const std::string& name : input_order) {
    const HistoryInput& in = inputs[name];
    if (in.kind != HistoryInput::Kind::kTensor) {
      slots.push_back({name, -1});
      continue;
    }
    for (size_t d = 0; d < in.rank; ++d) slots.push_back({name, static_cast<int64_t>(d)});
  }
  std::map<Slot, std::set<std::string>> used = known;
  std::map<Slot, std::string> last;  // the previous call's value
  for (const Pending& p : order) {
    std::map<Slot, Value> values;
    const std::map<Slot, std::string>* entry_values =
        p.creates && expected.count(*p.creates) ? &expected[*p.creates] : nullptr;
    std::set<Slot> failed_here;
    if (p.event) {
      for (const GuardFailure& f : p.event->failures) {
        Slot slot = SlotOf(f);
        failed_here.insert(slot);
        if (std::optional<std::string> v = CallValue(f)) values[slot] = {*v, false};
      }
    }
    for (const Slot& slot : slots) {
      if (entry_values) {
        auto it = entry_values->find(slot);
        if (it != entry_values->end()) {
          values[slot] = {it->second, false};
          continue;
        }
      }
      if (values.count(slot)) continue;
      const HistoryInput& in = inputs[slot.first];
      // A call that compiled an entry differed from every entry before it: a
      // varying slot gets a value of its own. An eager call differs where its
      // failures say so. Anything else is assumed unchanged.
      bool differs = varying.count(slot) && (p.creates ? *p.creates > 0 : failed_here.count(slot) > 0);
      if (!varying.count(slot) && in.kind == HistoryInput::Kind::kTensor) {
        values[slot] = {fmt::format("{}", kUnnamedDimSize), true};
      } else if (differs || !last.count(slot)) {
        std::string v = FreshValue(in, used[slot]);
        used[slot].insert(v);
        values[slot] = {v, true};
      } else {
        values[slot] = {last[slot], true};
      }
    }
    HistoryCall call;
    call.eager = !p.creates.has_value();
    call.observed = p.creates ? fmt::format("compiled {}/{}", frame, *p.creates)
                    : raised.count(p.event)
                        ? "raised FailOnRecompileLimitHit (fullgraph=True; replayed as an eager call)"
                        : "ran eager (recompile limit)";
    call.evidence =
        p.event ? fmt::format("log line {}", p.event->line)
                : fmt::format("no message in the log: entry {}/{} is known from later failures", frame, *p.creates);
    if (!p.event && p.creates && !expected.count(*p.creates)) {
      call.evidence = *p.creates < entries_in_log
                          ? fmt::format("not in the log: a later compile id says entry {}/{} exists", frame, *p.creates)
                          : std::string("not in the log: assumed from the recompile limit");
    }
    std::vector<std::string> words;
    for (const std::string& name : input_order) {
      const HistoryInput& in = inputs[name];
      if (in.kind == HistoryInput::Kind::kTensor) {
        std::vector<std::string> dims;
        for (size_t d = 0; d < in.rank; ++d) {
          const Value& v = values[{name, static_cast<int64_t>(d)}];
          dims.push_back(v.text);
          if (v.assumed && varying.count({name, static_cast<int64_t>(d)})) {
            call.assumed.push_back(fmt::format("{}={}", SlotName({name, static_cast<int64_t>(d)}), v.text));
          }
        }
        words.push_back(fmt::format("{}=f32[{}]", name, fmt::join(dims, ",")));
      } else {
        const Value& v = values[{name, -1}];
        words.push_back(fmt::format("{}={}", name, v.text));
        if (v.assumed) call.assumed.push_back(fmt::format("{}={}", name, v.text));
      }
    }
    for (const auto& [slot, v] : values) last[slot] = v.text;
    call.spec = fmt::format("{}", fmt::join(words, " "));
    h.calls.push_back(std::move(call));
  }
  for (const std::string& name : input_order) h.inputs.push_back(inputs[name]);
  h.logged_compiles = entries;
  h.logged_eager = eager_events.size();
  bool unnamed = false;
  for (const HistoryInput& in : h.inputs) {
    for (size_t d = 0; in.kind == HistoryInput::Kind::kTensor && d < in.rank; ++d) {
      unnamed = unnamed || !varying.count({in.name, static_cast<int64_t>(d)});
    }
  }
  if (unnamed) {
    h.assumptions.push_back(fmt::format(
        "a tensor's rank is its highest dim the log names + 1, its dtype float32; a dim the log never names "
        "is {} in every call",
        kUnnamedDimSize));
  }
  if (!raised.empty()) {
    h.assumptions.push_back(
        "with fullgraph=True a call past the recompile limit raises FailOnRecompileLimitHit instead of running "
        "eager; airscope's cache runs it eager, so the replay counts it as an eager call");
  }
  if (!eager_events.empty()) {
    h.assumptions.push_back(
        "Dynamo warns once when the recompile limit is hit: each warning is one eager call here, though more "
        "calls may have run eager after it");
  }
  return h;
}

}  // namespace

Result<CallHistory> HistoryFromSession(const CacheState& state, const std::string& graph_name) {
  if (state.calls.empty() || !state.frame) {
    return Status::Errorf("'{}' has no calls in this session to replay (make some with `call`)", graph_name);
  }
  CallHistory h;
  h.origin = fmt::format("this session's calls of '{}'", graph_name);
  h.frame = fmt::format("{}", state.frame->frame_id());
  h.function = fmt::format("{} in {}", state.frame->function(), state.frame->file());
  h.graph_name = graph_name;
  h.setup = state.setup;
  for (const CacheState::CallRecord& r : state.calls) {
    HistoryCall call;
    call.spec = r.spec;
    call.observed = r.compile_id.empty() ? r.outcome : fmt::format("{} {}", r.outcome, r.compile_id);
    call.evidence = fmt::format("call {}", r.number);
    call.eager = r.outcome == "eager";
    h.calls.push_back(std::move(call));
  }
  if (state.frame->calls() > state.calls.size()) {
    h.assumptions.push_back(fmt::format("only the newest {} of the frame's {} calls are kept: the replay starts there",
                                        state.calls.size(), state.frame->calls()));
  }
  h.logged_compiles = state.frame->entries().size();
  h.logged_eager = state.frame->eager_calls();
  size_t captures = 0;
  for (const CacheState::EntryRuntime& runtime : state.runtimes) {
    if (!runtime.graph) continue;
    h.logged_eager += runtime.graph->stats().eager_runs;
    captures += runtime.graph->stats().captures;
  }
  h.logged_captures = captures;
  return h;
}

std::string HistoryGraphText(const CallHistory& history) {
  // The first call's sizes annotate the placeholders: `x=f32[3,8]` -> `x: "f32[3, 8]"`.
  std::map<std::string, std::string> annotation;
  Result<std::vector<Word>> words =
      history.calls.empty() ? Result<std::vector<Word>>(std::vector<Word>{}) : Tokenize(history.calls.front().spec);
  for (const Word& word : words.ok() ? *words : std::vector<Word>{}) {
    if (size_t eq = word.text.find('='); eq != std::string::npos) {
      std::string spaced;
      for (char c : word.text.substr(eq + 1)) spaced += c == ',' ? std::string(", ") : std::string(1, c);
      annotation[word.text.substr(0, eq)] = std::move(spaced);
    }
  }
  std::vector<std::string> params, body, outs;
  for (const HistoryInput& in : history.inputs) {
    if (in.kind != HistoryInput::Kind::kTensor) {
      params.push_back(in.name);  // a Python scalar or a pseudo input: no annotation
      continue;
    }
    const std::string& shape = annotation[in.name];
    params.push_back(fmt::format("{}: \"{}\"", in.name, shape));
    // One op per tensor so the compile has a graph to lower; the guards are what the replay exercises.
    body.push_back(
        fmt::format("        clone_{}: \"{}\" = torch.ops.aten.clone.default({})\n", in.name, shape, in.name));
    outs.push_back(fmt::format("clone_{}", in.name));
  }
  std::string text = "class GraphModule(torch.nn.Module):\n";
  text += fmt::format("    def forward(self{}{}):\n", params.empty() ? "" : ", ", fmt::join(params, ", "));
  for (const std::string& line : body) text += line;
  text += fmt::format("        return ({}{})\n", fmt::join(outs, ", "), outs.size() == 1 ? "," : "");
  text += fmt::format(
      "\n# The graph airscope replays the calls of frame {} on ({}): the log holds no graph for it, only\n"
      "# its guard failures, so every input is a placeholder and each tensor is cloned once. What the replay\n"
      "# exercises is Dynamo's guards, not this graph's kernels.\n",
      history.frame, history.function);
  return text;
}

}  // namespace airscope

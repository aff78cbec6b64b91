#include "repl/advise.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/dynamo/call_spec.h"
#include "core/interrupt.h"
#include "repl/cache_state.h"
#include "repl/graph_loader.h"
#include "repl/tokenizer.h"

namespace airscope {
namespace {

// A call's words as the shell reads them (the quotes of a str constant taken off).
std::vector<Word> SpecWords(std::string_view spec) {
  Result<std::vector<Word>> words = Tokenize(spec);
  return words.ok() ? *std::move(words) : std::vector<Word>{};
}

// Runs lines against one graph of the session with the graph's compile
// cache set aside, the settings copied and a fresh device of the same
// spec; everything is put back when it goes out of scope (advise.h).
class ReplaySandbox {
 public:
  ReplaySandbox(Interpreter& interpreter, std::string graph) : interpreter_(interpreter), graph_(std::move(graph)) {
    Session& session = interpreter_.session();
    const Session::Entry* current = session.current();
    previous_ = current ? current->name : "";
  }

  Result<ReplayCounts> Run(const std::vector<std::string>& setup, const std::vector<std::string>& calls) {
    Session& session = interpreter_.session();
    if (!session.Find(graph_)) return Status::Errorf("advise: the graph '{}' is gone", graph_);
    const Settings settings = session.settings();
    DeviceState device = std::move(session.device());
    session.device() = DeviceState();
    session.device().sim = SimDevice(device.sim.spec());
    session.device().stream_limits = device.stream_limits;
    // Every graph's compile cache is set aside, not only this one's: their
    // AclGraphs hold the set-aside device's buffers and captured graphs. The
    // logs a graph was loaded with stay (they are what it is).
    std::vector<std::pair<std::string, std::shared_ptr<CacheState>>> set_aside;
    std::vector<std::string> names;
    for (const Session::Entry& e : session.graphs()) names.push_back(e.name);
    for (const std::string& name : names) {
      // A name the session just listed: Use cannot fail, and nothing here may return early (the device is out).
      Result<Session::Entry*> current = session.Use(name).ok() ? session.Current() : Status::Error("gone");
      if (!current.ok()) continue;
      Session::Entry* entry = *current;
      std::shared_ptr<CacheState> cache = std::move(entry->cache);
      entry->cache = OnlyTheLogs(cache.get());
      set_aside.emplace_back(name, std::move(cache));
    }
    (void)session.Use(graph_);  // found above
    ReplayCounts counts;
    Status interrupted = Status::Ok();
    auto run = [&](const std::string& line, std::string_view what) {
      if (!counts.error.empty()) return;
      if (InterruptRequested()) {
        interrupted = InterruptedStatus();
        counts.error = "interrupted";
        return;
      }
      CommandOutput out;
      Status status = interpreter_.ExecuteCaptured(line, &out);
      if (!status.ok()) counts.error = fmt::format("{}: {}", what, status.message());
    };
    for (const std::string& line : setup) run(line, line);
    for (size_t i = 0; i < calls.size(); ++i) {
      run("call " + calls[i], fmt::format("call {}", i + 1));
      if (counts.error.empty()) counts.calls = i + 1;
    }
    // The counts, from the cache the lines made.
    if (const Session::Entry* after = session.Find(graph_); after && after->cache && after->cache->frame) {
      const CacheState& state = *after->cache;
      counts.compiles = state.frame->entries().size();
      counts.dynamo_eager = state.frame->eager_calls();
      for (const auto& e : state.frame->entries()) {
        for (const TensorGuard& t : e->guards.tensors()) {
          for (const DimGuard& d : t.sizes) counts.symbolic_dims += d.kind != DimKind::kStatic;
          counts.symbolic_dims += t.scalar && t.scalar->symbolic;
        }
      }
      for (const CacheState::EntryRuntime& r : state.runtimes) {
        if (!r.graph) continue;
        const AclGraphStats& s = r.graph->stats();
        counts.captures += s.captures;
        counts.recaptures += s.recaptures();
        counts.replays += s.replays;
        counts.aclgraph_eager += s.eager_runs;
        for (const GraphMeta& m : r.graph->graphs_meta()) {
          counts.key_captures.emplace_back(m.key, static_cast<size_t>(m.capture));
        }
      }
    }
    // Put everything back (the sandbox's caches and device go).
    for (auto& [name, cache] : set_aside) {
      if (!session.Use(name).ok()) continue;
      if (Result<Session::Entry*> back = session.Current(); back.ok()) (*back)->cache = std::move(cache);
    }
    session.settings() = settings;
    session.device() = std::move(device);
    if (!previous_.empty()) (void)session.Use(previous_);
    if (!interrupted.ok()) return interrupted;
    return counts;
  }

 private:
  Interpreter& interpreter_;
  std::string graph_;
  std::string previous_;
};

// What varies between the calls: sizes per (input, dim), float constants.
struct Variation {
  std::vector<std::pair<std::string, size_t>> dims;  // in input order
  std::map<std::pair<std::string, size_t>, std::set<int64_t>> sizes;
  std::vector<std::string> floats;  // float constants that change
};

Variation FindVariation(const std::vector<std::string>& calls) {
  Variation v;
  std::map<std::pair<std::string, size_t>, std::set<int64_t>> sizes;
  std::vector<std::pair<std::string, size_t>> order;
  std::map<std::string, std::set<std::string>> floats;
  std::vector<std::string> float_order;
  for (const std::string& call : calls) {
    std::vector<Word> words = SpecWords(call);
    std::vector<SpecToken> tokens;
    for (const Word& w : words) tokens.push_back({w.text, w.column});
    Result<CallSpec> spec = ParseCall(tokens);
    if (!spec.ok()) continue;
    for (const CallInput& in : spec->inputs) {
      if (in.scalar) {
        if (in.scalar->type != PyScalar::Type::kFloat) continue;
        if (!floats.count(in.name)) float_order.push_back(in.name);
        floats[in.name].insert(in.scalar->repr);
        continue;
      }
      for (size_t d = 0; d < in.sizes.size(); ++d) {
        auto key = std::make_pair(in.name, d);
        if (!sizes.count(key)) order.push_back(key);
        sizes[key].insert(in.sizes[d]);
      }
    }
  }
  for (const auto& key : order) {
    if (sizes[key].size() > 1) {
      v.dims.push_back(key);
      v.sizes[key] = sizes[key];
    }
  }
  for (const std::string& name : float_order) {
    if (floats[name].size() > 1) v.floats.push_back(name);
  }
  return v;
}

AdviseCandidate Lines(std::string name, std::vector<std::string> setup) {
  AdviseCandidate c;
  c.name = std::move(name);
  c.setup = std::move(setup);
  return c;
}

std::vector<AdviseCandidate> Candidates(const Variation& v, const Settings& settings, const ReplayCounts& base,
                                        AdviseScope scope) {
  std::vector<AdviseCandidate> out;
  bool recompiles = scope != AdviseScope::kCaptures;
  bool captures = scope != AdviseScope::kRecompiles && settings.CapturesAclGraphs();
  auto set = [](std::string_view name, auto value) { return fmt::format("set {} {}", name, value); };
  if (recompiles || captures) {
    std::vector<std::string> all;
    for (const auto& [input, dim] : v.dims) {
      std::string line = fmt::format("mark_dynamic {} {}", input, dim);
      out.push_back(Lines(line, {line}));
      all.push_back(line);
      std::vector<std::string> gears;
      for (int64_t s : v.sizes.at({input, dim})) gears.push_back(fmt::format("{}", s));
      std::string gear_line = fmt::format("gears {} {} {}", input, dim, fmt::join(gears, ","));
      out.push_back(Lines(gear_line, {gear_line}));
    }
    if (all.size() > 1) out.push_back(Lines(fmt::format("{}", fmt::join(all, "; ")), all));
    const std::string& dynamic = settings.Get("dynamic");
    if (dynamic != "true") out.push_back(Lines("set dynamic true", {set("dynamic", "true")}));
    if (dynamic == "false") out.push_back(Lines("set dynamic none", {set("dynamic", "none")}));
    for (const std::string& name : v.floats) {
      AdviseCandidate c;
      c.name = fmt::format("pass {} as a tensor", name);
      c.as_tensor = {{name, "f64[]:cpu"}};
      c.change = fmt::format("torch.tensor({}): a 0-dim tensor's value is no guard, a Python float's is", name);
      out.push_back(std::move(c));
    }
  }
  if (recompiles && base.dynamo_eager > 0) {
    size_t limit = base.compiles + base.dynamo_eager;
    AdviseCandidate c = Lines(set("cache_size_limit", limit), {set("cache_size_limit", limit)});
    c.limit_setting = "cache_size_limit";
    c.limit_counts = &ReplayCounts::compiles;
    out.push_back(std::move(c));
  }
  if (captures) {
    // The switches under the names of the package in force (the option table's).
    TorchAirConfig config = settings.TorchAir();
    if (base.aclgraph_eager > 0) {
      size_t limit = base.captures + base.aclgraph_eager;
      std::string name = OptionName(config, &TorchAirConfig::static_capture_size_limit);
      AdviseCandidate c = Lines(set(name, limit), {set(name, limit)});
      c.limit_setting = name;
      c.limit_counts = &ReplayCounts::captures;
      out.push_back(std::move(c));
    }
    for (bool TorchAirConfig::*field : {&TorchAirConfig::frozen_parameter, &TorchAirConfig::clone_input,
                                        &TorchAirConfig::disable_mempool_reuse_in_same_fx}) {
      std::string name = OptionName(config, field);
      std::string flipped = settings.Get(name) == "true" ? "false" : "true";
      out.push_back(Lines(set(name, flipped), {set(name, flipped)}));
    }
  }
  return out;
}

auto Score(const ReplayCounts& c) { return std::make_tuple(c.eager(), c.compiles, c.captures); }

// Fewer eager calls first (a call that ran no graph loses the most), then
// fewer compiles, then fewer captures; what a candidate costs on the later
// counts (a capture more to avoid an eager call) is shown, not hidden.
bool Better(const ReplayCounts& c, const ReplayCounts& base) { return c.error.empty() && Score(c) < Score(base); }

}  // namespace

std::vector<std::string> CandidateCalls(const CallHistory& history, const AdviseCandidate& candidate) {
  std::vector<std::string> calls;
  for (const HistoryCall& call : history.calls) {
    if (candidate.as_tensor.empty()) {
      calls.push_back(call.spec);
      continue;
    }
    std::vector<std::string> words;
    for (const Word& w : SpecWords(call.spec)) {
      std::string word = w.text;
      for (const auto& [input, spec] : candidate.as_tensor) {
        if (word.starts_with(input + "=")) word = fmt::format("{}={}", input, spec);
      }
      words.push_back(QuoteWord(word));
    }
    calls.push_back(fmt::format("{}", fmt::join(words, " ")));
  }
  return calls;
}

Result<AdviseResult> Advise(Interpreter& interpreter, CallHistory history, AdviseScope scope) {
  Session& session = interpreter.session();
  AdviseResult result;
  if (history.from_log) {
    // The log holds no graph for the frame: a graph of placeholders, registered next to the current one.
    const Session::Entry* current = session.current();
    std::string base = current ? current->name : "log";
    result.graph_name = base + "_history";
    result.graph_text = HistoryGraphText(history);
    AIRSCOPE_ASSIGN_OR_RETURN(LoadedGraph loaded,
                              LoadGraphText(result.graph_text, result.graph_name + ".readable.py", session.registry()));
    loaded.path = fmt::format("advise: the calls of frame {} in {}", history.frame, history.origin);
    bool replaced = false;
    session.AddGraph(result.graph_name, std::move(loaded), &replaced);
    if (current) (void)session.Use(base);
    history.graph_name = result.graph_name;
  } else {
    result.graph_name = history.graph_name;
  }
  const Settings defaults;
  for (const SettingSpec& spec : defaults.specs()) {
    const std::string& value = session.settings().Get(spec.name);
    if (value != spec.default_value) result.session_settings.push_back(fmt::format("set {} {}", spec.name, value));
  }
  std::vector<std::string> calls;
  for (const HistoryCall& c : history.calls) calls.push_back(c.spec);
  ReplaySandbox sandbox(interpreter, result.graph_name);

  // The baseline: the history as it happened.
  auto matches = [&history](const ReplayCounts& c) {
    return c.error.empty() && c.compiles == history.logged_compiles && c.eager() == history.logged_eager &&
           (!history.logged_captures || c.captures == *history.logged_captures);
  };
  if (history.from_log) {
    size_t limit = history.logged_limit.value_or(std::max<size_t>(8, history.logged_compiles));
    std::vector<std::string> defaults = {"set mode default", "set dynamic none",
                                         fmt::format("set cache_size_limit {}", limit)};
    AIRSCOPE_ASSIGN_OR_RETURN(ReplayCounts counts, sandbox.Run(defaults, calls));
    result.baseline = defaults;
    result.baseline_counts = counts;
    result.baseline_note =
        history.logged_limit
            ? fmt::format("airscope's defaults, with the log's recompile limit {}", limit)
            : fmt::format("airscope's defaults, with a recompile limit of {} (the log prints none)", limit);
    if (!matches(counts)) {
      std::vector<std::string> fixed = defaults;
      fixed[1] = "set dynamic false";
      AIRSCOPE_ASSIGN_OR_RETURN(ReplayCounts static_counts, sandbox.Run(fixed, calls));
      if (matches(static_counts)) {
        result.baseline_note = fmt::format(
            "`set dynamic false`: under Dynamo's defaults (dynamic=None) the replay {}; only with automatic dynamic "
            "off does it compile what the log shows (torch.compile(dynamic=False), "
            "automatic_dynamic_shapes=False, or a Dynamo of that time that specialized this kind of input)",
            counts.error.empty() ? fmt::format("compiles {} times, not {}", counts.compiles, history.logged_compiles)
                                 : fmt::format("fails ({})", counts.error));
        result.baseline = fixed;
        result.baseline_counts = static_counts;
      }
    }
  } else {
    result.baseline = history.setup;
    AIRSCOPE_ASSIGN_OR_RETURN(result.baseline_counts, sandbox.Run(history.setup, calls));
    result.baseline_note = "the session's settings and its mark_dynamic/gears lines";
  }
  result.baseline_matches = matches(result.baseline_counts);

  // The settings the candidates start from: the baseline's.
  Settings settings = session.settings();
  for (const std::string& line : result.baseline) {
    if (!line.starts_with("set ")) continue;
    size_t space = line.find(' ', 4);
    (void)settings.Set(line.substr(4, space - 4), line.substr(space + 1));
  }
  Variation variation = FindVariation(calls);
  for (AdviseCandidate& candidate : Candidates(variation, settings, result.baseline_counts, scope)) {
    // A line the baseline already runs is no candidate.
    bool known = !candidate.setup.empty() &&
                 std::all_of(candidate.setup.begin(), candidate.setup.end(), [&result](const std::string& line) {
                   return std::find(result.baseline.begin(), result.baseline.end(), line) != result.baseline.end();
                 });
    if (known) continue;
    std::vector<std::string> setup = result.baseline;
    for (const std::string& line : candidate.setup) setup.push_back(line);
    AIRSCOPE_ASSIGN_OR_RETURN(ReplayCounts counts, sandbox.Run(setup, CandidateCalls(history, candidate)));
    // A limit is first set to an upper bound; the smallest that does as well is the one to suggest:
    // the compiles (or captures) that replay made, when a replay at that limit makes the same counts.
    if (candidate.limit_counts && counts.error.empty()) {
      size_t tight = candidate.limit_counts == &ReplayCounts::compiles ? counts.compiles : counts.captures;
      AdviseCandidate tighter = candidate;
      tighter.setup.back() = fmt::format("set {} {}", candidate.limit_setting, tight);
      tighter.name = tighter.setup.back();
      std::vector<std::string> tight_setup = result.baseline;
      tight_setup.push_back(tighter.setup.back());
      AIRSCOPE_ASSIGN_OR_RETURN(ReplayCounts again, sandbox.Run(tight_setup, CandidateCalls(history, tighter)));
      if (again.error.empty() && Score(again) == Score(counts)) {
        candidate = std::move(tighter);
        counts = again;
      }
    }
    AdviseRow row{std::move(candidate), counts, false};
    row.better = Better(counts, result.baseline_counts);
    result.rows.push_back(std::move(row));
  }
  std::stable_sort(result.rows.begin(), result.rows.end(), [](const AdviseRow& a, const AdviseRow& b) {
    auto key = [](const AdviseRow& r) {
      return std::make_tuple(!r.better, !r.counts.error.empty(), r.counts.eager(), r.counts.compiles, r.counts.captures,
                             r.candidate.setup.size() + r.candidate.as_tensor.size());
    };
    return key(a) < key(b);
  });
  result.history = std::move(history);
  return result;
}

std::vector<std::string> AdviseScript(const AdviseResult& result, const AdviseRow* row, const std::string& graph_file) {
  const CallHistory& h = result.history;
  std::vector<std::string> lines;
  lines.push_back(fmt::format("# Written by airscope's `advise --write`: the calls of frame {} ({}) from {},", h.frame,
                              h.function, h.origin));
  lines.push_back(row ? fmt::format("# replayed under `{}`{}.", row->candidate.name,
                                    row->candidate.change.empty() ? "" : fmt::format(" ({})", row->candidate.change))
                      : "# replayed as they happened (the baseline).");
  lines.push_back("# The expect lines are what advise predicted; running this script checks them. Run it as a");
  lines.push_back("# session of its own (airscope FILE): advise replayed on a fresh device, and a graph key hashes");
  lines.push_back("# the parameters' addresses, which depend on what the device held before.");
  lines.push_back(fmt::format("load {} as {}", graph_file, result.graph_name));
  for (const std::string& line : result.session_settings) lines.push_back(line);
  for (const std::string& line : result.baseline) lines.push_back(line);
  if (row) {
    for (const std::string& line : row->candidate.setup) lines.push_back(line);
  }
  std::vector<std::string> calls = row ? CandidateCalls(h, row->candidate) : std::vector<std::string>{};
  if (!row) {
    for (const HistoryCall& c : h.calls) calls.push_back(c.spec);
  }
  for (const std::string& call : calls) lines.push_back("call " + call);
  const ReplayCounts& c = row ? row->counts : result.baseline_counts;
  lines.push_back(fmt::format("expect compiles {}", c.compiles));
  lines.push_back(fmt::format("expect eager {}", c.eager()));
  lines.push_back(fmt::format("expect captures {}", c.captures));
  lines.push_back(fmt::format("expect recaptures {}", c.recaptures));
  for (const auto& [key, captures] : c.key_captures) {
    lines.push_back(fmt::format("expect captures {} key \"{}\"", captures, key));
  }
  return lines;
}

}  // namespace airscope

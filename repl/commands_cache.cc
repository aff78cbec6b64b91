// Compile-cache commands: call, mark_dynamic, gears, cache, guards, why.
// A loaded graph is a frame; `call` looks its inputs up in the frame's cache
// entries, prints a hit or Dynamo's recompile message, and compiles through
// CompileForCall (core/dynamo/compile_for_call.h) and the session's pipeline
// (repl/compile.h). The trace-log commands are in commands_trace.cc.
#include <charconv>
#include <span>

#include <fmt/format.h>

#include "core/dynamo/compile_for_call.h"
#include "core/dynamo/dim_gears.h"
#include "core/fx/readable.h"
#include "core/ops/dim_math.h"
#include "core/ops/shape_inference.h"
#include "core/pass/graph_diff.h"
#include "core/scanner.h"
#include "repl/cache_state.h"
#include "repl/compile.h"
#include "repl/gears_ge_options.h"
#include "repl/interpreter.h"
#include "repl/runtime_call.h"

namespace airscope {

Status GuardsCommand(CommandContext& ctx);  // commands_trace.cc: frames and trace logs

Result<CacheState*> CurrentCacheState(Session& session) {
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, session.Current());
  if (!entry->cache) entry->cache = std::make_shared<CacheState>();
  return entry->cache.get();
}

const CacheState* FindCacheState(const Session& session) {
  const Session::Entry* entry = session.current();
  return entry ? entry->cache.get() : nullptr;
}

Result<std::unique_ptr<Graph>> CompileCallThroughPipeline(const Graph& graph, const std::vector<TensorMeta>& inputs,
                                                          const std::vector<TensorMeta>& hints,
                                                          const Session& session) {
  AIRSCOPE_ASSIGN_OR_RETURN(std::unique_ptr<Graph> specialized,
                            CompileForCall(graph, inputs, hints, session.registry()));
  AIRSCOPE_ASSIGN_OR_RETURN(Compiled compiled, CompileThroughPipeline(std::move(specialized), session));
  return compiled.graph->Clone();
}

namespace {

constexpr const char* kCallUsage =
    "call NAME=DTYPE[SIZES][@[STRIDES]][:DEVICE] [grad] [param] [in BUFFER] | NAME=INT|FLOAT|BOOL ... [keep]";

Result<int64_t> ParseInt(const Word& word, std::string_view what) {
  std::optional<int64_t> value = WordAsInt(word);
  if (!value || *value < 0) {
    return ColumnErrorf(word.column, "expected {} (a whole number), got '{}'", what, word.text);
  }
  return *value;
}

FrameOptions OptionsFrom(const Settings& settings) {
  FrameOptions options;
  options.cache_size_limit = settings.GetUnsigned("cache_size_limit");
  // make_set_enable_dynamic's two config patches (FrameOptions says which).
  const std::string& dynamic = settings.Get("dynamic");
  if (dynamic == "true") options.assume_static_by_default = false;
  if (dynamic == "false") options.automatic_dynamic = false;
  return options;
}

bool ReduceOverhead(const Settings& settings) { return settings.CapturesAclGraphs(); }

// A new frame for `entry`, not yet kept: frames are numbered in the order graphs get one.
std::unique_ptr<Frame> NewFrame(const Session& session, const Session::Entry& entry) {
  int frame_id = 0;
  for (const Session::Entry& e : session.graphs()) frame_id += e.cache && e.cache->frame;
  return std::make_unique<Frame>("forward", entry.loaded.path, frame_id);
}

// The frame of the current graph, created on first use.
Result<Frame*> CurrentFrame(Session& session) {
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, session.Current());
  AIRSCOPE_ASSIGN_OR_RETURN(CacheState * state, CurrentCacheState(session));
  if (!state->frame) state->frame = NewFrame(session, *entry);
  return state->frame.get();
}

// The input names of the current graph, for checking mark_dynamic / gears.
Result<size_t> InputIndex(Session& session, const Word& word) {
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, session.Current());
  std::vector<std::string> names;
  for (const Node* p : entry->loaded.graph->Placeholders()) names.push_back(p->name());
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i] == word.text) return i;
  }
  return ColumnErrorf(word.column, "no input named '{}' (the graph takes {})", word.text, fmt::join(names, ", "));
}

// DIM of input `input`: a whole number inside the input's rank when the
// graph states its shape (torch would fail on it at the next compile).
Result<size_t> InputDim(Session& session, size_t input, const Word& word) {
  AIRSCOPE_ASSIGN_OR_RETURN(int64_t dim, ParseInt(word, "a dim"));
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, session.Current());
  const Node* placeholder = entry->loaded.graph->Placeholders()[input];
  if (const TensorMeta* tensor = placeholder->tensor(); tensor && static_cast<size_t>(dim) >= tensor->sizes.size()) {
    return ColumnErrorf(word.column, "input '{}' is {} ({} dims): it has no dim {}", placeholder->name(),
                        tensor->ShapeString(), tensor->sizes.size(), dim);
  }
  return static_cast<size_t>(dim);
}

// An entry's inputs as `call` takes them, with what tells entries apart
// beyond the shape: strides that are not contiguous, a device other than
// npu:0, requires_grad. Two entries for f32[8, 64] then read differently.
std::string EntryShapes(const CacheEntry& entry) {
  std::vector<std::string> parts;
  for (const TensorGuard& t : entry.guards.tensors()) {
    if (t.scalar) {  // a constant by its value, a SymInt by its symbol
      parts.push_back(fmt::format("{}={}", t.name, t.scalar->symbolic ? t.scalar->symbol : t.scalar->value.repr));
      continue;
    }
    TensorMeta meta = t.ToMeta();
    std::string part = fmt::format("{}={}", t.name, meta.ShapeString());
    if (!meta.strides.empty()) part += fmt::format("@{}", FormatDims(meta.strides));
    if (!t.device.empty() && t.device != "npu:0") part += ":" + t.device;
    if (t.requires_grad) part += " grad";
    parts.push_back(std::move(part));
  }
  return fmt::format("{}", fmt::join(parts, " "));
}

void PrintGuardTree(const CacheEntry& entry, CommandOutput& out) {
  out.Print("TREE_GUARD_MANAGER:");
  out.Print("+- RootGuardManager");
  for (size_t i = 0; i < entry.guards.tensors().size(); ++i) {
    const std::string& name = entry.guards.tensors()[i].name;
    out.Print("| +- GuardManager: source=L['{}'], accessed_by=DictGetItemGuardAccessor({})", name, name);
    for (const auto& [kind, text] : entry.guards.InputGuards(i)) out.Print("| | +- {}: {}", kind, text);
  }
  for (const std::string& line : entry.guards.ShapeEnvLines()) out.Print("| +- SHAPE_ENV: {}", line);
}

void PrintCompiled(const Frame& frame, const CacheEntry& entry, size_t index, const CallOutcome& outcome,
                   CommandOutput& out) {
  for (const std::string& note : outcome.dynamic_notes) out.Styled(Style::kDim, "  {}", note);
  out.Styled(Style::kAccent, "[{}] compiled entry {}: {} ({} guards)", entry.compile_id, index, EntryShapes(entry),
             entry.guards.count());
  for (size_t i = 0; i < entry.guards.tensors().size(); ++i) {
    for (const auto& [kind, text] : entry.guards.InputGuards(i)) out.Print("  {}", text);
  }
  for (const std::string& line : entry.guards.ShapeEnvLines()) out.Print("  {}", line);
}

Status Call(CommandContext& ctx) {
  if (ctx.args.empty()) return UsageError(kCallUsage);
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  std::vector<SpecToken> tokens;
  for (const Word& w : ctx.args) tokens.push_back({w.text, w.column});
  AIRSCOPE_ASSIGN_OR_RETURN(CallSpec parsed, ParseCall(tokens));
  const bool reduce_overhead = ReduceOverhead(ctx.session.settings());
  if (!reduce_overhead) {
    // Buffers, parameters and kept outputs are what TorchAir's AclGraph runtime reads.
    if (parsed.keep) {
      return ColumnErrorf(parsed.keep_column,
                          "'keep' keeps the outputs of an AclGraph call: set mode reduce-overhead (or npugraph_ex)");
    }
    for (const CallInput& in : parsed.inputs) {
      if (!in.buffer.empty() || in.parameter) {
        return ColumnErrorf(in.buffer.empty() ? in.column : in.buffer_column,
                            "`{}` is for TorchAir's AclGraph runtime: set mode reduce-overhead (or npugraph_ex)",
                            in.buffer.empty() ? "param" : "in");
      }
    }
  }
  const bool keep = parsed.keep;
  const Graph& graph = *entry->loaded.graph;
  AIRSCOPE_ASSIGN_OR_RETURN(std::vector<CallInput> inputs, BindCallInputs(graph, std::move(parsed.inputs)));
  if (reduce_overhead) AIRSCOPE_RETURN_IF_ERROR(CheckCallBuffers(ctx.session, entry->cache.get(), inputs));
  // The first call of a graph makes its frame; the frame is kept only when
  // the call succeeds, so a first call that fails to compile leaves none.
  std::unique_ptr<Frame> first_frame;
  Frame* frame = entry->cache ? entry->cache->frame.get() : nullptr;
  if (!frame) {
    first_frame = NewFrame(ctx.session, *entry);
    frame = first_frame.get();
  }
  FrameOptions options = OptionsFrom(ctx.session.settings());
  // A miss compiles like TorchAir's backend: inputs specialized (symbolic
  // where dynamic), shapes inferred, then the session's whole pipeline.
  const Session& session = ctx.session;
  CompileFn compile = [&session](const Graph& g, const std::vector<TensorMeta>& metas,
                                 const std::vector<TensorMeta>& hints) {
    return CompileCallThroughPipeline(g, metas, hints, session);
  };
  AIRSCOPE_ASSIGN_OR_RETURN(CallOutcome outcome, frame->Call(graph, inputs, options, compile));
  AIRSCOPE_ASSIGN_OR_RETURN(CacheState * kept, CurrentCacheState(ctx.session));
  CacheState& state = *kept;
  if (first_frame) state.frame = std::move(first_frame);
  state.last_call = outcome.kind;
  {
    std::vector<std::string> words;
    for (const Word& w : ctx.args) words.push_back(w.text);
    static constexpr const char* kOutcome[] = {"hit", "compiled", "eager"};
    if (state.calls.size() == CacheState::kCallLogLimit) state.calls.pop_front();
    CacheState::CallRecord record;
    record.number = frame->calls();
    record.spec = fmt::format("{}", fmt::join(words, " "));
    record.outcome = kOutcome[static_cast<int>(outcome.kind)];
    if (outcome.kind != CallOutcome::Kind::kEager) record.compile_id = outcome.compile_id;
    state.calls.push_back(std::move(record));
  }
  if (outcome.kind == CallOutcome::Kind::kCompiled) {
    // TorchAir numbers every FX graph it compiles: graph_<N> (npu_fx_compiler.py:565-571, 672-677).
    if (state.runtimes.size() <= outcome.entry) state.runtimes.resize(outcome.entry + 1);
    state.runtimes[outcome.entry].fx_graph = ++ctx.session.device().fx_graphs;
  }
  const Frame& f = *frame;
  switch (outcome.kind) {
    case CallOutcome::Kind::kHit:
      ctx.out.Styled(Style::kGood, "cache hit (entry {}, {})", outcome.entry, outcome.compile_id);
      break;
    case CallOutcome::Kind::kCompiled:
      if (!outcome.failures.empty()) {
        ctx.out.Styled(Style::kBad, "[{}] {}", outcome.compile_id, f.RecompileMessage(outcome));
        state.recompiles.push_back({outcome.compile_id, outcome.failures});
      } else {
        ctx.out.Print("cache miss: first call, compiling");
      }
      PrintCompiled(f, *f.entries()[outcome.entry], outcome.entry, outcome, ctx.out);
      break;
    case CallOutcome::Kind::kEager:
      if (outcome.limit_hit_now) {
        ctx.out.Styled(Style::kBad, "[{}] {}", outcome.compile_id, f.LimitMessage(outcome, options.cache_size_limit));
      }
      ctx.out.Styled(Style::kBad, "cache miss: recompile limit ({}) reached, running eager", options.cache_size_limit);
      break;
  }
  if (reduce_overhead) {
    // Dynamo installed the entry before its code ran (as convert_frame does): a call that fails in
    // TorchAir's runtime keeps it; the runtime itself is left as it was.
    Status ran = RunAclGraphCall(ctx, state, outcome, inputs, keep);
    if (!ran.ok()) {
      if (!state.calls.empty()) state.calls.back().runtime = "failed";
      return ran.WithPrefix(
          fmt::format("the call failed in TorchAir's AclGraph runtime (cache entry {} stays; "
                      "buffers, captures and device memory are as before)",
                      outcome.compile_id));
    }
  }
  return Status::Ok();
}

// What the frame was told before its calls, for replaying them (`advise`).
void RememberSetup(CommandContext& ctx, std::string_view command) {
  Result<CacheState*> state = CurrentCacheState(ctx.session);
  if (!state.ok()) return;
  std::vector<std::string> words{std::string(command)};
  for (const Word& w : ctx.args) words.push_back(w.text);
  (*state)->setup.push_back(fmt::format("{}", fmt::join(words, " ")));
}

Status MarkDynamic(CommandContext& ctx) {
  const auto& args = ctx.args;
  if (args.size() != 2 && args.size() != 4) return UsageError("mark_dynamic INPUT DIM [MIN MAX]");
  AIRSCOPE_ASSIGN_OR_RETURN(size_t input, InputIndex(ctx.session, args[0]));
  AIRSCOPE_ASSIGN_OR_RETURN(size_t dim, InputDim(ctx.session, input, args[1]));
  int64_t min = 2, max = std::numeric_limits<int64_t>::max();
  if (args.size() == 4) {
    AIRSCOPE_ASSIGN_OR_RETURN(int64_t lo, ParseInt(args[2], "a minimum size"));
    AIRSCOPE_ASSIGN_OR_RETURN(int64_t hi, ParseInt(args[3], "a maximum size"));
    if (lo > hi) return ColumnErrorf(args[2].column, "MIN {} is larger than MAX {}", lo, hi);
    min = lo;
    max = hi;
  }
  AIRSCOPE_ASSIGN_OR_RETURN(Frame * frame, CurrentFrame(ctx.session));
  frame->MarkDynamic(args[0].text, dim, min, max);
  RememberSetup(ctx, "mark_dynamic");
  ctx.out.Print("marked L['{}'].size()[{}] dynamic{} (applies to the next compile)", args[0].text, dim,
                args.size() == 4 ? fmt::format(" in [{}, {}]", min, max) : "");
  return Status::Ok();
}

// `gears INPUT DIM GEARS [DIM GEARS ...]`: one set_dim_gears(INPUT, {DIM:
// GEARS, ...}) call. Words are read as Python literals so that TorchAir's
// checks see what a script would have passed: 0.3 is a float, 1 a scalar
// (not a list), 8,4 and [8,4] a list, (8,4) a tuple.
Status Gears(CommandContext& ctx) {
  const auto& args = ctx.args;
  // Not an input name: a Python identifier has no '-'.
  if (!args.empty() && args[0].text == "ge-options") return GearsGeOptions(ctx, std::span(args).subspan(1));
  constexpr std::string_view kUsage = "gears INPUT DIM G1,G2,... [DIM G1,G2,... ...] | gears ge-options [ENTRY]";
  if (args.size() < 3 || args.size() % 2 != 1) return UsageError(kUsage);
  AIRSCOPE_ASSIGN_OR_RETURN(size_t input, InputIndex(ctx.session, args[0]));
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  const Node* placeholder = entry->loaded.graph->Placeholders()[input];
  const TensorMeta* tensor = placeholder->tensor();
  if (tensor == nullptr) {
    return ColumnErrorf(args[0].column,
                        "input '{}' has no tensor shape in the graph ({}): set_dim_gears needs a tensor "
                        "(`set input {} SHAPE` gives it one)",
                        placeholder->name(), placeholder->meta() ? placeholder->meta()->ShapeString() : "no annotation",
                        placeholder->name());
  }
  DimGears gears;
  for (size_t i = 1; i + 1 < args.size(); i += 2) {
    Result<GearsValue> value = ParseGearsValue(args[i + 1].text);
    if (!value.ok()) return ColumnErrorf(args[i + 1].column, "{}", value.status().message());
    DimGearsItem item{ParsePyScalar(args[i].text), std::move(value).value()};
    // A dict keeps one value per key: the last one given, as in Python.
    auto same = std::find_if(gears.begin(), gears.end(), [&item](const DimGearsItem& g) { return g.dim == item.dim; });
    if (same != gears.end()) {
      same->gears = std::move(item.gears);
    } else {
      gears.push_back(std::move(item));
    }
  }
  // Checked before the frame is made, so a refused dict leaves none behind.
  if (const CacheState* state = FindCacheState(ctx.session); !state || !state->frame) {
    AIRSCOPE_RETURN_IF_ERROR(CheckDimGears(gears, tensor->sizes.size()));
  }
  AIRSCOPE_ASSIGN_OR_RETURN(Frame * frame, CurrentFrame(ctx.session));
  std::string text;
  for (const DimGearsItem& item : gears) {
    text += fmt::format("{}{}: {}", text.empty() ? "" : ", ", item.dim.repr, item.gears.Repr());
  }
  bool again = frame->dim_gears().count(args[0].text) > 0;
  AIRSCOPE_RETURN_IF_ERROR(frame->SetDimGears(args[0].text, tensor->sizes.size(), std::move(gears)));
  RememberSetup(ctx, "gears");
  ctx.out.Print("set_dim_gears({}, {{{}}}){} (applies to every later compile)", args[0].text, text,
                again ? ": the same dict again" : "");
  return Status::Ok();
}

Status Cache(CommandContext& ctx) {
  if (ctx.args.size() > 1) return UsageError("cache [ENTRY]");
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  const CacheState* state = entry->cache.get();
  if (!state || !state->frame) {
    ctx.out.Print("graph '{}': no calls yet (use call NAME=SPEC ...)", entry->name);
    return Status::Ok();
  }
  const Frame& frame = *state->frame;
  if (ctx.args.size() == 1) {
    for (size_t i = 0; i < frame.entries().size(); ++i) {
      const CacheEntry& e = *frame.entries()[i];
      if (fmt::format("{}", i) != ctx.args[0].text && e.compile_id != ctx.args[0].text) continue;
      ctx.out.Styled(Style::kHeading, "entry {} [{}]: the compiled graph", i, e.compile_id);
      ctx.out.AddBlock(PrintReadable(*e.artifact));
      return Status::Ok();
    }
    return ColumnErrorf(ctx.args[0].column, "no cache entry '{}'", ctx.args[0].text);
  }
  FrameOptions options = OptionsFrom(ctx.session.settings());
  const std::string& dynamic = ctx.session.settings().Get("dynamic");
  ctx.out.Print("frame {} ({}): {} call(s), {} entr{}, cache_size_limit {}, mode {}{}{}", frame.frame_id(), entry->name,
                frame.calls(), frame.entries().size(), frame.entries().size() == 1 ? "y" : "ies",
                options.cache_size_limit, ctx.session.settings().Get("mode"),
                dynamic == "none" ? "" : fmt::format(", dynamic={}", dynamic == "true" ? "True" : "False"),
                frame.eager_calls() ? fmt::format(", {} eager call(s) past the limit", frame.eager_calls()) : "");
  for (const auto& [input, gears] : frame.dim_gears()) {
    std::vector<std::string> items;
    for (const DimGearsItem& item : gears) items.push_back(fmt::format("{}: {}", item.dim.repr, item.gears.Repr()));
    ctx.out.Print("  dim gears of {}: {{{}}}", input, fmt::join(items, ", "));
  }
  if (frame.entries().empty()) return Status::Ok();
  ctx.out.Print("  {:<5} {:<10} {:>6} {:>6}  {}", "entry", "compile", "guards", "hits", "specialized on");
  for (size_t i = 0; i < frame.entries().size(); ++i) {
    const CacheEntry& e = *frame.entries()[i];
    ctx.out.Print("  {:<5} {:<10} {:>6} {:>6}  {}", i, e.compile_id, e.guards.count(), e.hits, EntryShapes(e));
    PrintEntryRuntime(*state, i, ctx.out);
  }
  return Status::Ok();
}

Status Why(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("why");
  const CacheState* state = FindCacheState(ctx.session);
  if (!state || !state->frame || !state->frame->last_miss()) {
    ctx.out.Print("no cache miss to explain yet (the first call of a frame compiles; later misses are explained here)");
    return Status::Ok();
  }
  const Frame& frame = *state->frame;
  const CallOutcome& miss = *frame.last_miss();
  ctx.out.Print("last miss: call {}", fmt::join(frame.last_miss_shapes(), " "));
  ctx.out.Print("  no entry's guards held (checked newest first):");
  for (const std::string& failure : miss.failures) ctx.out.Print("    - {}", failure);
  if (miss.kind == CallOutcome::Kind::kEager) {
    ctx.out.Print("  so the call ran eager: the frame holds {} entries = cache_size_limit", frame.entries().size());
    ctx.out.Styled(Style::kDim, "  (mark the changing dim dynamic, or raise cache_size_limit)");
    return Status::Ok();
  }
  ctx.out.Print("  so Dynamo recompiled: {}", miss.compile_id);
  for (const std::string& note : miss.dynamic_notes) ctx.out.Print("  {}", note);
  if (miss.dynamic_notes.empty() && miss.entry < frame.entries().size()) {
    // Dims may be symbolic without a note: marked dynamic, or dim gears.
    std::vector<std::string> symbolic;
    for (const TensorGuard& t : frame.entries()[miss.entry]->guards.tensors()) {
      if (t.scalar) {
        if (t.scalar->symbolic) symbolic.push_back(fmt::format("{}={}", t.name, t.scalar->symbol));
        continue;
      }
      TensorMeta meta = t.ToMeta();
      bool dynamic = std::any_of(meta.sizes.begin(), meta.sizes.end(), [](const Dim& d) { return !d.is_static(); });
      if (dynamic) symbolic.push_back(fmt::format("{}={}", t.name, meta.ShapeString()));
    }
    if (symbolic.empty()) {
      ctx.out.Styled(Style::kDim, "  (every dim of the new entry is static: a changed size recompiles again)");
    } else {
      ctx.out.Styled(Style::kDim,
                     "  (the new entry is compiled for {}: a new size of a symbolic dim hits it, a changed "
                     "static dim recompiles again)",
                     fmt::join(symbolic, " "));
    }
  }
  return Status::Ok();
}

}  // namespace

namespace {

// The entry a word names: its index or its compile id.
Result<size_t> EntryOf(const Frame& frame, const Word& which) {
  for (size_t i = 0; i < frame.entries().size(); ++i) {
    if (frame.entries()[i]->compile_id == which.text || fmt::format("{}", i) == which.text) return i;
  }
  return ColumnErrorf(which.column, "no cache entry '{}' (entries 0..{}; or a compile id like {}/0)", which.text,
                      frame.entries().empty() ? 0 : frame.entries().size() - 1, frame.frame_id());
}

std::string GuardTreeText(const CacheEntry& entry) {
  CommandOutput out;
  PrintGuardTree(entry, out);
  return out.Text();
}

}  // namespace

// `guards check SPEC...`: what a call would meet, entry by entry as Dynamo
// checks them (newest first), without calling: nothing compiles or counts.
Status GuardsCheck(CommandContext& ctx, const Frame& frame, std::span<const Word> spec_words) {
  if (spec_words.empty()) return UsageError("guards check NAME=SPEC ...");
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  std::vector<SpecToken> tokens;
  for (const Word& w : spec_words) tokens.push_back({w.text, w.column});
  AIRSCOPE_ASSIGN_OR_RETURN(std::vector<CallInput> parsed, ParseCallSpec(tokens));
  AIRSCOPE_ASSIGN_OR_RETURN(std::vector<CallInput> inputs, BindCallInputs(*entry->loaded.graph, std::move(parsed)));
  for (size_t i = frame.entries().size(); i-- > 0;) {
    const CacheEntry& e = *frame.entries()[i];
    if (e.guards.Check(inputs)) {
      ctx.out.Styled(Style::kGood, "entry {} [{}] would hit (its guards hold; entries are checked newest first)", i,
                     e.compile_id);
      return Status::Ok();
    }
    ctx.out.Print("entry {} [{}]: {}", i, e.compile_id, e.guards.FirstFailure(inputs).value_or("a guard fails"));
  }
  FrameOptions options = OptionsFrom(ctx.session.settings());
  ctx.out.Styled(
      Style::kBad, "no entry holds: the call would {}",
      frame.entries().size() >= options.cache_size_limit
          ? fmt::format("run eager (the frame holds cache_size_limit = {} entries)", options.cache_size_limit)
          : "recompile");
  return Status::Ok();
}

// `guards diff A B`: the two entries' guard trees as a unified diff.
Status GuardsDiff(CommandContext& ctx, const Frame& frame, const Word& a, const Word& b) {
  AIRSCOPE_ASSIGN_OR_RETURN(size_t first, EntryOf(frame, a));
  AIRSCOPE_ASSIGN_OR_RETURN(size_t second, EntryOf(frame, b));
  const CacheEntry& ea = *frame.entries()[first];
  const CacheEntry& eb = *frame.entries()[second];
  std::string diff =
      UnifiedDiff(GuardTreeText(ea), GuardTreeText(eb), fmt::format("entry {} [{}]", first, ea.compile_id),
                  fmt::format("entry {} [{}]", second, eb.compile_id));
  if (diff.empty()) {
    ctx.out.Print("entries {} and {} have the same guards", first, second);
  } else {
    ctx.out.AddBlock(diff);
  }
  return Status::Ok();
}

Status GuardsOfFrame(CommandContext& ctx, const Frame& frame, const Word* which) {
  std::vector<size_t> picked;
  if (!which) {
    for (size_t i = 0; i < frame.entries().size(); ++i) picked.push_back(i);
  } else {
    AIRSCOPE_ASSIGN_OR_RETURN(size_t one, EntryOf(frame, *which));
    picked.push_back(one);
  }
  for (size_t i : picked) {
    const CacheEntry& e = *frame.entries()[i];
    ctx.out.Styled(Style::kHeading, "entry {} [{}]: {} guards, {} hit(s)", i, e.compile_id, e.guards.count(), e.hits);
    PrintGuardTree(e, ctx.out);
  }
  return Status::Ok();
}

void RegisterCacheCommands(CommandTable& table) {
  table.Add(
      {"call", "call NAME=SPEC ... [keep]", "invoke the current graph as a frame: cache hit, or compile a new entry",
       "Calls the current graph with input metadata, one NAME=SPEC per input:\n"
       "  NAME=DTYPE[SIZES][@[STRIDES]][:DEVICE] [grad] [param] [in BUFFER]   e.g.  call x=f32[2,2]@[2,1] y=f32[4]\n"
       "The cache entries are checked newest first. A hit prints `cache hit (entry N, ID)`; a miss prints\n"
       "Dynamo's recompile message (which guard of which entry failed) and compiles a new entry with its\n"
       "guards. A dim that changed between compiles becomes symbolic (automatic dynamic). `set dynamic true`\n"
       "(torch.compile(dynamic=True)) makes every dim of size >= 2 a symbol from the first compile, equal sizes\n"
       "sharing one (duck sizing), parameters' dims excepted; `set dynamic false` turns automatic dynamic off.\n"
       "Past cache_size_limit entries, misses run eager. A bad spec changes nothing.\n"
       "A compile checks that every op of the graph takes the call's own sizes (Dynamo's fake tensors carry\n"
       "them as hints even where a dim is symbolic): one that refuses them (a size a view baked in at trace\n"
       "time, mm of mismatched dims) fails the call in the op's words, as torch's fake-tensor propagation\n"
       "does on that graph, and nothing is compiled or cached. The model itself may take those sizes\n"
       "(Dynamo would trace its code again); airscope, holding only the graph, says so and cannot check.\n"
       "The spellings airscope and torch print work too: x=f32[8, 64], x = f32[8,64], x=torch.float32[8,64],\n"
       "x=f32[8, 64][64, 1]npu:0, requires_grad. Each input must have the rank the graph was traced at.\n"
       "\n"
       "A graph input that is a Python scalar takes NAME=VALUE: an int (s=4), a float (eps=1e-05), a bool\n"
       "(flag=True) or a str in Python's quotes (mode=\"'train'\": the shell takes the outer quotes); a\n"
       "placeholder the graph annotates Sym(...) takes only an int. Dynamo's rules for them\n"
       "(torch/_dynamo/variables/builder.py wrap_literal, wrap_symint, wrap_symfloat; guards.py CONSTANT_MATCH):\n"
       "  int    the first compile specializes it: the value is traced into the ops (the placeholder leaves the\n"
       "         compiled graph) and guarded `___check_type_id(L['s'], <id(int)>)` and `L['s'] == 4`; a call\n"
       "         with another value recompiles, and that compile (automatic dynamic) makes it a SymInt of its\n"
       "         own, sN (no duck sizing, no range guard, 0 and 1 not specialized), guarded by its type alone,\n"
       "         so every later int hits. `set dynamic true`: a SymInt from the first compile; `set dynamic\n"
       "         false`: a constant for every value (one entry each).\n"
       "  bool   always a constant, guarded by identity `___check_obj_id(L['flag'], <id(True)>)`.\n"
       "  str    always a constant, guarded by its value `L['mode'] == 'train'`.\n"
       "  float  a constant guarded `L['eps'] == 1e-05` under dynamic=None (first value) or dynamic=False.\n"
       "         Where Dynamo would make it a SymFloat (a changed value under automatic dynamic, or\n"
       "         dynamic=True) it passes a 0-dim float64 CPU tensor and item()s it: airscope does not model\n"
       "         that and refuses the call, compiling nothing.\n"
       "`<id(int)>` stands for the address CPython gives the object, which no log can predict. In\n"
       "reduce-overhead mode a SymInt input is in the graph key by its value (get_unupdated_sym_input_index,\n"
       "ag:281-348: a SymInt placeholder with a user is (index, True)), so each value is a capture of its own\n"
       "under one FX graph; a constant is not an input at all. Not modelled: ints from globals, nn.Module\n"
       "attributes or defaults (Dynamo specializes those for good), str and None inputs, unbacked SymInts.\n"
       "Simplified: a scalar no op of the graph uses is guarded all the same (Dynamo wraps literals lazily\n"
       "and guards only those the trace reads).\n"
       "Tab completes an input's name with its traced spec, then its flags, then buffer names after `in`.\n"
       "\n"
       "In reduce-overhead mode the entry then runs as TorchAir's AclGraph runs the module it generates for a\n"
       "compiled FX graph, graph_<N> (python/torchair/_acl_concrete_graph/acl_graph.py at fced8842, `ag`;\n"
       "AclGraph.__call__ ag:825-847), on the simulated device:\n"
       "  graph key  from the graph's unupdated_sym_input_index (ag:281-348): \"no_updated_input\" when no input\n"
       "             has a symbol, so ONE capture serves every call; str([SymInt values]) when every entry is a\n"
       "             SymInt, e.g. [4]; else str([value or list(shape) ...]); with parameters and frozen_parameter\n"
       "             off, str(hash(tuple(data_ptr))) of the parameters' addresses appended (ag:230-278). Dynamo\n"
       "             passes each symbol of a dynamic input as a SymInt input before it; airscope adds that input.\n"
       "  capture    a new key is captured into the FX graph's one mempool (ag:1074-1154); with mempool reuse\n"
       "             and more than one key the pool is first set back to its state before the first capture,\n"
       "             so the captures of all keys share memory (disable_mempool_reuse_in_same_fx keeps them\n"
       "             apart). Inputs not mutated, not aliased by an output and not parameters are staged in\n"
       "             buffers of the pool when clone_input is on; mutated inputs are written in place.\n"
       "  recapture  a key found again is recaptured when a mutated input's address changed (ag:1365-1385).\n"
       "  limit      before every capture or recapture, len(graphs_meta) == static_capture_size_limit prints\n"
       "             TorchAir's warning, resets every captured graph, releases the mempool, and every later\n"
       "             call of that graph runs eagerly (ag:999-1056).\n"
       "  replay     with clone_input every staged input is copied in first, without it only inputs whose\n"
       "             address changed (ag:1290-1359): memcpy tasks on the timeline; then the graph's replay.\n"
       "  outputs    one key, or mempool reuse off: the same output memory every call; several keys: memory\n"
       "             at the capture's addresses, with TorchAir's one-time UserWarning; enable_output_clone\n"
       "             returns copies instead (their copy is not on the timeline) (ag:1402-1475).\n"
       "Buffers: an input lives where `in BUFFER` says (a new name makes the buffer, at the address the\n"
       "simulated caching allocator gives it; an existing one is used if the tensor fits), else where it was\n"
       "passed last time, else in a new buffer INPUT@CALL. `param` marks an input torch treats as a parameter\n"
       "(fx2acl_converter.py:417-424); the get_attr parameters the aot stage lifts are parameters too, each in\n"
       "a buffer GRAPH.ATTR made at the first call (the first four are listed, the rest counted with their\n"
       "bytes; `mem --graph` lists them all). Outputs become handles outCALL.I: `keep` keeps them until\n"
       "`drop`; otherwise they are held until the next call returns, as `y = f(x)` holds y. A replay that\n"
       "writes memory a kept output lives in, and a captured graph that reads or writes the address of a\n"
       "freed buffer, get an `aclgraph warning`.\n"
       "Each call prints TorchAir's log lines as its logger writes them at DEBUG (TORCH_COMPILE_DEBUG=1), as\n"
       "  [LEVEL] TORCHAIR [acl_graph.py:LINE] text        (the text word for word; pid, time, thread left out)\n"
       "and airscope's own as `aclgraph: ...`. Not printed: the memory-state lines (ag:1043-1056, 1122-1140)\n"
       "and the foreach-copy timing (au:206-210); ag:1143's \"After capturing\" line is, with torch_npu's\n"
       "checkpoint state marked as not simulated. A key is recaptured when the calling stream's core limits\n"
       "(`stream limit`) differ from its capture's (ag:1375-1385). Not modelled: the task updates of\n"
       "FIA-style ops after a replay (ag:526-577; TorchAir's\n"
       "\"updated node num\" counts them), custom pools, backward graphs. `timeline`, `runstats`, `mem` and\n"
       "`mem --graph` show what the call did. A call that fails in the runtime (a capture refused) keeps its\n"
       "cache entry, as Dynamo installs it before the code runs, and leaves buffers and device as they were.\n"
       "In npugraph_ex mode the same runtime is npugraph_ex's copy of it: its NPUGRAPH_EX log lines and line\n"
       "numbers, \"capture_limit\" for static_capture_size_limit, npugraph_ex.force_eager (every call eager,\n"
       "nothing captured) and npugraph_ex.force_recapture (every call recaptures); the ag: notes above cite\n"
       "python/torchair's file, whose code npugraph_ex's copy holds a few lines earlier.\n"
       "TorchAir's config.* is read when an entry's AclGraph is made (its first call in this mode) and fixed\n"
       "from then on, as a compiled graph's config is. Simplified: a CPU input lives in a device buffer too\n"
       "(TorchAir stages only NPU tensors, ag:1204, and so does airscope).",
       Call, [](const std::vector<std::string>&) {
         return CompletionRule{CompletionKind::kCallInput, {"keep"}};
       }});
  table.Add({"mark_dynamic", "mark_dynamic INPUT DIM [MIN MAX]",
             "compile a dim as a symbol (torch._dynamo.mark_dynamic)",
             "Makes dim DIM of input INPUT symbolic from the next compile on, with range guards\n"
             "(default 2 <= size; Dynamo specializes 0 and 1). A marked dim gets a symbol of its own (Dynamo's\n"
             "DimDynamic.DYNAMIC: no duck sizing with equal sizes). When any input has TorchAir dim gears, the\n"
             "marked dim is specialized at compile and Dynamo refuses the frame (ConstraintViolationError; see\n"
             "help gears); on a dim that has gears, the gears decide.",
             MarkDynamic, nullptr});
  table.Add({"gears", "gears INPUT DIM G1,G2,... | gears ge-options [ENTRY]",
             "TorchAir dim gears: a dynamic dim limited to listed sizes",
             "gears INPUT DIM G1,G2,... [DIM G1,G2,... ...]\n"
             "gears ge-options [ENTRY]\n\n"
             "torchair.inference.set_dim_gears(INPUT, {DIM: [G1, G2, ...], ...}) (inference/_gear_utils.py:13-40),\n"
             "checked as TorchAir checks it, with its AssertionError texts: DIM an int in [0, ndim-1], the gears a\n"
             "list or tuple of 2 to 100 ints, none 0. Words read as Python literals: 0.3 is a float, 8 a lone int\n"
             "(not a list), 8,4 and [8,4] a list, (8,4) a tuple. Setting a different dict on the same input fails\n"
             "(\"Tensor INPUT already has set dim gears\"; TorchAir prints the tensor itself); the same dict again is\n"
             "fine. The dict applies to every later compile of the frame, as if every call passed the tensor it was\n"
             "set on (TorchAir keeps it on that tensor object; a new tensor without it compiles without gears).\n"
             "At each compile, when any input has gears, TorchAir's guard_gears_shape (_gear_utils.py:64-80, run\n"
             "by its stage compiler on AOT's fake inputs, npu_fx_compiler.py:810-817):\n"
             "  - a gear dim becomes a symbol guarded by `MIN <= d <= MAX` and, per adjacent pair of sorted gears,\n"
             "    `(d <= LEFT) | (RIGHT <= d)`: it admits exactly the gears. A size that is not a gear fails the\n"
             "    compile (not a guard: the guards of the entries already compiled simply miss first), with\n"
             "    `AssertionError: The index N of the current tensor shape is not within the range [G1, ...]`,\n"
             "    which Dynamo reports as BackendCompilerFailed;\n"
             "  - every other dim of every input is specialized (guard_int): static, and shown as `== N` in the\n"
             "    shape env where it would have been dynamic; a dim mark_dynamic asked to keep dynamic then fails\n"
             "    the compile with Dynamo's ConstraintViolationError, as does a gear dim whose gears leave one\n"
             "    size >= 2 (sizes 0 and 1 are always static in Dynamo).\n"
             "airscope simplifies: the printed form of the Or guards follows sympy's printer as read from\n"
             "torch's source, not a printout; a failed set_dim_gears changes nothing (TorchAir has already\n"
             "marked the dims checked before the failing one dynamic). All gear sizes hit the one entry; in\n"
             "reduce-overhead mode each size gets its own captured graph, as each is its own AclGraph key.\n\n"
             "`gears ge-options [ENTRY]` (the newest entry by default) prints the GE options TorchAir's GE backend\n"
             "(max-autotune mode, which airscope does not run) would build from the entry's gears:\n"
             "generate_dynamic_dims_option (_gear_utils.py:83-124, called at fx2ge_converter.py:1750-1751) under\n"
             "`set config.inference_config.dynamic_gears_merge_policy zip|product` (default zip). Its inputs are\n"
             "the entry's compiled FX inputs, the SymInts Dynamo lifts included (shape []), named arg0_1, arg1_1, ...\n"
             "as AOT numbers them (airscope renumbers when its aot stage named the graph so; otherwise the graph's\n"
             "own names, a lifted symbol by its name); a tensor's shape has -1 for a dim that is still a symbol\n"
             "(a gear dim) and the size for a specialized one (_ge_concrete_graph/utils.py:306-319, torch < 2.12).\n"
             "  ge.inputShape       NAME:D,D;... over the inputs sorted by name (as Python sorts str)\n"
             "  ge.dynamicDims      the gear lists of the -1 gear dims (inputs by name, dims ascending, as given):\n"
             "                      zip pairs them (all must have one length), product combines them; the\n"
             "                      distinct combinations in CPython's set order (list(set(...)))\n"
             "  ge.dynamicNodeType  1\n"
             "and TorchAir's AssertionError where it raises one: \"when dynamic_gears_merge_policy is zip, input\n"
             "gears len must same.\", \"The total number of gears set cannot exceed 100, and the current number of\n"
             "gears is: N\", \"At least one dimension should have levels.\" (gears only on specialized dims). No\n"
             "input with gears: no options. The merge policy matters only there: in reduce-overhead mode TorchAir\n"
             "warns that it may not take effect (compiler_config.py:68, 99-109), a warning airscope does not print.",
             Gears, nullptr});
  table.Add({"cache", "cache [ENTRY]", "the current frame's cache entries: compile id, guards, hits, captured graphs",
             "Lists the cache entries of the current graph's frame in creation order, with compile id, number\n"
             "of guards, hits and the shapes each is specialized on (symbols for dynamic dims). For an entry\n"
             "called in reduce-overhead mode, its AclGraph (graph_<N>): calls, graph keys, captures, recaptures\n"
             "by cause (a mutated input moved; a core-limit change, never in airscope), replays, hits (a key\n"
             "found, no recapture), eager runs after the fallback, and per captured key its AclGraph id, the call\n"
             "that captured it, its replays and hits and its pool. `cache ENTRY` (an index or a compile id) prints\n"
             "that entry's compiled graph, with symbolic shapes where dims are dynamic.",
             Cache, nullptr});
  table.Add({"guards", "guards [ENTRY|ID] | guards check NAME=SPEC ... | guards diff A B",
             "the guard tree of cache entries (or of compile ID in a loaded log); check a call; diff two entries",
             "Prints the guards of every cache entry (or of entry ENTRY, or compile id like 0/1) as Dynamo's\n"
             "TREE_GUARD_MANAGER lists them. For a graph loaded from a TORCH_TRACE log, `guards ID` prints the\n"
             "log's dynamo_cpp_guards_str (or dynamo_guards) for that compile. For TORCH_LOGS text, `guards ID`\n"
             "prints the GUARDS: message of that compile (the TREE_GUARD_MANAGER tree, or the flat list older\n"
             "torch logged one guard a line), `guards` every guard set of the log; ID may carry the attempt\n"
             "(0/1_1) or, for a log of several ranks, the rank (rank1:0/0).\n"
             "`guards check x=f32[8,64]` says which entry that call would hit, or for each entry (newest first,\n"
             "as Dynamo checks them) the first guard that fails, without calling: nothing compiles or counts.\n"
             "`guards diff 0 1` prints the two entries' guard trees as a unified diff.",
             GuardsCommand, [](const std::vector<std::string>& before) {
               if (before.empty()) return CompletionRule{CompletionKind::kFixed, {"check", "diff"}};
               return before[0] == "check" ? CompletionRule{CompletionKind::kCallInput, {}} : CompletionRule{};
             }});
  table.Add({"why", "why", "explain the last cache miss",
             "For the last call that missed: which guard of which entry failed, and what happened next\n"
             "(a recompile, which dims became symbolic, or an eager run past the limit).",
             Why, nullptr});
}

}  // namespace airscope

// Graph commands: load, graphs, use, show, node, find, stats, dump.
// They act on Session::CurrentGraph(): once the pipeline has run, that is
// the stage at its cursor.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

#include "core/analysis/graph_neighbourhood.h"
#include "core/file_util.h"
#include "core/fx/fx_text.h"
#include "core/suggest.h"
#include "repl/aclgraph_dump.h"
#include "repl/cache_state.h"
#include "repl/collapsed_views.h"
#include "repl/command_table.h"
#include "repl/graph_folding.h"
#include "repl/graph_text.h"
#include "repl/graph_views.h"
#include "repl/hazard_check.h"
#include "repl/interpreter.h"
#include "repl/log_commands.h"
#include "repl/piecewise_setup.h"
#include "repl/stage_graph.h"
#include "formats/registry.h"

namespace airscope {
namespace {

// The graph a command reads: the current graph (the pipeline's stage at the
// cursor once a pipeline exists), or the stage `--stage S` names.
Result<std::shared_ptr<const Graph>> GraphFor(CommandContext& ctx, const std::string* stage) {
  if (stage) {
    AIRSCOPE_ASSIGN_OR_RETURN(StageGraph resolved, ResolveStageGraph(ctx.session, *stage));
    return std::move(resolved.graph);
  }
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, ctx.session.CurrentGraph());
  return std::shared_ptr<const Graph>(std::shared_ptr<const Graph>(), graph);  // not owned
}

// The drawing options of `graph` in `format`: `check`'s findings marked when
// the format draws (dot, svg, png) and the graph is the one check lowers
// (repl/hazard_check.h). A check that fails leaves the drawing unmarked and
// says why in *note: the dump itself is not what failed.
DotOptions DrawingOptions(CommandContext& ctx, const Graph& graph, std::string_view format, std::string* note) {
  DotOptions dot;
  if (format != "dot" && format != "svg" && format != "png") return dot;
  dot.registry = &ctx.session.registry();  // the session's ops write in place too
  Result<std::vector<HazardMark>> marks = HazardMarksForDrawing(ctx.session, graph);
  if (marks.ok()) {
    dot.hazards = std::move(*marks);
  } else {
    *note = fmt::format("hazards not marked: {}", marks.status().message());
  }
  return dot;
}

// What load and `set input` say of a graph they (re)made.
void PrintShapeSummary(CommandContext& ctx, const LoadedGraph& loaded) {
  const InferenceReport& report = loaded.inference;
  size_t without_shape = 0;
  for (const Node* node : *loaded.graph) without_shape += node->op() != OpKind::kOutput && !node->meta();
  std::string unknown =
      report.unknown_ops ? fmt::format("; {} opaque (not in the op registry)", report.unknown_ops) : "";
  ctx.out.Styled(Style::kDim, "  shapes: {} annotated, {} inferred, {} unknown{}", report.annotated, report.inferred,
                 without_shape, unknown);
  if (without_shape > 0 && report.annotated == 0) {
    ctx.out.Styled(Style::kDim,
                   "  (this file states no input shapes: give them with set input NAME f32[...] or "
                   "load --shapes; the readable form and airscope JSON carry them)");
  }
  for (const std::string& warning : loaded.read_warnings) ctx.out.Styled(Style::kBad, "  warning: {}", warning);
  for (const std::string& warning : report.warnings) ctx.out.Styled(Style::kBad, "  warning: {}", warning);
  if (report.disagreements > report.warnings.size()) {
    ctx.out.Styled(Style::kBad, "  ... and {} more annotation(s) that inference disagrees with (node NAME shows each)",
                   report.disagreements - report.warnings.size());
  }
}

}  // namespace

Status SetInputShape(CommandContext& ctx, const std::vector<std::string>& words) {
  // words: "input", NAME, then the shape (split at its spaces: f32[8, 64]).
  if (words.size() < 3) return Status::Error("usage: set input NAME SHAPE (e.g. set input x f32[8, 64])");
  AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * entry, ctx.session.Current());
  std::string annotation = words[2];
  for (size_t i = 3; i < words.size(); ++i) annotation += " " + words[i];
  Result<LoadedGraph> shaped = WithInputShapes(entry->loaded, {{words[1], annotation}}, ctx.session.registry());
  if (!shaped.ok()) return shaped.status();
  std::string name = entry->name;
  bool had_state = entry->pipeline || entry->cache;
  bool replaced = false;
  ctx.session.AddGraph(name, std::move(shaped).value(), &replaced);
  ctx.out.Styled(Style::kGood, "input '{}' of '{}' is {}{}", words[1], name,
                 ctx.session.current()->loaded.graph->Find(words[1])->meta()->ShapeString(),
                 had_state ? " (its pipeline and compile cache start again: the graph changed)" : "");
  PrintShapeSummary(ctx, ctx.session.current()->loaded);
  return Status::Ok();
}

namespace {

constexpr const char* kLoadUsage = "load PATH [as NAME] [--shapes NAME=SHAPE,...]";

Status Load(CommandContext& ctx) {
  const auto& args = ctx.args;
  if (args.size() != 1 && !(args.size() == 3 && args[1].text == "as")) return UsageError(kLoadUsage);
  const std::optional<std::string> as = args.size() == 3 ? std::optional(args[2].text) : std::nullopt;
  const std::string* shapes_text = ctx.flags.Value("--shapes");
  std::string path = ctx.interpreter.ResolvePath(args[0].text);
  uint64_t max_bytes = ctx.session.settings().GetUnsigned("max-file-size");
  // The registry says what the path is (formats/registry.h); null: graph
  // text not recognised from its first bytes, which LoadGraphFile reads whole.
  // A pipe or FIFO (`cat log | airscope -c 'load /dev/stdin'`) can be read
  // only once: it is read whole now and its bytes are sniffed and loaded.
  std::optional<FileText> once;
  const InputFormat* format = nullptr;
  if (IsReadOnce(path)) {
    AIRSCOPE_ASSIGN_OR_RETURN(once, ReadFileText(path, max_bytes));
    format = SniffInputBytes(once->view(), path);
  } else {
    format = SniffInput(path);
  }
  std::optional<std::string_view> bytes = once ? std::optional(once->view()) : std::nullopt;
  InputKind kind = format ? format->kind : InputKind::kGraph;
  // --shapes names one graph's inputs; the registry's row says why it does
  // not apply to anything else.
  if (shapes_text && kind != InputKind::kGraph) return Status::Error(ShapesRefusal(*format, args[0].text));
  // Logs: every graph they hold, named by compile id (`as NAME` goes in front).
  if (kind == InputKind::kDebugTree || kind == InputKind::kTraceLogDir || kind == InputKind::kTraceLog ||
      kind == InputKind::kTorchLogs) {
    std::string prefix = as ? *as : "";
    if (as && (prefix.empty() || prefix.find_first_of(" :") != std::string::npos)) {
      return Status::Errorf("'{}' is not a usable name for a log's graphs (no spaces or ':')", prefix);
    }
    if (kind == InputKind::kDebugTree) return LoadDebugTree(ctx, path, prefix);
    if (kind == InputKind::kTraceLogDir) return LoadTraceLogDir(ctx, path, prefix);
    if (kind == InputKind::kTraceLog) return LoadTraceLog(ctx, path, prefix, bytes);
    return LoadTorchLogs(ctx, path, prefix, bytes);
  }
  // Graph names are words of the command language, not Python identifiers:
  // `03_custom_pre` (airscope's own stage dumps) and `lambda` are fine.
  auto usable = [](const std::string& name) {
    return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    });
  };
  if (kind == InputKind::kCaptureDump) {
    std::string name = as ? *as : DefaultGraphName(path);
    if (!usable(name)) return Status::Errorf("'{}' is not a usable graph name (letters, digits, _ and -)", name);
    return LoadAclGraphDump(ctx, path, name, bytes);
  }
  std::vector<InputShape> shapes;
  if (shapes_text) {
    Result<std::vector<InputShape>> parsed = ParseInputShapes(*shapes_text);
    if (!parsed.ok()) return parsed.status().WithPrefix("--shapes");
    shapes = std::move(parsed).value();
  }
  Session& session = ctx.session;
  std::string name = as ? *as : DefaultGraphName(path);
  Result<LoadedGraph> loaded = bytes ? LoadGraphText(*bytes, path, session.registry(), {}, name)
                                     : LoadGraphFile(path, max_bytes, session.registry(), name);
  if (!loaded.ok()) return loaded.status();  // the file's error first: it is the likelier mistake
  if (!usable(name)) return Status::Errorf("'{}' is not a usable graph name (letters, digits, _ and -)", name);
  if (!shapes.empty()) {
    loaded = WithInputShapes(*loaded, shapes, session.registry());
    if (!loaded.ok()) return loaded.status().WithPrefix("--shapes");
  }
  size_t nodes = loaded->graph->size();
  format = loaded->format;
  bool replaced = false;
  session.AddGraph(name, std::move(loaded).value(), &replaced);
  session.device().loaded_captures.erase(name);  // a capture dump of that name is replaced too
  ctx.out.Styled(Style::kGood, "{} graph '{}' from {} ({}): {} nodes", replaced ? "replaced" : "loaded", name,
                 args[0].text, GraphFormatName(format), nodes);
  PrintShapeSummary(ctx, session.current()->loaded);
  return Status::Ok();
}

Status Graphs(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("graphs");
  const auto& graphs = ctx.session.graphs();
  if (graphs.empty()) {
    ctx.out.Print("no graphs loaded (use load PATH)");
    return Status::Ok();
  }
  const Session::Entry* current = ctx.session.current();
  size_t width = 20;  // the names of a log's graphs run long (rank7:0/12:inductor_post_grad_graph)
  for (const Session::Entry& e : graphs) width = std::max(width, e.name.size());
  for (const Session::Entry& e : graphs) {
    ctx.out.Print("{} {:<{}} {:>7} nodes  {:<8}  {}", &e == current ? "*" : " ", e.name, width, e.loaded.graph->size(),
                  GraphFormatName(e.loaded.format), e.loaded.path);
  }
  return Status::Ok();
}

Status Use(CommandContext& ctx) {
  if (ctx.args.size() != 1) return UsageError("use NAME");
  AIRSCOPE_RETURN_IF_ERROR(ctx.session.Use(ctx.args[0].text));
  ctx.out.Print("using graph '{}'", ctx.args[0].text);
  return Status::Ok();
}

constexpr const char* kShowUsage =
    "show [--format F] [--stage S] [--inputs] [--around NODE [--hops K]] [--by line|function|stream] [--fold|--all] | "
    "show compile ID";

// `show --around NODE`: the FX lines of the nodes within --hops (default 2)
// of NODE, in graph order, "..." where lines are left out.
Status ShowAround(CommandContext& ctx, const Graph& graph, const std::string& name) {
  AIRSCOPE_ASSIGN_OR_RETURN(const Node* centre, FindNodeOrError(graph, name));
  AIRSCOPE_ASSIGN_OR_RETURN(int64_t hops_given, FlagInt(ctx.flags, "--hops", 2, 0));
  const int hops = static_cast<int>(std::min<int64_t>(hops_given, 1 << 20));  // beyond: the whole graph anyway
  constexpr size_t kMaxLines = 500;
  Neighbourhood around = NodesAround(graph, *centre, hops, kMaxLines);
  std::string text = "graph():";
  uint32_t next = 0;
  for (const NearNode& near : around.nodes) {
    uint32_t position = graph.PositionOf(near.node);
    if (position != next) text += fmt::format("\n    ... {} node(s)", position - next);
    text += fmt::format("\n    {}", PrintFxNode(graph, *near.node));
    next = position + 1;
  }
  if (next != graph.size()) text += fmt::format("\n    ... {} node(s)", graph.size() - next);
  ctx.out.AddBlock(text);
  ctx.out.Styled(Style::kDim, "  {} node(s) within {} hop(s) of %{}{}", around.nodes.size(), hops, centre->name(),
                 around.truncated ? fmt::format(" (the nearest {}; focus NODE K --max N lists more)", kMaxLines) : "");
  return Status::Ok();
}

constexpr const char* kDrawFlags = "[--inputs] [--scale F] [--max-pixels N] [--fold | --by line|function|stream]";

// dump's drawing flags onto `dot`: each refused, with what it takes, when
// its value or the format does not fit (a dump that ignored one would write
// something else than asked).
Status ApplyDrawFlags(const CommandFlags& flags, std::string_view format, DotOptions& dot) {
  const bool draws = format == "dot" || format == "svg" || format == "png";
  if (flags.Has("--inputs")) {
    if (!draws) return Status::Errorf("--inputs is for the drawings (dot, svg, png), not {}", format);
    dot.draw_all_inputs = true;
  }
  if (const std::string* text = flags.Value("--scale")) {
    if (format != "svg" && format != "png") {
      return Status::Errorf("--scale sizes a rendered drawing (svg, png), not {}", format);
    }
    double scale = 0;
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), scale);
    if (ec != std::errc() || end != text->data() + text->size() || !(scale > 0) || !std::isfinite(scale)) {
      return UsageError(
          fmt::format("--scale F: F is a number above 0 (0.5 halves the drawing, 2 doubles it), not '{}'", *text));
    }
    dot.scale = scale;
  }
  if (const std::string* text = flags.Value("--max-pixels")) {
    if (format != "png") return Status::Errorf("--max-pixels caps a png's pixels, not {}'s", format);
    uint64_t cap = 0;
    auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), cap);
    if (ec != std::errc() || end != text->data() + text->size() || cap == 0) {
      return UsageError(
          fmt::format("--max-pixels N: N is a whole number of pixels above 0 (width x height), not '{}'", *text));
    }
    dot.max_pixels = cap;
  }
  return Status::Ok();
}

Status Show(CommandContext& ctx) {
  // `show compile ID`: one compile of a loaded log, as `compiles ID` shows it.
  if (!ctx.args.empty() && ctx.args[0].text == "compile") {
    if (ctx.args.size() != 2) return UsageError("show compile ID");
    std::vector<Word> rest(ctx.args.begin() + 1, ctx.args.end());
    CommandContext sub{ctx.session, ctx.interpreter, rest, ctx.out, ctx.flags};
    return CompilesCommand(sub);
  }
  if (!ctx.args.empty()) return UsageError(kShowUsage);
  const std::string* format = ctx.flags.Value("--format");
  DotOptions flagged;
  AIRSCOPE_RETURN_IF_ERROR(ApplyDrawFlags(ctx.flags, format ? *format : "fx", flagged));
  AIRSCOPE_ASSIGN_OR_RETURN(std::shared_ptr<const Graph> graph, GraphFor(ctx, ctx.flags.Value("--stage")));
  if (ctx.flags.Has("--around") || ctx.flags.Has("--fold") || ctx.flags.Has("--by")) {
    if (format && *format != "fx") {
      return Status::Errorf("show --around/--fold/--by print FX text; --format {} prints the whole graph", *format);
    }
  }
  if (ctx.flags.Has("--around") && ctx.flags.Has("--by")) return Status::Error("show: --around or --by, not both");
  if (const Word* around = ctx.flags.Word("--around")) return ShowAround(ctx, *graph, around->text);
  if (ctx.flags.Has("--hops")) return Status::Error("--hops goes with --around NODE");
  if (ctx.flags.Has("--all") && ctx.flags.Has("--fold")) return Status::Error("show: --all or --fold, not both");
  bool fold = ctx.flags.Has("--fold") || (!format && !ctx.flags.Has("--all") &&
                                          graph->size() > ctx.session.settings().GetUnsigned("show.fold-above"));
  AIRSCOPE_ASSIGN_OR_RETURN(std::optional<RunKey> by, ByFlag(ctx.flags));
  if (by) return ShowRuns(*graph, *by, fold, ctx.out);
  if (fold) {
    FoldedGraph folded = FoldRepeats(*graph);
    if (!folded.blocks.empty()) {
      ctx.out.AddBlock(FoldedFxText(*graph, folded));
      ctx.out.Styled(Style::kDim, "  {} of {} nodes folded into their first alike repeat ({}; show --all prints all)",
                     folded.FoldedNodes(), graph->size(),
                     ctx.flags.Has("--fold") ? "--fold" : "more than show.fold-above nodes");
      return Status::Ok();
    }
    if (ctx.flags.Has("--fold")) ctx.out.Styled(Style::kDim, "  (no repeated blocks to fold)");
  }
  std::string note;
  DotOptions dot = DrawingOptions(ctx, *graph, format ? *format : "fx", &note);
  dot.draw_all_inputs = flagged.draw_all_inputs;
  AIRSCOPE_ASSIGN_OR_RETURN(std::string text, GraphText(*graph, format ? *format : "fx", dot));
  ctx.out.AddBlock(text);
  if (!note.empty()) ctx.out.Styled(Style::kDim, "  {}", note);
  return Status::Ok();
}

Status NodeCommand(CommandContext& ctx) {
  if (ctx.args.size() != 1) return UsageError("node NAME");
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* current, ctx.session.CurrentGraph());
  const Graph& graph = *current;
  AIRSCOPE_ASSIGN_OR_RETURN(const Node* node, FindNodeOrError(graph, ctx.args[0].text));
  DescribeNode(*node, ctx.session.registry(), ctx.out);
  return Status::Ok();
}

Status Find(CommandContext& ctx) {
  if (ctx.args.size() != 1) return UsageError("find PATTERN");
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, ctx.session.CurrentGraph());
  const std::string& pattern = ctx.args[0].text;
  size_t matches = 0;
  for (const Node* node : *graph) {
    if (!NodeMatches(*node, pattern)) continue;
    ++matches;
    ctx.out.Print("{:<24} {:<14} {:<40} {}", node->name(), OpKindName(node->op()), node->target(), ValueString(*node));
  }
  ctx.out.Styled(Style::kDim, "{} node(s) match '{}'", matches, pattern);
  return Status::Ok();
}

Status Stats(CommandContext& ctx) {
  if (!ctx.args.empty()) return UsageError("stats");
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, ctx.session.CurrentGraph());
  DescribeStats(*graph, ctx.session.registry(), ctx.out);
  return Status::Ok();
}

Status Dump(CommandContext& ctx) {
  const auto& args = ctx.args;
  std::string syntax = fmt::format("dump {} PATH [--stage S] {}", fmt::join(GraphFormatNames(false), "|"), kDrawFlags);
  if (args.size() != 2) return UsageError(syntax);
  DotOptions flagged;
  AIRSCOPE_RETURN_IF_ERROR(ApplyDrawFlags(ctx.flags, args[0].text, flagged));
  AIRSCOPE_ASSIGN_OR_RETURN(std::shared_ptr<const Graph> graph, GraphFor(ctx, ctx.flags.Value("--stage")));
  std::string mark_note;
  DotOptions dot = DrawingOptions(ctx, *graph, args[0].text, &mark_note);
  dot.draw_all_inputs = flagged.draw_all_inputs;
  dot.scale = flagged.scale;
  dot.max_pixels = flagged.max_pixels;
  std::string collapse_note;
  AIRSCOPE_RETURN_IF_ERROR(ApplyCollapseFlags(ctx.flags, *graph, args[0].text, dot, &collapse_note));
  AIRSCOPE_ASSIGN_OR_RETURN(WrittenGraph written,
                            WriteGraph(*graph, args[0].text, Interpreter::ExpandHome(args[1].text), dot));
  if (!written.printed.empty()) ctx.out.AddBlock(written.printed, Style::kData);
  if (!written.summary.empty()) ctx.out.Print("{}", written.summary);
  if (!written.note.empty()) ctx.out.Styled(Style::kDim, "  {}", written.note);
  if ((args[0].text == "dot" || args[0].text == "svg" || args[0].text == "png") && written.printed.empty()) {
    // Never silently fewer nodes than the graph has (help dump); the drawing's
    // own label says it too, which is all `dump FORMAT -` can carry.
    DrawnCount drawn = CountDrawn(*graph, dot);
    if (!collapse_note.empty()) ctx.out.Styled(Style::kDim, "  {}", collapse_note);
    std::vector<std::string> apart;  // the nodes not drawn as nodes of their own, and where they are
    if (drawn.grouped > 0) {
      apart.push_back(fmt::format("{} in boxes (inputs only a box's nodes read among them)", drawn.grouped));
    }
    if (drawn.bundled_inputs > 0) {
      apart.push_back(
          fmt::format("{} input{} with one user drawn as a line of that user's label (--inputs draws "
                      "every input as a node)",
                      drawn.bundled_inputs, drawn.bundled_inputs == 1 ? "" : "s"));
    }
    if (!apart.empty()) {
      ctx.out.Styled(Style::kDim, "  drew {} of {} nodes: {}", drawn.nodes, graph->size(), fmt::join(apart, "; "));
    }
  }
  if (!mark_note.empty()) ctx.out.Styled(Style::kDim, "  {}", mark_note);
  if (!dot.hazards.empty() && written.printed.empty()) {
    ctx.out.Styled(Style::kDim, "  marked {} hazard(s) check finds (help check)", dot.hazards.size());
  }
  return Status::Ok();
}

CommandCompleter Always(CompletionKind kind) {
  return [kind](const std::vector<std::string>&) { return CompletionRule{kind, {}}; };
}

}  // namespace

void RegisterGraphCommands(CommandTable& table) {
  table.Add(
      {"load",
       kLoadUsage,
       "load a graph (FX text, readable code, airscope JSON, TorchAir pbtxt), a log (TORCH_TRACE, TORCH_LOGS) or a "
       "TORCH_COMPILE_DEBUG tree",
       "Loads a graph and makes it current. The format is recognised from the content, not the name: the\n"
       "rows of the registry of input formats (formats/registry.h), tried in this order ([...]: the endings\n"
       "a graph's default name drops):\n" +
           InputFormatsHelp() +
           "FX graph text is what print(gm.graph) prints (torch 1.x `[#users=N]` or 2.x `[num_users=N]`). Shapes\n"
           "come from the annotations; the op registry infers the rest. The graph is named after the file\n"
           "(mlp.graph.txt -> mlp) unless `as NAME` is given; loading a name again replaces that graph. A file\n"
           "that fails to load changes nothing. In a script, a relative PATH that does not exist from the working\n"
           "directory is tried relative to the script's own directory. print(gm.graph) states no shapes, so costs\n"
           "are unknown: --shapes x=f32[8,64],y=f32[4] (or later set input x f32[8, 64]) gives the inputs theirs\n"
           "and infers the rest.\n"
           "Logs load every graph they hold, named ID:KIND by compile id (`as NAME` puts NAME: in front), and\n"
           "compiles, guards and recompiles read them:\n"
           "- a TORCH_TRACE log (glog lines with JSON records, the input of tlparse): 0/0:aot_forward_graph; a\n"
           "  directory of dedicated_log_torch_trace_rank_N logs: rank1:0/0:dynamo_output_graph, and where the\n"
           "  ranks diverge: compile ids, guards, graphs and recompile reasons (object ids are not a difference,\n"
           "  nor the `Guard latency = X us` line torch appends to a guard dump: one timed evaluation, it differs\n"
           "  between processes). Guard latencies are shown apart, as timings, only when the slowest rank took\n"
           "  at least 2x the fastest and 10 us more: one evaluation of a few us varies that much on one machine.\n"
           "- TORCH_LOGS text as torch prints it (glog `V0515 ... file.py:1157] [0/0] [__graph_code] ...`, the\n"
           "  2023-24 `[2025-02-06 16:46:56,300] [0/0] torch._dynamo...: [DEBUG] ...`, torch 2.0's prefix on a\n"
           "  message's first line only, prefixes stripped as issues paste them, mixed with other output, ranks\n"
           "  interleaved) and TorchAir's `[INFO] TORCHAIR(pid,exe):...` lines: TRACED GRAPH blocks (0/0:dynamo,\n"
           "  0/0:aot_forward, 0/0:aot_backward, 0/0:aot_joint, !0/1/0:compiled_autograd), TorchAir's printed FX\n"
           "  graphs (0/0:torchair_graph for `graph: graph():`, torchair_before_sym_input_optimization,\n"
           "  torchair_after_view_to_reshape for `[forward] after [view_to_reshape] execution, graph is ...`),\n"
           "  guards, recompile messages, graph breaks, dynamic-shape symbols, cache-limit warnings, graph sizes\n"
           "  and TorchAir's AclGraph runtime messages. A log that prints no compile id numbers its graphs g1, g2,\n"
           "  ...; airscope invents none. TorchAir's lines carry no compile id: a TorchAir graph is given the\n"
           "  compile whose lines came last before it in its process (TorchAir compiles inside Dynamo's backend\n"
           "  call). The graph a log printed twice (`graph` repeats `graph_code`) is loaded once; artifacts\n"
           "  airscope does not read are counted. A graph that does not parse is a warning with the log's\n"
           "  line:col; the rest of the log loads. Logs are read line by line (any size, Ctrl-C stops between\n"
           "  lines). TorchAir's `compiler inputs` graph takes its shapes from the `input N: FakeTensor(...)` lines\n"
           "  before it (npu_fx_compiler.py:641-644), and so do TorchAir's later printouts of that graph.\n"
           "  A Dynamo graph takes its tensors' sizes from the graph-sizes table of its compile\n"
           "  (TORCH_LOGS=graph_sizes), which states no dtype: they print as ?[SIZES], with bytes and cost\n"
           "  unknown; a stated value is never replaced.\n"
           "- a TORCH_COMPILE_DEBUG tree (formats/torch_compile_debug.h has the layout and its sources):\n"
           "  torch_compile_debug/ (its run_* directories, `rankN:` or `runK:` in front when there are several),\n"
           "  one run, its torchair/ (npugraph_ex/), or one model__K: model__0:dynamo (dynamo_out_graph.txt),\n"
           "  model__0:forward:graph (000_aot_forward_graph.txt), model__0:forward:after_view_to_reshape, GE mode's\n"
           "  .pbtxt stages, graph_1:dynamo_original / graph_1:dynamo_optimized (config.debug.graph_dump .py\n"
           "  files, print_readable code in reduce-overhead mode; GE builder code is listed, not loaded),\n"
           "  inductor:<folder>:fx_graph_readable, and the graphs of the tree's logs (torchair/debug.log,\n"
           "  torchdynamo/debug.log, the tlparse/ TORCH_TRACE log of the run's pid). Capture dumps and output code\n"
           "  are listed. A damaged or partial tree loads what it can: a warning names each file that did not\n"
           "  (lost NNN dumps, empty or cut files, JSON that does not parse). compare replays its recorded stages.\n"
           "  Only regular files are read there: a FIFO or device in a tree is a warning, never opened.\n"
           "A capture dump (NPUGraph.debug_dump's JSON, or what timeline --aclgraph-json writes) becomes a name\n"
           "whose tasks check, timeline and runstats read (help timeline); times outside 0..1e12 us are refused.\n"
           "A pipe or FIFO (load /dev/stdin) is read once, whole, and recognised from its bytes like a file; a\n"
           "FIFO gets 5 s for its first bytes. Devices are refused.",
       Load,
       [](const std::vector<std::string>& before) {
         if (before.empty()) return CompletionRule{CompletionKind::kFile, {}};
         return before.size() == 1 ? CompletionRule{CompletionKind::kFixed, {"as"}} : CompletionRule{};
       },
       {{"--shapes", "NAME=SHAPE,...", {}}}});
  table.Add({"graphs", "graphs", "list loaded graphs (* marks the current one)",
             "Lists every loaded graph with its node count, source format and path. The current graph,\n"
             "the one other commands work on, is marked with *.",
             Graphs, nullptr});
  table.Add({"use", "use NAME", "make a loaded graph the current one", "Makes NAME the current graph.", Use,
             Always(CompletionKind::kGraph)});
  table.Add(
      {"show",
       kShowUsage,
       "print the current graph (default: FX text; a big graph's repeated layers fold)",
       fmt::format("Prints the current graph as torch prints it: FX graph text (default), print_readable code,\n"
                   "airscope JSON, DOT, ... (formats: {}). Once the pipeline has run, the current graph is the\n"
                   "stage at its cursor; --stage S prints another stage (a number, a pass name, input or last).\n"
                   "A graph of more than show.fold-above nodes (default 1000) prints folded, in FX text: each\n"
                   "block of repeats (`repeats` lists them: an LLM's layers, the experts inside one) prints once,\n"
                   "with # lines naming the repeats left out, their first and last node, and every repeat whose\n"
                   "shapes or constants differ from the one printed. --fold folds a smaller graph, --all prints\n"
                   "every node. --around NODE prints only the nodes within --hops K (default 2) of NODE, up and\n"
                   "down its data edges (`focus` lists the same as a table).\n"
                   "--by line|function|stream prints one line per run of consecutive nodes from one source line, one\n"
                   "function, or on one stream, with its first and last node (folded as above: the repeats left out\n"
                   "are a line each). The source is the `# File: PATH:LINE in FUNCTION, code: ...` comment torch's\n"
                   "print_readable writes where a node's stack trace changes (so it holds for the nodes after it, up\n"
                   "to the next one or a `# No stacktrace found` line); it names the innermost frame only. torch's\n"
                   "FX text carries no nn_module_stack, so airscope groups by that frame and does not name modules.\n"
                   "--inputs: with --format dot, every input a node (help dump says how a drawing bundles them).\n"
                   "show compile ID: one compile of the loaded log or tree, as `compiles ID` shows it.",
                   fmt::join(GraphFormatNames(true), ", ")),
       Show,
       [](const std::vector<std::string>& before) {
         return before.empty() ? CompletionRule{CompletionKind::kFixed, {"compile"}} : CompletionRule{};
       },
       {{"--format", "F", {CompletionKind::kFixed, GraphFormatNames(true)}},
        {"--stage", "S", {CompletionKind::kStage, {}}},
        {"--around", "NODE", {CompletionKind::kNode, {}}},
        {"--hops", "K", {}},
        {"--by", "line|function|stream", {CompletionKind::kFixed, {"line", "function", "stream"}}},
        {"--fold", "", {}},
        {"--all", "", {}},
        {"--inputs", "", {}}}});
  table.Add({"node", "node NAME", "everything about one node: op, target, args, value, users, cost",
             "Shows a node's op kind, target, args and kwargs, the value it produces (shape, dtype, strides,\n"
             "device; whether annotated in the file or inferred), its stream, inputs and users, and what the\n"
             "op registry knows (category, FLOPs and bytes moved).",
             NodeCommand, Always(CompletionKind::kNode)});
  table.Add({"find", "find PATTERN", "list nodes whose name or target matches PATTERN",
             "Lists nodes whose name, target or op key matches PATTERN: a glob with * and ?, or, without\n"
             "wildcards, a substring. Example: find aten.mm   find 'view*'",
             Find, Always(CompletionKind::kNode)});
  table.Add({"stats", "stats", "node counts, op histogram, inputs/outputs, tensor bytes, FLOPs",
             "Summarises the current graph: nodes by op kind, inputs with shapes, number of outputs, total\n"
             "bytes of all tensors the graph produces (where shapes are known), total FLOPs and bytes moved\n"
             "from the op registry's cost model, and the op histogram (keys as torch's str(node.target)).",
             Stats, nullptr});
  table.Add(
      {"dump",
       fmt::format("dump FORMAT PATH [--stage S] {}", kDrawFlags),
       "write the current graph (or a stage) to a file",
       fmt::format(
           "Writes the current graph to PATH in FORMAT ({}); svg/png are rendered by\n"
           "graphviz (graphs over 2,000 drawn nodes are laid out with sfdp). --stage S writes a pipeline stage\n"
           "instead (a number, a pass name, input or last). PATH - prints the bytes to standard output\n"
           "(any format: dump png - > g.png). A regular file is replaced atomically (a temporary file renamed "
           "into place,\n"
           "so a failed dump leaves the old file and no partial one) and keeps its mode; a symlink is\n"
           "followed; a device or FIFO is written in place; missing directories are created. Ctrl-C\n"
           "stops an svg/png layout. For a dump after every stage, set dump.dir, dump.formats and dump.when.\n"
           "dot, svg and png mark the hazards `check` finds on the graph it checks (the last stage once the\n"
           "pipeline has run to its end, or a loaded graph already lowered): red borders and notes on both\n"
           "nodes of each, a red edge between them (help check). Each tagged_event_wait gets a dashed edge,\n"
           "labelled with the tag, from the tagged_event_record it waits for.\n"
           "Inputs with one user: in dot, svg and png (and the report's drawings, the stage dumps' too) an\n"
           "input node (placeholder or get_attr) that exactly one node uses is not drawn as a node: its\n"
           "user's label gains a line `+2 inputs: primals_6 f32[384, 128], primals_7 f32[384]` (three named,\n"
           "then a count), and the drawing's label says how many. That is the whole rule: torch's graph does\n"
           "not say which inputs are parameters, so airscope does not guess. Inputs with no user or several\n"
           "stay nodes, and so do those a hazard mark names. --inputs draws every input as a node.\n"
           "In-place writes: a node that writes a buffer in place (an op the registry marks in-place, such as\n"
           "copy_ or add_, writes its first argument; an op with out= writes that tensor) gets a dashed purple\n"
           "edge labelled `writes` to the next node, in graph order, that reads that buffer through any alias\n"
           "(views share their base's buffer, as the reinplace passes see it), unless that node reads the\n"
           "writer's own value (the data edge says it). It does not move the layout. Nodes need shapes for\n"
           "this: a graph loaded without them gets no such edges.\n"
           "--scale F (svg, png) multiplies the drawing's size by F through graphviz's dpi (72 for svg, 96 for\n"
           "png, times F). --max-pixels N (png) caps width x height at N pixels; the default is {} million\n"
           "(160 MB decoded). A larger drawing is drawn smaller to fit, and the dump says from what size and by how\n"
           "much; no side is over {} px either (cairo draws none over 32767). A png dump says its size in px.\n"
           "--fold draws one repeat of each repeated block (`repeats`; and of the blocks inside it) and the\n"
           "repeats before and after it as one 3-D box each, labelled with the repeats, their nodes and every\n"
           "way one differs from the drawn repeat; edges to and from a box are one edge each, labelled xN for N\n"
           "data edges. --by line|function|stream draws each run of 2 or more consecutive nodes from one source\n"
           "line, function or stream (show --by lists them) as such a box. Inputs that only a box's nodes read\n"
           "are drawn in it. Event and in-place-write edges are drawn only between nodes drawn as themselves.",
           fmt::join(GraphFormatNames(false), ", "), kDefaultMaxPngPixels / 1'000'000, kMaxPngSide),
       Dump,
       [](const std::vector<std::string>& before) {
         if (before.empty()) return CompletionRule{CompletionKind::kFixed, GraphFormatNames(false)};
         return before.size() == 1 ? CompletionRule{CompletionKind::kFile, {}} : CompletionRule{};
       },
       {{"--stage", "S", {CompletionKind::kStage, {}}},
        {"--inputs", "", {}},
        {"--scale", "F", {}},
        {"--max-pixels", "N", {}},
        {"--fold", "", {}},
        {"--by", "line|function|stream", {CompletionKind::kFixed, {"line", "function", "stream"}}}}});
}

}  // namespace airscope

// `minify "LINE"`: the smallest graph on which LINE still fails the same way
// (repl/minify.h does the work), kept in the session as NAME_min and, with
// --out DIR, written as a reloadable graph, a script that reproduces the
// failure and a repro.py for the real NPU (repl/minify_output.h).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "core/file_util.h"
#include "core/fx/readable.h"
#include "repl/cache_state.h"
#include "repl/command_table.h"
#include "repl/interpreter.h"
#include "repl/minify.h"
#include "repl/minify_output.h"
#include "repl/minify_sizes.h"
#include "repl/progress_line.h"
#include "repl/session.h"
#include "repl/tokenizer.h"

namespace airscope {
namespace {

// LINE is one word: quote it when it has spaces (`minify "expect nodes 3"`).
constexpr const char* kMinifyUsage = "minify LINE [--same-error|--match RE] [--out DIR] [--max-time S]";

Result<double> ParseSeconds(const std::string& text) {
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(value) || value <= 0) {
    return Status::Errorf("--max-time: '{}' is not a number of seconds > 0", text);
  }
  return value;
}

// The lines of the session's transcript that defined what a LINE may use
// (user passes and their registration, op schemas, decompositions, module
// declarations, the device's preset and parameters), in the order they ran;
// failed and listing lines are left out.
std::vector<std::string> DefinitionLines(CommandContext& ctx) {
  std::vector<std::string> lines;
  for (const Session::TranscriptEntry& entry : ctx.session.transcript()) {
    if (!entry.error.empty()) continue;
    Result<std::vector<Word>> words = Tokenize(entry.text.substr(0, entry.text.find('\n')));
    if (!words.ok() || words->size() < 2) continue;
    Result<const CommandSpec*> spec = ctx.interpreter.table().Lookup((*words)[0].text);
    if (!spec.ok()) continue;
    const std::string& command = (*spec)->name;
    const std::string& what = (*words)[1].text;
    bool defines = (command == "pass" && (what == "define" || what == "add" || what == "remove")) ||
                   (command == "op" && (what == "define" || what == "inplaceable")) ||
                   (command == "decomp" && what == "add") || command == "module" ||
                   command == "device";  // `device PRESET`, `device set PARAM VALUE`
    // `-c 'a; b'` keeps the space after the ';': min.airscript's lines start at their command.
    if (defines) lines.push_back(entry.text.substr(std::min(entry.text.find_first_not_of(" \t"), entry.text.size())));
  }
  return lines;
}

Status WriteOutputs(CommandContext& ctx, const MinifyResult& r, const std::string& line, const std::string& dir) {
  const Settings& settings = r.settings;  // only the settings the failure needs
  // Built first, written after: a graph the writer cannot print leaves no half set of files.
  std::vector<std::pair<std::string, std::string>> files = {{"min.readable.py", PrintReadable(*r.minimal)}};
  // The script LINE sources, with the calls minify shrank: written beside
  // min.airscript as min.NAME, which LINE then sources instead.
  std::string min_line = line;
  std::vector<CallSpec> calls;
  if (!r.script_path.empty()) {
    size_t slash = r.script_path.rfind('/');
    std::string script = "min." + (slash == std::string::npos ? r.script_path : r.script_path.substr(slash + 1));
    files.emplace_back(script, fmt::format("{}\n", fmt::join(r.script_lines, "\n")));
    min_line = "source " + script;
    for (const ScriptCall& call : ScriptCalls(r.script_lines, ctx.interpreter.table())) calls.push_back(call.spec);
  }
  files.emplace_back("min.airscript",
                     MinAirscriptText(r.graph_name, min_line, settings, DefinitionLines(ctx),
                                      r.dropped_passes.empty() ? std::vector<std::string>{} : r.passes, r.failure));
  files.emplace_back("repro.py", ReproPyText(*r.minimal, r.graph_name, line, settings, r.failure, calls));
  std::vector<std::string> written;
  for (const auto& [name, text] : files) {
    std::string path = fmt::format("{}/{}", dir, name);
    AIRSCOPE_RETURN_IF_ERROR(WriteFile(path, text));
    written.push_back(path);
  }
  ctx.out.Print("  wrote {}", fmt::join(written, ", "));
  return Status::Ok();
}

Status MinifyCommand(CommandContext& ctx) {
  if (ctx.args.size() != 1) return UsageError(kMinifyUsage);
  if (ctx.interpreter.bisecting()) {
    ctx.interpreter.RefuseNestedBisect();
    return Status::Error(
        "minify inside a bisect's or minify's condition (a script that sources itself?): refused, since every "
        "level would run its condition on every graph it tries");
  }
  MinifyOptions options;
  options.line = ctx.args[0].text;
  const std::string* match = ctx.flags.Value("--match");
  if (match && ctx.flags.Has("--same-error"))
    return Status::Error("minify: --same-error and --match exclude each other");
  if (match) options.match = *match;
  if (const std::string* seconds = ctx.flags.Value("--max-time")) {
    AIRSCOPE_ASSIGN_OR_RETURN(options.max_seconds, ParseSeconds(*seconds));
  }
  std::optional<std::string> out_dir;
  if (const std::string* dir = ctx.flags.Value("--out")) out_dir = Interpreter::ExpandHome(*dir);
  ProgressLine progress;
  options.progress = [&progress](const MinifyProgress& p) {
    progress.Update(fmt::format("minify: {} node(s) left, {} tries, {:.1f} s", p.nodes, p.tries, p.seconds));
  };
  // Each try starts with an empty compile cache: calls the session made are
  // not replayed, so a LINE that needs them must make them (a script).
  uint64_t session_calls = 0;
  if (const Session::Entry* entry = ctx.session.current(); entry && entry->cache && entry->cache->frame) {
    session_calls = entry->cache->frame->calls();
  }
  Result<MinifyResult> minified = [&] {
    Interpreter::BisectScope scope(ctx.interpreter);
    return Minify(ctx.interpreter, options);
  }();
  if (!minified.ok()) return minified.status();
  const MinifyResult& r = *minified;

  ctx.out.Styled(Style::kAccent, "minify: '{}' from {} to {} compute node(s) ({} nodes in all) in {} tries",
                 r.graph_name, r.original_nodes, r.minimal_nodes, r.minimal->size(), r.tries);
  ctx.out.Print("  kept: {}", r.matched);
  if (session_calls > 0) {
    ctx.out.Styled(Style::kDim,
                   "  note: the session's {} call(s) of '{}' were not replayed in the tries (each starts with an "
                   "empty compile cache); a failure that needs them needs them in a script LINE sources",
                   session_calls, r.graph_name);
  }
  ctx.out.Print("  failure: {}", r.failure);
  if (!r.stopped.ok()) {
    ctx.out.Styled(Style::kBad,
                   "  stopped early ({}): this is the smallest failing graph found so far, not a minimal one",
                   r.stopped.message());
  } else if (r.minimal_nodes == r.original_nodes && r.minimal->size() == r.original->size()) {
    ctx.out.Print("  no node could be removed: every one is needed for the failure");
  }
  if (!r.dropped_settings.empty()) {
    ctx.out.Print("  settings not needed (back at airscope's default for the result): {}",
                  fmt::join(r.dropped_settings, ", "));
  }
  if (!r.needed_settings.empty()) ctx.out.Print("  settings needed: {}", fmt::join(r.needed_settings, ", "));
  if (!r.dropped_passes.empty()) {
    ctx.out.Print("  passes not needed: {}; the pipeline the failure needs: {}", fmt::join(r.dropped_passes, ", "),
                  fmt::join(r.passes, ","));
  }
  if (!r.dropped_calls.empty()) ctx.out.Print("  calls not needed: {}", fmt::join(r.dropped_calls, "; "));
  for (const std::string& call : r.shrunk_calls) ctx.out.Print("  call shrunk: {}", call);
  if (!r.shrunk_inputs.empty()) ctx.out.Print("  input sizes shrunk: {}", fmt::join(r.shrunk_inputs, ", "));
  LoadedGraph loaded;
  loaded.graph = r.minimal;
  loaded.path = fmt::format("minify of '{}'", r.graph_name);
  if (const Session::Entry* entry = ctx.session.Find(r.graph_name)) loaded.modules = entry->loaded.modules;
  if (out_dir) AIRSCOPE_RETURN_IF_ERROR(WriteOutputs(ctx, r, options.line, *out_dir));
  std::string name = r.graph_name + "_min";
  bool replaced = false;
  ctx.session.AddGraph(name, std::move(loaded), &replaced);
  ctx.out.Print("  the minimal graph is now the current graph, '{}' (use {} to go back)", name, r.graph_name);
  return Status::Ok();
}

}  // namespace

void RegisterMinifyCommand(CommandTable& table) {
  table.Add({"minify",
             kMinifyUsage,
             "shrink the current graph to the fewest nodes on which LINE still fails the same way",
             "Runs LINE (any command line, quoted; `source FILE` too) against smaller and smaller copies of\n"
             "the current graph, in-process, and keeps a copy only when LINE still fails with the same\n"
             "failure: by default the same error message once node names (of the graph or the copy, in a\n"
             "target too) become <node> and numbers of fewer than 6 digits become N (6 digits and more are\n"
             "kept: ACL's error codes, 107027, 507903); --same-error says so explicitly. --match RE instead\n"
             "keeps a copy whose error the regular expression RE (ECMAScript) finds. Passing, or failing any\n"
             "other way, never counts. LINE must fail now, and fail the same way on a retry (else: flaky).\n"
             "\n"
             "What is shrunk: first the nodes of the loaded graph (stage 0, not the pipeline's cursor), by\n"
             "delta debugging (ddmin: halves first, then smaller chunks, until no single node can go). A\n"
             "removed node that a kept node reads becomes an input (a placeholder) of the same name, shape and\n"
             "dtype; a kept getitem of a removed node becomes that input itself; inputs nothing reads are\n"
             "dropped; the output returns every kept node nothing kept reads. Then the settings (`set`, the\n"
             "config.* switches among them): each one that differs from airscope's default is reset to it, one\n"
             "at a time, and stays reset when LINE still fails the same way; min.airscript and repro.py carry\n"
             "only the ones the failure needs (the session's own settings are not changed). Then, when LINE\n"
             "steps the current graph's pipeline (run, step, ...), its pass list: each pass whose removal\n"
             "leaves the same failure is dropped, one at a time; min.airscript then sets the shorter list\n"
             "(`pipeline set`). `capture`, `call` and the device commands compile with the default list, not\n"
             "the pipeline's: for them the pass list is not shrunk.\n"
             "Then the calls, when LINE is `source FILE`: FILE's `call` lines are LINE's calls (calls the session\n"
             "made before minify are not replayed: each try starts with an empty compile cache, so put the calls\n"
             "a failure needs in the script). First the fewest calls that still fail the same way (none at all\n"
             "is tried first, then ddmin; a dropped call runs as a blank line), then in each kept call each size\n"
             "of each input, searched down: 1 first, then by halving between 1 and the size (as if failing grew\n"
             "with the size: about log2(size) tries a dim); an input with strides that are not contiguous keeps\n"
             "its sizes. FILE is never written: each try runs its changed lines in its place. A call names the\n"
             "graph's inputs, so a node cut that changes them (a cut value becomes an input, an input nothing\n"
             "reads goes) makes the calls fail otherwise: with calls, fewer nodes can go. Last, the graph's\n"
             "input sizes (each static dim of each input alike, in rounds while one shrinks, at most 4): a smaller\n"
             "size is a candidate only when the op registry infers every shape of the graph again at it (a size\n"
             "baked into a view, an op that refuses it: no candidate, the size stays). Sizes that must be equal\n"
             "in two inputs (mm's inner dim) are tried one at a time, so they stay.\n"
             "\n"
             "Each try runs LINE with the copy as the current graph's loaded graph, a fresh pipeline (the\n"
             "current one's pass list, breakpoints and skips, its cursor at stage 0) and compile cache (empty\n"
             "but for the logs the graph was loaded with), and the settings and device as they were before\n"
             "minify (memory that earlier calls or captures still hold counts: a size found then is smaller\n"
             "than a fresh airscope needs); all of it is put back after the try, so LINE changes nothing. A\n"
             "LINE that loads a graph is refused (load first, then minify); the graph that LINE loaded stays\n"
             "loaded. LINE must also fail the same way with an identical copy of the graph in its place (one\n"
             "try before the search): one that does not reads something else than the graph minify shrinks,\n"
             "and is refused.\n"
             "Graphs loaded from logs (TORCH_LOGS, TORCH_TRACE, a debug tree) minify like any other, but\n"
             "`compare`'s divergence is not minified: a recorded stage is TorchAir's output for the whole\n"
             "recorded input, and what TorchAir would make of a part of it is not in the recording, so a cut\n"
             "graph has no record to be compared with (cutting the record alike would assume how TorchAir's\n"
             "passes act on a part, which airscope does not know). `compare` refuses a graph that is not the\n"
             "one the recording holds, so a minify of it stops at the copy try; `compare --isolated` narrows a\n"
             "divergence to the one stretch of passes that makes it, between two recorded graphs.\n"
             "The result becomes the current graph NAME_min. Ctrl-C, or --max-time S seconds, stops the search\n"
             "and keeps (and writes) the smallest failing graph found so far. On a terminal a progress line\n"
             "shows the nodes left, the tries and the time. The result is deterministic.\n"
             "\n"
             "--out DIR writes (atomically, creating DIR):\n"
             "  min.readable.py  the minimal graph as print_readable prints it; `load` reads it back\n"
             "  min.airscript    loads it, repeats the session's definitions as they ran (pass define/add/\n"
             "                   remove, op define/inplaceable, decomp add, module), sets the settings (and\n"
             "                   pass list) the failure needs, runs LINE: `airscope DIR/min.airscript` fails\n"
             "                   there (exit 1) the same way. `device` lines are repeated too. Plugins are not\n"
             "                   written: a failure that needs them needs them added.\n"
             "  min.FILE         when minify shrank FILE's calls (LINE `source FILE`): FILE without the calls\n"
             "                   dropped, the others at their smaller sizes; min.airscript sources it instead\n"
             "                   (paths in it are as in FILE).\n"
             "  repro.py         for the real NPU: the graph built with torch.fx, compiled with\n"
             "                   torchair.get_npu_backend(compiler_config=config) under the session's config.*\n"
             "                   values, mode and dynamic, called once with random inputs of the graph's shapes\n"
             "                   (symbolic sizes given as 2), or once per call of min.FILE at its shapes.\n"
             "                   call_module nodes and targets that are not Python names raise\n"
             "                   NotImplementedError there. Nothing runs at import. The failure\n"
             "                   is airscope's simulation's; repro.py is how to ask the real stack.\n"
             "Example: minify \"capture\" --out min",
             MinifyCommand,
             nullptr,
             {{"--same-error", "", {}},
              {"--match", "RE", {}},
              {"--out", "DIR", CompletionRule{CompletionKind::kFile, {}}},
              {"--max-time", "S", {}}}});
}

}  // namespace airscope

// expect: assertions that turn a script into a test. Each form states what
// it checks; a failure says "expected X, actual Y" and fails the line.
#include <charconv>

#include <fmt/format.h>

#include "core/fx/fx_text.h"
#include "core/interrupt.h"
#include "core/ir/graph_match.h"
#include "core/scanner.h"
#include "repl/cache_state.h"
#include "repl/graph_loader.h"
#include "repl/command_table.h"
#include "repl/expect_facts.h"
#include "repl/graph_views.h"
#include "repl/interpreter.h"

namespace airscope {
namespace {

constexpr std::string_view kExpectSyntax =
    "expect nodes N [PATTERN] | graphs N | graph NAME | lint | node NAME [FIELD VALUE] | no node NAME |\n"
    "       graph matches PATH |\n"
    "       stage PASS changed|unchanged|skipped|failed | stage PASS nodes N | remark PASS contains|lacks \"TEXT\" |\n"
    "       hit | miss | cache N | compiles N | eager N | guards N [ENTRY|ID] | recompiles N |\n"
    "       captures|recaptures|replays N [key KEY] | tasks N on STREAM | [no] slice NAME [on STREAM] |\n"
    "       output \"COMMAND\" contains|lacks \"TEXT\" | error \"COMMAND\" [contains \"TEXT\"]";

constexpr auto Mismatch = ExpectMismatch;
std::string WithoutSpaces(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c != ' ') out += c;
  }
  return out;
}

Result<const Graph*> CurrentGraph(CommandContext& ctx) { return ctx.session.CurrentGraph(); }

Status ExpectNodes(CommandContext& ctx, const std::vector<Word>& args) {
  if (args.empty() || args.size() > 2) return Status::Error("usage: expect nodes N [PATTERN]");
  AIRSCOPE_ASSIGN_OR_RETURN(size_t want, ParseExpectCount(args[0]));
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, CurrentGraph(ctx));
  size_t count = 0;
  for (const Node* node : *graph) count += args.size() == 1 || NodeMatches(*node, args[1].text);
  if (count == want) return Status::Ok();
  std::string what = args.size() == 1 ? "node count" : fmt::format("nodes matching '{}'", args[1].text);
  return Mismatch(what, fmt::format("{}", want), fmt::format("{}", count));
}

Status ExpectGraphs(CommandContext& ctx, const std::vector<Word>& args) {
  if (args.size() != 1) return Status::Error("usage: expect graphs N");
  AIRSCOPE_ASSIGN_OR_RETURN(size_t want, ParseExpectCount(args[0]));
  size_t count = ctx.session.graphs().size();
  if (count == want) return Status::Ok();
  return Mismatch("graph count", fmt::format("{}", want), fmt::format("{}", count));
}

Status ExpectLint(CommandContext& ctx, const std::vector<Word>& args) {
  if (!args.empty()) return Status::Error("usage: expect lint");
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, CurrentGraph(ctx));
  Status lint = graph->Lint();
  if (lint.ok()) return Status::Ok();
  return Mismatch("lint", "a clean graph", lint.message());
}

Status ExpectNode(CommandContext& ctx, const std::vector<Word>& args) {
  if (args.empty() || (args.size() == 2 && args[1].text != "exists")) {
    return Status::Error("usage: expect node NAME [exists | op|target|shape|stream|users VALUE]");
  }
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, CurrentGraph(ctx));
  const std::string& name = args[0].text;
  const Node* node = graph->Find(name);
  if (!node) return Mismatch(fmt::format("node '{}'", name), "it to exist", "no such node");
  if (args.size() < 3) return Status::Ok();
  const std::string& field = args[1].text;
  // The value may be several words (`shape f32[1, 32, 112, 112]` unquoted).
  std::string want = args[2].text;
  for (size_t i = 3; i < args.size(); ++i) want += " " + args[i].text;
  std::string actual;
  bool equal = false;
  if (field == "op") {
    actual = OpKindName(node->op());
    equal = actual == want;
  } else if (field == "target") {
    actual = node->target();
    equal = actual == want || OpHistogramKey(*node) == want;
  } else if (field == "shape" || field == "value") {
    actual = ValueString(*node);
    equal = WithoutSpaces(actual) == WithoutSpaces(want);
  } else if (field == "stream") {
    actual = StreamString(*node);
    equal = actual == want || (want.empty() && node->stream().empty());
  } else if (field == "users") {
    actual = fmt::format("{}", node->users().size());
    equal = actual == want;
  } else {
    return ColumnErrorf(args[1].column, "unknown node field '{}' (op, target, shape, stream, users)", field);
  }
  if (equal) return Status::Ok();
  return Mismatch(fmt::format("node '{}' {}", name, field), fmt::format("'{}'", want), fmt::format("'{}'", actual));
}

Status ExpectNoNode(CommandContext& ctx, const std::vector<Word>& args) {
  if (!args.empty() && args[0].text == "slice") return ExpectSlice(ctx, {args.begin() + 1, args.end()}, false);
  if (args.size() != 2 || args[0].text != "node") return Status::Error("usage: expect no node NAME | no slice NAME");
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, CurrentGraph(ctx));
  if (!graph->Find(args[1].text)) return Status::Ok();
  return Mismatch(fmt::format("node '{}'", args[1].text), "no such node", "it exists");
}

Status ExpectOutput(CommandContext& ctx, const std::vector<Word>& args) {
  if (args.size() != 3 || (args[1].text != "contains" && args[1].text != "lacks")) {
    return Status::Error("usage: expect output \"COMMAND\" contains|lacks \"TEXT\"");
  }
  CommandOutput captured;
  Status status = ctx.interpreter.ExecuteCaptured(args[0].text, &captured);
  if (InterruptRequested()) return InterruptedStatus();  // an interrupted command neither failed nor passed
  if (!status.ok()) {
    return Status::Errorf("expect failed: command \"{}\" failed: {}", args[0].text, status.message());
  }
  std::string text = captured.Text();
  bool contains = text.find(args[2].text) != std::string::npos;
  bool want_contains = args[1].text == "contains";
  if (contains == want_contains) return Status::Ok();
  ctx.out.Styled(Style::kDim, "output of \"{}\" was:", args[0].text);
  ctx.out.AddBlock(text, Style::kDim);
  return Mismatch(fmt::format("output of \"{}\"", args[0].text),
                  fmt::format("{} \"{}\"", want_contains ? "to contain" : "not to contain", args[2].text),
                  want_contains ? "no such text" : "it is there");
}

Status ExpectError(CommandContext& ctx, const std::vector<Word>& args) {
  if (args.size() != 1 && !(args.size() == 3 && args[1].text == "contains")) {
    return Status::Error("usage: expect error \"COMMAND\" [contains \"TEXT\"]");
  }
  CommandOutput captured;
  Status status = ctx.interpreter.ExecuteCaptured(args[0].text, &captured);
  if (InterruptRequested()) return InterruptedStatus();  // an interrupted command neither failed nor passed
  if (status.ok()) return Mismatch(fmt::format("command \"{}\"", args[0].text), "an error", "it succeeded");
  // Show the error the command gave: the point of such a test is often its wording.
  ctx.out.Styled(Style::kDim, "error (as expected): {}", status.message());
  if (args.size() == 3 && status.message().find(args[2].text) == std::string::npos) {
    // The error's headline goes in ours; the source lines it quotes stay last.
    std::string_view headline = ErrorHeadline(status.message());
    Status mismatch = Mismatch(fmt::format("error of \"{}\"", args[0].text),
                               fmt::format("to contain \"{}\"", args[2].text), fmt::format("\"{}\"", headline));
    return Status::Error(mismatch.message() + status.message().substr(headline.size()));
  }
  return Status::Ok();
}

// The compile-cache forms: the last `call` hit / missed, the frame's entry count, the compile count.
Status ExpectCache(CommandContext& ctx, std::string_view form, const std::vector<Word>& args) {
  const CacheState* state = FindCacheState(ctx.session);
  if (form == "hit" || form == "miss") {
    if (!args.empty()) return Status::Errorf("usage: expect {}", form);
    if (!state || !state->last_call) return Mismatch("last call", std::string(form), "no call yet");
    bool hit = *state->last_call == CallOutcome::Kind::kHit;
    if (hit == (form == "hit")) return Status::Ok();
    return Mismatch(
        "last call", fmt::format("a cache {}", form),
        *state->last_call == CallOutcome::Kind::kEager ? "a miss that ran eager" : (hit ? "a hit" : "a miss"));
  }
  if (args.size() != 1) return Status::Errorf("usage: expect {} N", form);
  AIRSCOPE_ASSIGN_OR_RETURN(size_t want, ParseExpectCount(args[0]));
  size_t count = 0;
  if (form == "compiles" && state && state->trace) {
    count = state->trace->compiles.size();
  } else if (form == "compiles" && state && state->logs) {
    count = state->logs->compiles.size();
  } else if (state && state->frame) {
    count = state->frame->entries().size();
  }
  if (count == want) return Status::Ok();
  return Mismatch(form == "cache" ? "cache entries" : "compiles", fmt::format("{}", want), fmt::format("{}", count));
}

// Line `index` of the graph's FX text (line 0 is its header), or "(none)".
std::string FxLine(const Graph& graph, size_t index) {
  std::string text = PrintFxText(graph);
  size_t start = 0;
  for (size_t line = 0; line <= index; ++line) {
    start = text.find('\n', start);
    if (start == std::string::npos) return "(none)";
    ++start;
  }
  size_t end = text.find('\n', start);
  std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
  size_t first = line.find_first_not_of(' ');
  return first == std::string::npos ? "(none)" : line.substr(first);
}

Status ExpectGraphMatches(CommandContext& ctx, const std::vector<Word>& args) {
  if (args.size() == 1) return ExpectGraphLoaded(ctx, args[0]);
  if (args.size() != 2 || args[0].text != "matches")
    return Status::Error("usage: expect graph NAME | graph matches PATH");
  AIRSCOPE_ASSIGN_OR_RETURN(const Graph* graph, CurrentGraph(ctx));
  std::string path = ctx.interpreter.ResolvePath(args[1].text);
  Result<LoadedGraph> expected =
      LoadGraphFile(path, ctx.session.settings().GetUnsigned("max-file-size"), ctx.session.registry());
  if (!expected.ok()) return expected.status();
  std::string why;
  size_t at = 0;
  if (MatchGraphs(*expected->graph, *graph, &why, &at)) return Status::Ok();
  return Status::Errorf("expect failed: graph does not match {}: {}\n  expected: {}\n  actual:   {}", args[1].text, why,
                        FxLine(*expected->graph, at), FxLine(*graph, at));
}

Status Expect(CommandContext& ctx) {
  const auto& args = ctx.args;
  if (args.empty()) return Status::Errorf("usage: {}", kExpectSyntax);
  std::vector<Word> rest(args.begin() + 1, args.end());
  const std::string& form = args[0].text;
  if (form == "nodes") return ExpectNodes(ctx, rest);
  if (form == "graphs") return ExpectGraphs(ctx, rest);
  if (form == "lint") return ExpectLint(ctx, rest);
  if (form == "node") return ExpectNode(ctx, rest);
  if (form == "no") return ExpectNoNode(ctx, rest);
  if (form == "graph") return ExpectGraphMatches(ctx, rest);
  if (form == "output") return ExpectOutput(ctx, rest);
  if (form == "error") return ExpectError(ctx, rest);
  if (form == "hit" || form == "miss" || form == "cache" || form == "compiles") return ExpectCache(ctx, form, rest);
  if (form == "stage") return ExpectStage(ctx, rest);
  if (form == "remark") return ExpectRemark(ctx, rest);
  if (form == "guards") return ExpectGuards(ctx, rest);
  if (form == "recompiles") return ExpectRecompiles(ctx, rest);
  if (form == "captures" || form == "recaptures" || form == "replays") return ExpectRuntimeCount(ctx, form, rest);
  if (form == "eager") return ExpectEager(ctx, rest);
  if (form == "tasks") return ExpectTasks(ctx, rest);
  if (form == "slice") return ExpectSlice(ctx, rest, true);
  return ColumnErrorf(
      args[0].column,
      "unknown expect form '{}' (nodes, graphs, graph, lint, node, no node, graph matches, stage, "
      "remark, hit, miss, cache, compiles, eager, guards, recompiles, captures, recaptures, replays, tasks, "
      "slice, no slice, output, error)",
      form);
}

}  // namespace

void RegisterExpectCommand(CommandTable& table) {
  table.Add({"expect", "expect CONDITION", "assert something about the session (makes a script a test)",
             std::string(kExpectSyntax) +
                 "\n\n"
                 "  expect nodes 6                     the current graph has 6 nodes\n"
                 "  expect nodes 2 aten.addmm          2 nodes match the pattern (as in find)\n"
                 "  expect graphs 1                    one graph is loaded\n"
                 "  expect lint                        the current graph passes lint\n"
                 "  expect node mm                     node mm exists\n"
                 "  expect node mm target aten.mm.default   (also: op, shape f32[3,3], stream stream_1, users 2)\n"
                 "  expect no node clone               node clone does not exist\n"
                 "  expect graph matches want.py       the current graph (stage) is the one in want.py, up to\n"
                 "                                     node names (shapes and streams are not compared)\n"
                 "  expect output \"stats\" contains \"aten.mm.default\"\n"
                 "  expect error \"load missing.txt\" contains \"cannot open\"\n"
                 "  expect hit / expect miss           the last call hit / missed the compile cache\n"
                 "  expect cache 2                     the current frame has 2 cache entries\n"
                 "  expect compiles 3                  the log (TORCH_TRACE or TORCH_LOGS) or frame has 3 compiles\n"
                 "  expect graph 0/0:dynamo            a graph of that name is loaded\n"
                 "  expect stage optimize_noop_ops changed   the pass's latest stage changed the graph (also:\n"
                 "                                     unchanged, skipped, failed; `stage PASS nodes 12`)\n"
                 "  expect remark reinplace contains \"missed\"   a remark of the pass's stage (or its error, or\n"
                 "                                     what a TorchAir pass's stage changed of the graph's effects)\n"
                 "  expect guards 5 0/0                the cache entry (index or compile id) or the log's compile\n"
                 "                                     has 5 guards\n"
                 "  expect recompiles 2                the frame or log has 2 recompiles\n"
                 "  expect eager 1                     1 call ran without a graph: past the recompile limit, or\n"
                 "                                     op by op after TorchAir's static_capture_size_limit fallback\n"
                 "  expect captures 2 [key [4]]        the AclGraphs of the current graph captured 2 times (first\n"
                 "                                     captures and recaptures, as `cache` counts them; or that key's\n"
                 "                                     graph); recaptures N, replays N alike\n"
                 "  expect tasks 3 on stream_1         the last device run has 3 tasks on stream_1\n"
                 "  expect slice \"copy arg0_1\" [on S]  the last device run has a slice of that name (a glob);\n"
                 "                                     `expect no slice NAME` that it has none\n"
                 "Prefer these to `expect output` where one fits: they read the session's data, not a\n"
                 "command's wording, so a change of wording does not break them.\n"
                 "A script that ran expect lines ends with \"expect: N passed, M failed\" (\", K not run\" when it\n"
                 "stopped before them).\n"
                 "A failed expect prints what was expected and what was found, and fails the line.",
             Expect, [](const std::vector<std::string>& before) {
               if (before.empty()) {
                 return CompletionRule{
                     CompletionKind::kFixed,
                     {"nodes",      "graphs",   "lint",       "node",     "no",    "graph", "output", "error",
                      "hit",        "miss",     "cache",      "compiles", "eager", "stage", "remark", "guards",
                      "recompiles", "captures", "recaptures", "replays",  "tasks", "slice"}};
               }
               if (before[0] == "node" && before.size() == 1) return CompletionRule{CompletionKind::kNode, {}};
               if (before[0] == "node" && before.size() == 2) {
                 return CompletionRule{CompletionKind::kFixed, {"exists", "op", "target", "shape", "stream", "users"}};
               }
               if (before[0] == "no" && before.size() == 1)
                 return CompletionRule{CompletionKind::kFixed, {"node", "slice"}};
               if ((before[0] == "stage" || before[0] == "remark") && before.size() == 1)
                 return CompletionRule{CompletionKind::kStage, {}};
               if (before[0] == "stage" && before.size() == 2)
                 return CompletionRule{CompletionKind::kFixed, {"changed", "unchanged", "skipped", "failed", "nodes"}};
               if (before[0] == "remark" && before.size() == 2)
                 return CompletionRule{CompletionKind::kFixed, {"contains", "lacks"}};
               if (before[0] == "graph" && before.size() == 1)
                 return CompletionRule{CompletionKind::kFixed, {"matches"}};
               if (before[0] == "graph" && before.size() == 2) return CompletionRule{CompletionKind::kFile, {}};
               if (before[0] == "no" && before.size() == 2) return CompletionRule{CompletionKind::kNode, {}};
               return CompletionRule{};
             }});
}

}  // namespace airscope

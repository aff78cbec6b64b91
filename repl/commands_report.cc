// `report DIR`: the session as a static HTML site (viz/report/report_writer.h).
#include "repl/command_table.h"
#include "repl/interpreter.h"
#include "repl/report_collector.h"

#ifndef AIRSCOPE_VERSION
#define AIRSCOPE_VERSION "unknown"
#endif

namespace airscope {
namespace {

Status Report(CommandContext& ctx) {
  if (ctx.args.size() != 1) return UsageError("report DIR [--force]");
  return WriteSessionReport(ctx.interpreter, Interpreter::ExpandHome(ctx.args[0].text), AIRSCOPE_VERSION, ctx.out,
                            ctx.flags.Has("--force"));
}

}  // namespace

void RegisterReportCommands(CommandTable& table) {
  table.Add({"report",
             "report DIR [--force]",
             "write the session as static HTML pages (open DIR/index.html in a browser)",
             "Writes a folder you can open from file://, link and attach to a bug: no server, no network.\n"
             "  index.html        the graphs, the logs and their compiles, the device, and every command of\n"
             "                    the session with its output\n"
             "  graph-G.html      a graph's stages (pass, status, nodes, time, notes), a form to compare any\n"
             "                    two stages, its compile cache, guards and recompiles\n"
             "  stage-G-N.html    what stage N's pass changed: nodes added, removed and changed, marked on\n"
             "                    the drawings (pan with the mouse, zoom with the wheel, find a node by name),\n"
             "                    and the FX text before and after side by side\n"
             "  log-K.html        a TORCH_TRACE log: compiles by id, guards, recompile reasons, problems\n"
             "  device.html       the last run's per-stream timeline and memory as SVG, mem and runstats,\n"
             "                    and trace.json for ui.perfetto.dev\n"
             "What `check` finds (where it needs no compile: a captured graph, or one whose lowered graph\n"
             "exists) is marked as `dump svg` marks it on the drawing of the graph it checks, listed on that\n"
             "stage's page with each node linked to the drawing, listed on device.html beside check's text,\n"
             "and outlined on the timeline when the last run ran those very tasks (help check).\n"
             "Each distinct graph is drawn once, as `dump svg` draws it (graphviz dot; sfdp above 2,000\n"
             "nodes), two layouts at a time.\n"
             "  airscope-report.json  the manifest: every file the report wrote\n"
             "A report touches only its own files. DIR must be new, empty, or an earlier report holding only\n"
             "the files its manifest lists: the new report is built beside DIR and swapped in once complete,\n"
             "then the earlier report's listed files are deleted, nothing else. A DIR holding anything else\n"
             "(a folder of yours, files you added inside a report) is refused, naming those files; --force\n"
             "writes the report's files into it one by one, replacing files of the same names and keeping\n"
             "the rest. A symlink DIR is followed (the report goes where it points, the link stays). `.` and\n"
             "any folder holding the working directory are refused. SIGTERM, SIGHUP or SIGQUIT while the\n"
             "report is written remove its staging folder. `airscope --report DIR SCRIPT` runs a script\n"
             "and writes its report. Times and memory on the device pages are the simulator's, not hardware's.",
             Report,
             [](const std::vector<std::string>& before) {
               return before.empty() ? CompletionRule{CompletionKind::kFile, {}} : CompletionRule{};
             },
             {{"--force", "", {}}}});
}

}  // namespace airscope

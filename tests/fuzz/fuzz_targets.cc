// The fuzz targets (fuzz_targets.h): one function per input parser.
#include "tests/fuzz/fuzz_targets.h"

#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>
#include <string_view>
#include <system_error>

#include <fmt/format.h>

#include "core/check/hazards.h"
#include "core/dynamo/call_spec.h"
#include "core/fx/fx_text.h"
#include "core/fx/graph_json.h"
#include "core/fx/readable.h"
#include "core/ir/tensor_meta.h"
#include "formats/aclgraph_json.h"
#include "formats/pbtxt_reader.h"
#include "formats/torch_logs.h"
#include "formats/torch_trace.h"
#include "repl/command_table.h"
#include "repl/interpreter.h"
#include "repl/session.h"
#include "repl/tokenizer.h"
#include "viz/timeline.h"

namespace airscope::fuzz {
namespace {

using Parser = std::function<Result<std::unique_ptr<Graph>>(std::string_view)>;

// What every accepted graph must allow: lint, and print in its own format;
// and what it prints must parse back as the same graph (issue 12, item 7),
// except where the format cannot say it (FX text prints strings bare, as
// torch does: NodesWithAmbiguousStrings).
template <typename Print>
void CheckGraph(const Result<std::unique_ptr<Graph>>& graph, Print print, const Parser& parse) {
  if (!graph.ok()) return;
  (void)(*graph)->Lint();
  std::string text = print(**graph);
  if (!parse) return;
  Result<std::unique_ptr<Graph>> back = parse(text);
  if (!back.ok()) __builtin_trap();  // written, then refused
  if (!SameGraph(**graph, **back)) __builtin_trap();
}

void FxText(std::string_view text) {
  Result<std::unique_ptr<Graph>> graph = ParseFxText(text, "fuzz");
  bool lossless = graph.ok() && NodesWithAmbiguousStrings(**graph).empty();
  CheckGraph(
      graph, [](const Graph& g) { return PrintFxText(g); },
      lossless ? Parser([](std::string_view t) { return ParseFxText(t, "fuzz"); }) : Parser());
}

void Readable(std::string_view text) {
  CheckGraph(
      ParseReadable(text, "fuzz"), [](const Graph& g) { return PrintReadable(g); },
      Parser([](std::string_view t) { return ParseReadable(t, "fuzz"); }));
}

void Json(std::string_view text) {
  CheckGraph(
      ParseGraphJson(text, "fuzz"), [](const Graph& g) { return PrintGraphJson(g); },
      Parser([](std::string_view t) { return ParseGraphJson(t, "fuzz"); }));
}

// pbtxt is TorchAir's GE-level form (GE op names and types): it reads as
// another graph by design, so only printing is checked.
void Pbtxt(std::string_view text) {
  CheckGraph(
      ParsePbtxt(text, "fuzz"), [](const Graph& g) { return PrintFxText(g); }, Parser());
}

void TorchTrace(std::string_view text) { (void)ParseTraceLog(text, "fuzz"); }

// What the shell relies on: names unique, every graph line mapped to a log line.
void TorchLogsText(std::string_view text) {
  TorchLogs log = ParseTorchLogs(text, "fuzz");
  std::set<std::string> names;
  for (const TorchLogsGraph& g : log.graphs) {
    if (!names.insert(g.name).second) __builtin_trap();
    size_t lines = static_cast<size_t>(std::count(g.text.begin(), g.text.end(), '\n'));
    if (lines != g.source_lines.size() || lines != g.source_columns.size()) __builtin_trap();
    for (uint32_t line : g.source_lines) {
      if (line == 0 || line > log.lines) __builtin_trap();
    }
  }
  (void)LooksLikeTorchLogs(text);
}

// A capture dump the reader accepts draws (`timeline` of a loaded dump: the
// renderer crashed on times a dump had, issue 29 item 1) and writes out, and
// what it writes reads back and writes out the same (the first write settles
// merges and types).
void AclGraphJsonDump(std::string_view text) {
  Result<AclGraphDump> dump = ParseAclGraphJson(text, "fuzz");
  if (!dump.ok()) return;
  Trace trace = AclGraphTrace(dump->tasks, "fuzz");
  (void)RenderTimeline(trace, 100);
  (void)FindHazards(dump->tasks, {dump->capture_stream, 48, "fuzz"});
  std::string once = AclGraphJson(dump->tasks);
  Result<AclGraphDump> again = ParseAclGraphJson(once, "fuzz");
  if (!again.ok() || AclGraphJson(again->tasks) != once) __builtin_trap();
}

void CallSpecText(std::string_view text) {
  (void)ParseCallSpec(text);
  (void)TensorMeta::ParseAnnotation(text);
}

void Airscript(std::string_view text) {
  (void)Tokenize(text);
  (void)SplitCommands(text);
}

// ---- debug_tree: a TORCH_COMPILE_DEBUG tree built from the bytes.
//
// The input is a tree of files, each introduced by a line "=== PATH" (PATH
// relative, '/'-separated); the bytes before the first such line are the
// file kDefaultFile. So the fuzzer varies the layout (names say what a file
// is: model__K, NNN_aot_<phase>_<name>.txt, <graph>_id_..._ts_<ts>.json,
// tlparse/*.log) as well as every file's text. The tree is written into a
// scratch directory and loaded as the shell loads it (`load DIR`: the tree
// reader, then every graph, log and capture dump in it through its own
// reader), then listed (`compiles`).
constexpr std::string_view kDefaultFile = "run_0-pid_1/torchair/model__0/forward/000_aot_forward_graph.txt";
constexpr size_t kMaxTreeFiles = 32;
constexpr size_t kMaxTreeDepth = 8;

// PATH made safe: components of [A-Za-z0-9._-] (anything else becomes '_'),
// no "." or "..", at most kMaxTreeDepth of them, each at most 100 bytes.
std::string SafeRelativePath(std::string_view path) {
  std::string out;
  size_t depth = 0;
  while (!path.empty() && depth < kMaxTreeDepth) {
    size_t slash = std::min(path.find('/'), path.size());
    std::string part(path.substr(0, std::min<size_t>(slash, 100)));
    path.remove_prefix(std::min(slash + 1, path.size()));
    for (char& c : part) {
      bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                c == '-';
      if (!ok) c = '_';
    }
    if (part.empty() || part == "." || part == "..") continue;
    out += (out.empty() ? "" : "/") + part;
    ++depth;
  }
  return out;
}

class NullSink : public OutputSink {
 public:
  Status Output(const CommandOutput&) override { return Status::Ok(); }
  void Error(std::string_view) override {}
};

// A scratch directory of this process, emptied for each input: in memory
// (/dev/shm) where there is one, since creating files on a disk's file
// system took most of each run.
const std::filesystem::path& ScratchDir() {
  static const std::filesystem::path dir = [] {
    std::error_code error;
    std::filesystem::path base = ::access("/dev/shm", W_OK) == 0 ? std::filesystem::path("/dev/shm")
                                                                 : std::filesystem::temp_directory_path(error);
    std::string pattern = (base / "airscope_fuzz_tree_XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) std::abort();
    return std::filesystem::path(pattern);
  }();
  // Registered once `dir` is built, so it runs before `dir` is destroyed.
  static const bool removed_at_exit = std::atexit([] {
                                        std::error_code ignored;
                                        std::filesystem::remove_all(ScratchDir(), ignored);
                                      }) == 0;
  (void)removed_at_exit;
  return dir;
}

void DebugTree(std::string_view data) {
  namespace fs = std::filesystem;
  const fs::path& scratch = ScratchDir();
  fs::path root = scratch / "torch_compile_debug";
  std::error_code error;
  fs::remove_all(root, error);
  fs::create_directories(root, error);
  std::string_view path = kDefaultFile;
  size_t files = 0;
  auto write = [&](std::string_view rel, std::string_view content) {
    std::string safe = SafeRelativePath(rel);
    if (safe.empty() || files >= kMaxTreeFiles) return;
    ++files;
    fs::path file = root / safe;
    std::error_code ignored;
    fs::create_directories(file.parent_path(), ignored);
    if (fs::exists(file, ignored)) return;  // a directory already, or written twice
    std::ofstream(file, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
  };
  // Line by line: a header line starts the next file; every other line
  // (its '\n' included) is the current file's. The default file is written
  // only when bytes come before the first header.
  constexpr std::string_view kHeader = "=== ";
  bool named = false;
  size_t body_start = 0;
  auto flush = [&](size_t body_end) {
    std::string_view body = data.substr(body_start, body_end - body_start);
    if (named || !body.empty()) write(path, body);
  };
  for (size_t pos = 0; pos < data.size();) {
    size_t end = std::min(data.find('\n', pos), data.size());
    if (data.substr(pos, end - pos).starts_with(kHeader)) {
      flush(pos);
      path = data.substr(pos + kHeader.size(), end - pos - kHeader.size());
      named = true;
      body_start = std::min(end + 1, data.size());
    }
    pos = end + 1;
  }
  flush(data.size());
  Session session;
  CommandTable table = BuildCommandTable();
  NullSink sink;
  Interpreter interpreter(session, table, sink);
  (void)interpreter.ExecuteLine("set max-file-size 1048576");
  if (interpreter.ExecuteLine(fmt::format("load {}", root.string())).ok()) (void)interpreter.ExecuteLine("compiles");
}

}  // namespace

const std::vector<Target>& Targets() {
  static const std::vector<Target> kTargets = {
      {"fx_text", FxText},
      {"readable", Readable},
      {"json", Json},
      {"pbtxt", Pbtxt},
      {"torch_trace", TorchTrace},
      {"torch_logs", TorchLogsText},
      {"call_spec", CallSpecText},
      {"airscript", Airscript},
      {"aclgraph_json", AclGraphJsonDump},
      {"debug_tree", DebugTree},
  };
  return kTargets;
}

const Target* FindTarget(std::string_view name) {
  for (const Target& t : Targets()) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

}  // namespace airscope::fuzz

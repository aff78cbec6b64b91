#include "formats/registry.h"

#include <sys/stat.h>

#include <algorithm>
#include <cstdio>

#include <fmt/format.h>

#include "core/file_util.h"
#include "core/fx/graph_json.h"
#include "core/fx/readable.h"
#include "core/fx/source_text.h"
#include "core/line_reader.h"
#include "formats/aclgraph_json.h"
#include "formats/json_sniff.h"
#include "formats/pbtxt_reader.h"
#include "formats/torch_compile_debug.h"
#include "formats/torch_logs.h"
#include "formats/torch_trace.h"

namespace airscope {
namespace {

bool StartsWithAny(std::string_view line, std::initializer_list<std::string_view> prefixes) {
  return std::any_of(prefixes.begin(), prefixes.end(), [line](std::string_view p) { return line.starts_with(p); });
}

Result<std::unique_ptr<Graph>> RefuseGeBuilderCode(std::string_view, const std::string& path, const ReleaseTextBefore&,
                                                   std::vector<std::string>*);
// Rows whose read refuses (they are recognised only to say why): not listed
// among what airscope reads, and not a graph's start for the logs' sniff.
bool Refuses(const InputFormat& row) { return row.read == &RefuseGeBuilderCode; }

// --- sniffs, one per row (each format's own test of its text lives with its reader) ---

bool SniffDebugTree(const InputPeek& peek) {
  return peek.directory && !DebugTreeLayout(std::string(peek.path)).empty();
}
// Any other directory: LoadTraceLogDir says so when it holds no rank logs.
bool SniffTraceLogDir(const InputPeek& peek) { return peek.directory; }

bool SniffTraceLog(const InputPeek& peek) {
  if (!peek.has_head) return false;
  // A few lines, not just the first: a log whose first record is damaged
  // (cut, or a stray line before it) is still a log.
  constexpr size_t kLinesLooked = 16;
  std::string_view rest = peek.head.substr(0, 16384);
  for (size_t i = 0; i < kLinesLooked && !rest.empty(); ++i) {
    size_t end = std::min(rest.find('\n'), rest.size());
    if (LooksLikeTraceLog(rest.substr(0, end))) return true;
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  return false;
}

bool SniffTorchLogs(const InputPeek& peek) {
  if (!peek.has_head || peek.head.find('\0') != std::string_view::npos) return false;
  // A file that starts as a graph does is a graph, unless its `[` is a log
  // prefix. (Not the refused GE builder code: a log may print that code.)
  for (const InputFormat& row : InputFormats()) {
    if (row.kind != InputKind::kGraph || Refuses(row) || !row.sniff(peek)) continue;
    if (!(peek.first_line.starts_with("[") && LooksLikeTorchLogs(peek.first_line))) return false;
  }
  return LooksLikeTorchLogs(peek.head);
}

bool SniffCaptureDump(const InputPeek& peek) { return peek.has_head && LooksLikeAclGraphDump(peek.head); }

// A `[` or `{` is not enough: the first line must parse as JSON so far
// (json_sniff.h), so a shell prompt pasted above a log is not taken for JSON.
bool SniffJson(const InputPeek& peek) { return StartsAsJson(peek.first_line); }
bool SniffFxText(const InputPeek& peek) { return peek.first_line.starts_with("graph("); }
bool SniffReadable(const InputPeek& peek) { return StartsWithAny(peek.first_line, {"class ", "def forward"}); }
// TorchAir's pbtxt (GraphDef text): `node {` blocks, possibly after `name:`.
bool SniffPbtxt(const InputPeek& peek) { return StartsWithAny(peek.first_line, {"node {", "node{", "name:"}); }

// TorchAir's graph_dump in max-autotune mode: GeGraph.python_code (ge/_ge_graph.py:779-785).
constexpr std::string_view kGeBuilderImport = "from torchair._ge_concrete_graph import ge_apis as ge";
bool SniffGeBuilderCode(const InputPeek& peek) { return peek.head.find(kGeBuilderImport) != std::string_view::npos; }

// --- reads of the graph rows ---

Result<std::unique_ptr<Graph>> ReadFx(std::string_view text, const std::string& path, const ReleaseTextBefore& release,
                                      std::vector<std::string>*) {
  return ParseFxText(text, path, release);
}
Result<std::unique_ptr<Graph>> ReadReadable(std::string_view text, const std::string& path,
                                            const ReleaseTextBefore& release, std::vector<std::string>*) {
  return ParseReadable(text, path, release);
}
Result<std::unique_ptr<Graph>> ReadJson(std::string_view text, const std::string& path, const ReleaseTextBefore&,
                                        std::vector<std::string>*) {
  return ParseGraphJson(text, path);
}
Result<std::unique_ptr<Graph>> ReadPbtxt(std::string_view text, const std::string& path, const ReleaseTextBefore&,
                                         std::vector<std::string>* warnings) {
  return ParsePbtxt(text, path, warnings);
}
Result<std::unique_ptr<Graph>> RefuseGeBuilderCode(std::string_view, const std::string& path, const ReleaseTextBefore&,
                                                   std::vector<std::string>*) {
  return Status::Errorf(
      "{}:1:1: a GE graph's builder code (TorchAir's config.debug.graph_dump in max-autotune mode, "
      "GeGraph.python_code): airscope simulates reduce-overhead mode, whose graph_dump .py files "
      "are print_readable code it reads; dump the GE graph as pbtxt to load it",
      path);
}

InputPeek PeekText(std::string_view path, std::string_view text) {
  InputPeek peek;
  peek.path = path;
  peek.head = text;
  peek.first_line = FirstMeaningfulLine(text);
  return peek;
}

}  // namespace

const std::vector<InputFormat>& InputFormats() {
  static const std::vector<InputFormat> kFormats = {
      {"debug-tree",
       "a TORCH_COMPILE_DEBUG tree (torch_compile_debug/, one run_*, its torchair/ or model__K, or a directory of "
       "TorchAir's graph_dump files)",
       {},
       InputKind::kDebugTree,
       SniffDebugTree,
       nullptr,
       "directory of logs",
       "rank0:0/0:dynamo_output_graph"},
      {"trace-dir",
       "a directory of dedicated_log_torch_trace_rank_N logs",
       {},
       InputKind::kTraceLogDir,
       SniffTraceLogDir,
       nullptr,
       "directory of logs",
       "rank0:0/0:dynamo_output_graph"},
      {"trace",
       "TORCH_TRACE logs (glog lines with JSON records)",
       {".log"},
       InputKind::kTraceLog,
       SniffTraceLog,
       nullptr,
       "TORCH_TRACE log",
       "0/0:dynamo_output_graph"},
      {"torch-logs",
       "TORCH_LOGS text (torch._logging lines: \"V0515 09:03:07.649000 PID file.py:1157] [0/0] [__graph_code] ...\", "
       "\"[2025-02-06 16:46:56,300] [0/0] torch._dynamo...: [DEBUG] ...\", \"[0/0] [__guards] ...\" or messages "
       "such as \"TRACED GRAPH\"; TorchAir's \"[INFO] TORCHAIR(pid,exe):...\")",
       {".log.txt", ".log"},
       InputKind::kTorchLogs,
       SniffTorchLogs,
       nullptr,
       "TORCH_LOGS log",
       "0/0:dynamo"},
      {"aclgraph-json",
       "capture dumps (NPUGraph.debug_dump's aclmdlRIDebugJsonPrint JSON)",
       {".json"},
       InputKind::kCaptureDump,
       SniffCaptureDump,
       nullptr,
       "capture dump",
       ""},
      {"json", "airscope JSON", {".json"}, InputKind::kGraph, SniffJson, ReadJson, {}, {}},
      {"fx",
       "FX graph text (\"graph():\")",
       {".graph.txt", ".txt", ".fx"},
       InputKind::kGraph,
       SniffFxText,
       ReadFx,
       {},
       {}},
      {"readable",
       "print_readable code (\"class GraphModule(torch.nn.Module):\")",
       {".readable.py", ".py"},
       InputKind::kGraph,
       SniffReadable,
       ReadReadable,
       {},
       {}},
      // `.ge.txt` (GE's ModelDef text, dump ge) starts with `name:`, so it comes here too.
      {"pbtxt", "TorchAir pbtxt (\"node {\")", {".pbtxt", ".ge.txt"}, InputKind::kGraph, SniffPbtxt, ReadPbtxt, {}, {}},
      {"ge-builder",
       "a GE graph's builder code (max-autotune graph_dump .py): recognised and refused, with why",
       {},
       InputKind::kGraph,
       SniffGeBuilderCode,
       RefuseGeBuilderCode,
       {},
       {}},
  };
  return kFormats;
}

std::string ShapesRefusal(const InputFormat& row, std::string_view path) {
  if (row.kind == InputKind::kGraph) return "";
  if (row.graph_name_example.empty()) {
    return fmt::format("{} is a {} (no graph inputs): load it without --shapes", path, row.noun);
  }
  return fmt::format(
      "{} is a {}: its graphs are named by compile id (e.g. {}) and carry the shapes the log states; load it without "
      "--shapes and give one graph shapes with set input",
      path, row.noun, row.graph_name_example);
}

const InputFormat* FindInputFormat(std::string_view name) {
  for (const InputFormat& row : InputFormats()) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

std::vector<std::string> InputFormatNames() {
  std::vector<std::string> names;
  for (const InputFormat& row : InputFormats()) names.emplace_back(row.name);
  return names;
}

const InputFormat* SniffInput(const std::string& path) {
  InputPeek peek;
  peek.path = path;
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return nullptr;
  peek.directory = S_ISDIR(st.st_mode);
  // Only a regular file is read ahead: a pipe's or FIFO's bytes would be
  // gone for its loader (IsReadOnce, SniffInputBytes).
  peek.has_head = S_ISREG(st.st_mode);
  std::string head;
  if (peek.has_head) {
    std::FILE* file = std::fopen(path.c_str(), "rb");
    if (file == nullptr) return nullptr;
    head.resize(kInputPeekBytes);
    head.resize(std::fread(head.data(), 1, head.size(), file));
    std::fclose(file);
    peek.head = head;
    peek.first_line = FirstMeaningfulLine(head);
  }
  for (const InputFormat& row : InputFormats()) {
    if (row.sniff(peek)) return &row;
  }
  return nullptr;
}

bool IsReadOnce(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

const InputFormat* SniffInputBytes(std::string_view content, std::string_view path) {
  InputPeek peek = PeekText(path, content.substr(0, kInputPeekBytes));
  peek.has_head = true;
  for (const InputFormat& row : InputFormats()) {
    if (row.sniff(peek)) return &row;
  }
  return nullptr;
}

Result<const InputFormat*> SniffGraphText(std::string_view content, std::string_view path) {
  if (size_t at = content.find('\0'); at != std::string_view::npos) {
    return ErrorAtOffset(path, content, at, fmt::format("not a text file (NUL byte at offset {})", at));
  }
  InputPeek peek = PeekText(path, content);
  if (peek.first_line.empty()) return Status::Errorf("{}:1:1: the file is empty (expected a graph)", path);
  for (const InputFormat& row : InputFormats()) {
    if (row.kind == InputKind::kGraph && row.sniff(peek)) return &row;
  }
  std::vector<std::string_view> read;
  for (const InputFormat& row : InputFormats()) {
    if (!Refuses(row)) read.push_back(row.description);
  }
  return Status::Errorf("{}:1:1: unrecognized graph format: the file starts with \"{}\"; airscope reads {}", path,
                        peek.first_line.substr(0, 40), fmt::join(read, "; "));
}

std::string DefaultGraphName(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  std::vector<std::string_view> extensions;
  for (const InputFormat& row : InputFormats())
    extensions.insert(extensions.end(), row.extensions.begin(), row.extensions.end());
  // The longest first: mlp.graph.txt is "mlp", not "mlp.graph".
  std::stable_sort(extensions.begin(), extensions.end(),
                   [](std::string_view a, std::string_view b) { return a.size() > b.size(); });
  for (std::string_view ext : extensions) {
    if (base.ends_with(ext) && base.size() > ext.size()) {
      base.remove_suffix(ext.size());
      break;
    }
  }
  std::string name(base);
  for (char& c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
    if (!ok) c = '_';
  }
  return name.empty() ? "graph" : name;
}

std::string InputFormatsHelp() {
  constexpr size_t kWidth = 110, kIndent = 17;
  std::string text;
  for (const InputFormat& row : InputFormats()) {
    std::string words(row.description);
    if (!row.extensions.empty()) words += fmt::format(" [{}]", fmt::join(row.extensions, " "));
    // Wrapped at spaces to the help's width, continuation lines under the description.
    std::string line = fmt::format("  {:<{}}", row.name, kIndent - 2);
    size_t pos = 0;
    while (pos < words.size()) {
      size_t room = kWidth - line.size();
      size_t end = words.size() - pos <= room ? words.size() : words.rfind(' ', pos + room);
      if (end == std::string::npos || end <= pos) end = std::min(words.find(' ', pos), words.size());
      line += words.substr(pos, end - pos);
      text += line + "\n";
      line = std::string(kIndent, ' ');
      pos = end < words.size() ? end + 1 : end;
    }
  }
  return text;
}

}  // namespace airscope

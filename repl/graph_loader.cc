#include "repl/graph_loader.h"

#include <sys/stat.h>

#include <cstdio>

#include <fmt/format.h>

#include "core/file_util.h"
#include "core/fx/source_text.h"
#include "viz/pbtxt_reader.h"
#include "core/fx/fx_text.h"
#include "core/fx/graph_json.h"
#include "core/fx/readable.h"
#include "viz/torch_logs.h"
#include "viz/torch_trace.h"

namespace airscope {
namespace {

bool StartsWith(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }
bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The first line that is not blank and not a comment, with leading spaces removed.
std::string_view FirstMeaningfulLine(std::string_view content) {
  size_t pos = 0;
  while (pos < content.size()) {
    size_t end = content.find('\n', pos);
    if (end == std::string_view::npos) end = content.size();
    std::string_view line = content.substr(pos, end - pos);
    size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line[first] != '#') return line.substr(first);
    pos = end + 1;
  }
  return {};
}

}  // namespace

std::string_view GraphFormatName(GraphFormat format) {
  switch (format) {
    case GraphFormat::kFxText: return "fx";
    case GraphFormat::kReadable: return "readable";
    case GraphFormat::kJson: return "json";
    case GraphFormat::kPbtxt: return "pbtxt";
  }
  return "?";
}

Result<GraphFormat> SniffGraphFormat(std::string_view content, std::string_view path) {
  if (size_t at = content.find('\0'); at != std::string_view::npos) {
    return ErrorAtOffset(path, content, at, fmt::format("not a text file (NUL byte at offset {})", at));
  }
  std::string_view line = FirstMeaningfulLine(content);
  if (line.empty()) return Status::Errorf("{}:1:1: the file is empty (expected a graph)", path);
  if (StartsWith(line, "{") || StartsWith(line, "[")) return GraphFormat::kJson;
  if (StartsWith(line, "graph(")) return GraphFormat::kFxText;
  if (StartsWith(line, "class ") || StartsWith(line, "def forward")) return GraphFormat::kReadable;
  // TorchAir's pbtxt (GraphDef text): `node {` blocks, possibly after `name:`.
  if (StartsWith(line, "node {") || StartsWith(line, "node{") || StartsWith(line, "name:")) return GraphFormat::kPbtxt;
  // TorchAir's graph_dump in max-autotune mode: GeGraph.python_code (ge/_ge_graph.py:779-785).
  if (content.find("from torchair._ge_concrete_graph import ge_apis as ge") != std::string_view::npos) {
    return Status::Errorf("{}:1:1: a GE graph's builder code (TorchAir's config.debug.graph_dump in max-autotune mode, "
                          "GeGraph.python_code): airscope simulates reduce-overhead mode, whose graph_dump .py files "
                          "are print_readable code it reads; dump the GE graph as pbtxt to load it",
                          path);
  }
  std::string_view shown = line.substr(0, 40);
  return Status::Errorf(
      "{}:1:1: unrecognized graph format: the file starts with \"{}\"; airscope reads FX graph text "
      "(\"graph():\"), print_readable code (\"class GraphModule(torch.nn.Module):\"), airscope JSON, "
      "TorchAir pbtxt (\"node {{\"), TORCH_TRACE logs (glog lines with JSON records, or a directory of "
      "dedicated_log_torch_trace_rank_N logs) and TORCH_LOGS text (torch._logging lines: \"V0515 09:03:07.649000 "
      "PID file.py:1157] [0/0] [__graph_code] ...\", \"[2025-02-06 16:46:56,300] [0/0] torch._dynamo...: [DEBUG] "
      "...\", \"[0/0] [__guards] ...\" or messages such as \"TRACED GRAPH\"; TorchAir's \"[INFO] TORCHAIR(pid,exe):...\")",
      path, shown);
}

Result<LoadedGraph> LoadGraphText(std::string_view content, const std::string& path, const OpRegistry& registry,
                                  const ReleaseTextBefore& release_text, std::string_view name) {
  // A UTF-8 byte order mark (editors on Windows write one) is not part of
  // the text; the parser's offsets are then 3 bytes short of the file's.
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  size_t skipped = 0;
  if (content.starts_with(kByteOrderMark)) {
    content.remove_prefix(kByteOrderMark.size());
    skipped = kByteOrderMark.size();
  }
  ReleaseTextBefore release;
  if (release_text) release = [&release_text, skipped](size_t offset) { release_text(offset + skipped); };
  Result<GraphFormat> format = SniffGraphFormat(content, path);
  if (!format.ok()) return format.status();
  Result<std::unique_ptr<Graph>> parsed = Status::Error("unreachable");
  switch (*format) {
    case GraphFormat::kFxText: parsed = ParseFxText(content, path, release); break;
    case GraphFormat::kReadable: parsed = ParseReadable(content, path); break;
    case GraphFormat::kJson: parsed = ParseGraphJson(content, path); break;
    case GraphFormat::kPbtxt: parsed = ParsePbtxt(content, path); break;
  }
  if (!parsed.ok()) return parsed.status();
  std::unique_ptr<Graph> graph = std::move(parsed).value();
  graph->set_name(name.empty() ? DefaultGraphName(path) : std::string(name));
  LoadedGraph loaded;
  loaded.inference = InferShapes(*graph, registry);
  loaded.graph = std::move(graph);
  loaded.path = path;
  loaded.format = *format;
  return loaded;
}

Result<std::vector<InputShape>> ParseInputShapes(std::string_view text) {
  std::vector<InputShape> shapes;
  size_t start = 0;
  int depth = 0;
  for (size_t i = 0; i <= text.size(); ++i) {
    char c = i < text.size() ? text[i] : ',';
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (c != ',' || depth > 0) continue;
    std::string_view item = text.substr(start, i - start);
    start = i + 1;
    size_t eq = item.find('=');
    auto trim = [](std::string_view v) {
      while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
      while (!v.empty() && v.back() == ' ') v.remove_suffix(1);
      return v;
    };
    std::string_view name = eq == std::string_view::npos ? "" : trim(item.substr(0, eq));
    std::string_view shape = eq == std::string_view::npos ? "" : trim(item.substr(eq + 1));
    if (name.empty() || shape.empty()) return Status::Errorf("expected NAME=SHAPE (e.g. x=f32[8,64]), got '{}'", item);
    shapes.push_back({std::string(name), std::string(shape)});
  }
  return shapes;
}

Result<LoadedGraph> WithInputShapes(const LoadedGraph& loaded, const std::vector<InputShape>& shapes,
                                    const OpRegistry& registry) {
  std::unique_ptr<Graph> graph = loaded.graph->Clone();
  for (const InputShape& shape : shapes) {
    // Parameters and buffers (get_attr) come into the graph as inputs do, and
    // need shapes as much.
    Node* input = graph->Find(shape.input);
    if (input == nullptr || (input->op() != OpKind::kPlaceholder && input->op() != OpKind::kGetAttr)) {
      std::vector<std::string> names;
      for (const Node* n : *graph) {
        if (n->op() == OpKind::kPlaceholder || n->op() == OpKind::kGetAttr) names.push_back(n->name());
      }
      return Status::Errorf("no input or get_attr named '{}' (the graph has {})", shape.input,
                            names.empty() ? "none" : fmt::format("{}", fmt::join(names, ", ")));
    }
    size_t offset = 0;
    Result<TensorMeta> tensor = TensorMeta::ParseAnnotation(shape.annotation, &offset);
    if (!tensor.ok()) {
      return Status::Errorf("input '{}': '{}' is not a tensor shape (column {}: {})", shape.input, shape.annotation,
                            offset + 1, tensor.status().message());
    }
    NodeMeta meta;
    meta.tensors.push_back(std::move(tensor).value());
    input->set_meta(std::move(meta));
  }
  // What was inferred from the old inputs is inferred again from the new.
  for (Node* node : *graph) {
    if (node->meta() && node->meta()->source == MetaSource::kInferred) node->clear_meta();
  }
  LoadedGraph result;
  result.inference = InferShapes(*graph, registry);
  result.graph = std::move(graph);
  result.path = loaded.path;
  result.format = loaded.format;
  result.modules = loaded.modules;
  return result;
}

Result<LoadedGraph> LoadGraphFile(const std::string& path, uint64_t max_bytes, const OpRegistry& registry,
                                  std::string_view name) {
  Result<FileText> content = ReadFileText(path, max_bytes);
  if (!content.ok()) return content.status();
  FileText& text = *content;
  return LoadGraphText(text.view(), path, registry, [&text](size_t offset) { text.ReleaseBefore(offset); }, name);
}

bool IsTraceLogFile(const std::string& path) {
  // Only a regular file is peeked at: opening a FIFO could wait for a writer,
  // and reading it would take the bytes the graph loader needs.
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return false;
  // A few lines, not just the first: a log whose first record is damaged
  // (cut, or a stray line before it) is still a log.
  constexpr size_t kLinesLooked = 16;
  std::string head(16384, '\0');
  head.resize(std::fread(head.data(), 1, head.size(), file));
  std::fclose(file);
  std::string_view rest(head);
  for (size_t i = 0; i < kLinesLooked && !rest.empty(); ++i) {
    size_t end = std::min(rest.find('\n'), rest.size());
    if (LooksLikeTraceLog(rest.substr(0, end))) return true;
    rest.remove_prefix(std::min(end + 1, rest.size()));
  }
  return false;
}

bool IsTorchLogsFile(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return false;
  // A megabyte: a log may open with pages of other output (warnings, pip).
  std::string head(1 << 20, '\0');
  head.resize(std::fread(head.data(), 1, head.size(), file));
  std::fclose(file);
  if (head.find('\0') != std::string::npos) return false;
  std::string_view first = FirstMeaningfulLine(head);
  for (std::string_view graph_start : {"graph(", "class ", "def forward", "{", "[", "node {", "node{", "name:"}) {
    // A graph file, unless the `[` is a log prefix.
    if (StartsWith(first, graph_start) && !(graph_start == "[" && LooksLikeTorchLogs(first))) return false;
  }
  return LooksLikeTorchLogs(head);
}

std::string DefaultGraphName(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (std::string_view ext : {".graph.txt", ".readable.py", ".log.txt", ".json", ".pbtxt", ".ge.txt", ".txt", ".py",
                               ".fx", ".log"}) {
    if (EndsWith(base, ext) && base.size() > ext.size()) {
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

}  // namespace airscope

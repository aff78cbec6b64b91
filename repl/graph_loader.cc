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
  std::string_view shown = line.substr(0, 40);
  return Status::Errorf(
      "{}:1:1: unrecognized graph format: the file starts with \"{}\"; airscope reads FX graph text "
      "(\"graph():\"), print_readable code (\"class GraphModule(torch.nn.Module):\"), airscope JSON, "
      "TorchAir pbtxt (\"node {{\") and TORCH_TRACE logs (glog lines with JSON records)",
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
  char buffer[512];
  size_t got = std::fread(buffer, 1, sizeof(buffer), file);
  std::fclose(file);
  std::string_view head(buffer, got);
  return LooksLikeTraceLog(head.substr(0, head.find('\n')));
}

std::string DefaultGraphName(std::string_view path) {
  size_t slash = path.rfind('/');
  std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
  for (std::string_view ext : {".graph.txt", ".readable.py", ".json", ".pbtxt", ".ge.txt", ".txt", ".py", ".fx"}) {
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

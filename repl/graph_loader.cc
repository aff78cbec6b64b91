#include "repl/graph_loader.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/file_util.h"

namespace airscope {

std::string_view GraphFormatName(const InputFormat* format) { return format ? format->name : "?"; }

std::string InferenceDisagreementNote(const std::string& name, const InferenceReport& report) {
  if (report.disagreements == 0) return "";
  constexpr size_t kShown = 3;
  std::vector<std::string> shown(report.warnings.begin(),
                                 report.warnings.begin() + std::min(kShown, report.warnings.size()));
  size_t more = report.disagreements - shown.size();
  return fmt::format("{}: {} annotation(s) that inference disagrees with: {}{}; `node NAME` shows each", name,
                     report.disagreements, fmt::join(shown, "; "), more ? fmt::format("; ... and {} more", more) : "");
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
  AIRSCOPE_ASSIGN_OR_RETURN(const InputFormat* format, SniffGraphText(content, path));
  LoadedGraph loaded;
  AIRSCOPE_ASSIGN_OR_RETURN(std::unique_ptr<Graph> parsed, format->read(content, path, release, &loaded.read_warnings));
  std::unique_ptr<Graph> graph = std::move(parsed);
  graph->set_name(name.empty() ? DefaultGraphName(path) : std::string(name));
  loaded.inference = InferShapes(*graph, registry);
  loaded.graph = std::move(graph);
  loaded.path = path;
  loaded.format = format;
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
  result.read_warnings = loaded.read_warnings;  // the file's, whatever the inputs
  return result;
}

Result<LoadedGraph> LoadGraphFile(const std::string& path, uint64_t max_bytes, const OpRegistry& registry,
                                  std::string_view name) {
  AIRSCOPE_ASSIGN_OR_RETURN(FileText content, ReadFileText(path, max_bytes));
  FileText& text = content;
  return LoadGraphText(
      text.view(), path, registry, [&text](size_t offset) { text.ReleaseBefore(offset); }, name);
}

}  // namespace airscope

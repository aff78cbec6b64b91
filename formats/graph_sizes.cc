#include "formats/graph_sizes.h"

#include <string_view>
#include <utility>

#include <fmt/format.h>

#include "core/text.h"

namespace airscope {

const TorchLogsGraphSizes* GraphSizesTableOf(const TorchLogs& log, const TorchLogsGraph& g) {
  if (g.title.find("__compiled_fn") == std::string::npos) return nullptr;
  for (const TorchLogsGraphSizes& table : log.graph_sizes) {
    if (table.id == g.id && table.rank == g.rank && table.title == g.title) return &table;
  }
  return nullptr;
}

size_t ApplyGraphSizes(Graph& graph, const TorchLogsGraphSizes& table, std::vector<std::string>* unread,
                       std::vector<std::string>* contradicted) {
  size_t applied = 0;
  for (const std::string& line : table.sizes) {
    size_t colon = line.find(": ");
    if (colon == std::string::npos) {
      unread->push_back(line);
      continue;
    }
    std::string_view name = std::string_view(line).substr(0, colon);
    if (name.ends_with(" (concrete)")) continue;  // the hint of a symbolic size, not the size
    std::string_view tuple = Trim(std::string_view(line).substr(colon + 2), " ");
    if (tuple.size() < 2 || tuple.front() != '(' || tuple.back() != ')') {
      unread->push_back(line);
      continue;
    }
    std::string_view inside = Trim(tuple.substr(1, tuple.size() - 2), " ");
    if (inside.ends_with(',')) inside.remove_suffix(1);  // Python's one-element tuple, (8,)
    // The sizes are read as an annotation's are (numbers, sympy expressions); the dtype is then unknown.
    Result<TensorMeta> tensor = TensorMeta::ParseAnnotation(fmt::format("f32[{}]", inside));
    Node* node = graph.Find(name);
    if (!tensor.ok() || node == nullptr) {
      unread->push_back(line);
      continue;
    }
    // A node whose meta holds only its `# File:` comments has no value yet: it keeps the comments.
    const NodeMeta* had = node->meta();
    if (had && (had->kind != ValueKind::kOpaque || !had->annotation.empty())) {
      const TensorMeta* kept = had->tensor();
      if (kept && had->kind == ValueKind::kTensor && kept->sizes != tensor->sizes) {
        contradicted->push_back(fmt::format("{}, but the graph has {}", line, kept->ShapeString()));
      }
      continue;
    }
    tensor->dtype = DType::kUnknown;
    NodeMeta meta;
    if (had) meta.stack_trace = had->stack_trace;
    meta.tensors.push_back(std::move(tensor).value());
    node->set_meta(std::move(meta));
    ++applied;
  }
  return applied;
}

}  // namespace airscope

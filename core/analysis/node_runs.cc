#include "core/analysis/node_runs.h"

#include <fmt/format.h>

#include <algorithm>

namespace airscope {

namespace {

// `text` is "PATH:DIGITS" with a PATH.
bool LineNumberAtEnd(std::string_view text) {
  size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == text.size()) return false;
  return std::all_of(text.begin() + static_cast<std::ptrdiff_t>(colon) + 1, text.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace

std::optional<SourceFrame> ParseFileComment(std::string_view comment) {
  while (!comment.empty() && (comment.front() == ' ' || comment.front() == '\t')) comment.remove_prefix(1);
  if (comment.starts_with("#")) comment.remove_prefix(1);
  while (!comment.empty() && comment.front() == ' ') comment.remove_prefix(1);
  constexpr std::string_view kFile = "File: ";
  constexpr std::string_view kCode = ", code: ";
  if (!comment.starts_with(kFile)) return std::nullopt;
  comment.remove_prefix(kFile.size());
  // The code may hold anything, the path anything but what ends it: the
  // first ", code: " after a ":LINE" (with " in FUNCTION" between) ends the
  // location.
  for (size_t code_at = comment.find(kCode); code_at != std::string_view::npos;
       code_at = comment.find(kCode, code_at + 1)) {
    std::string_view location = comment.substr(0, code_at);
    SourceFrame frame;
    frame.code = comment.substr(code_at + kCode.size());
    // "PATH:LINE in FUNCTION": a function name has no spaces, so it follows the last " in ".
    if (size_t in_at = location.rfind(" in ");
        in_at != std::string_view::npos && LineNumberAtEnd(location.substr(0, in_at))) {
      frame.function = location.substr(in_at + 4);
      location = location.substr(0, in_at);
    }
    if (!LineNumberAtEnd(location)) continue;
    size_t colon = location.rfind(':');
    frame.file = location.substr(0, colon);
    frame.line = location.substr(colon + 1);
    return frame;
  }
  return std::nullopt;
}

namespace {

constexpr std::string_view kNoStackTrace = "No stacktrace found for following nodes";

// Walks the graph keeping the source in force (see the header): the frame of
// the last `# File:` comment, or none.
class SourceTracker {
 public:
  // The source of `node`, after taking in its comments.
  const std::optional<SourceFrame>& Advance(const Node& node) {
    if (node.op() == OpKind::kPlaceholder || node.op() == OpKind::kOutput) return kNone;
    if (node.meta() != nullptr && !node.meta()->stack_trace.empty()) {
      std::string_view trace = node.meta()->stack_trace;
      while (!trace.empty()) {
        size_t nl = trace.find('\n');
        std::string_view line = trace.substr(0, nl);
        trace = nl == std::string_view::npos ? std::string_view() : trace.substr(nl + 1);
        if (line.find(kNoStackTrace) != std::string_view::npos) {
          current_.reset();
        } else if (std::optional<SourceFrame> frame = ParseFileComment(line)) {
          current_ = frame;
        }
      }
    }
    return current_;
  }

 private:
  static inline const std::optional<SourceFrame> kNone;
  std::optional<SourceFrame> current_;
};

std::string KeyOf(const Node& node, const std::optional<SourceFrame>& source, RunKey key) {
  switch (key) {
    case RunKey::kStream: return node.stream();
    case RunKey::kLine:
      if (!source) return "";
      return source->function.empty() ? fmt::format("{}:{}", source->file, source->line)
                                      : fmt::format("{}:{} in {}", source->file, source->line, source->function);
    case RunKey::kFunction:
      if (!source) return "";
      return source->function.empty() ? std::string(source->file)
                                      : fmt::format("{} in {}", source->file, source->function);
  }
  return "";
}

}  // namespace

std::vector<NodeRun> NodeRuns(const Graph& graph, RunKey key, size_t begin, size_t end) {
  end = std::min(end, graph.size());
  std::vector<NodeRun> runs;
  if (begin >= end) return runs;
  SourceTracker tracker;
  size_t position = 0;
  for (const Node* node : graph) {
    if (position >= end) break;
    // The source in force at `begin` depends on the comments before it.
    const std::optional<SourceFrame>& source =
        key == RunKey::kStream ? std::optional<SourceFrame>() : tracker.Advance(*node);
    if (position >= begin) {
      std::string node_key = KeyOf(*node, source, key);
      if (runs.empty() || runs.back().key != node_key) {
        NodeRun run;
        run.begin = position;
        run.key = std::move(node_key);
        if (key == RunKey::kLine && source) run.code = std::string(source->code);
        runs.push_back(std::move(run));
      }
      runs.back().end = position + 1;
    }
    ++position;
  }
  return runs;
}

size_t NodesWithSource(const Graph& graph) {
  SourceTracker tracker;
  size_t count = 0;
  for (const Node* node : graph) count += tracker.Advance(*node).has_value() ? 1 : 0;
  return count;
}

}  // namespace airscope

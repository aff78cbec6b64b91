#include "repl/folded_diff.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

#include "repl/graph_folding.h"

namespace airscope {
namespace {

struct Hunk {
  size_t begin = 0;   // index of its @@ line in the diff's lines
  size_t end = 0;     // one past its last line
  size_t a_line = 0;  // the 1-based line of `a` it starts at (@@ -L)
  std::string key;    // its lines with node names numbered by first appearance
};

bool IsWordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The hunk's body with every node name replaced by #K.
std::string AlikeKey(const std::vector<std::string_view>& lines, size_t begin, size_t end, const Graph& a,
                     const Graph& b) {
  std::unordered_map<std::string_view, size_t> numbered;
  std::string key;
  for (size_t i = begin + 1; i < end; ++i) {
    std::string_view line = lines[i];
    for (size_t at = 0; at < line.size();) {
      if (!IsWordChar(line[at]) || std::isdigit(static_cast<unsigned char>(line[at]))) {
        key += line[at++];
        continue;
      }
      size_t stop = at;
      while (stop < line.size() && IsWordChar(line[stop])) ++stop;
      std::string_view word = line.substr(at, stop - at);
      bool attribute = at > 0 && line[at - 1] == '.';
      if (!attribute && (a.Find(word) || b.Find(word))) {
        auto [it, added] = numbered.emplace(word, numbered.size());
        key += fmt::format("#{}", it->second);
      } else {
        key += word;
      }
      at = stop;
    }
    key += '\n';
  }
  return key;
}

size_t HeaderLine(std::string_view header) {  // "@@ -12,7 +12,9 @@" -> 12
  size_t minus = header.find('-');
  size_t value = 0;
  if (minus != std::string_view::npos) std::from_chars(header.data() + minus + 1, header.data() + header.size(), value);
  return value;
}

// "in repeats 0-93 of 94 (%l0_attn_norm ...)" for FX text, where the
// hunks' lines fall in one of `blocks` (`a`'s repeated blocks; `nodes`: a's).
std::string WhereInRepeats(const std::vector<size_t>& a_lines, const std::vector<RepeatedBlock>& blocks,
                           const std::vector<Node*>& nodes) {
  for (const RepeatedBlock& block : blocks) {
    std::vector<size_t> repeats;
    bool inside = true;
    for (size_t line : a_lines) {
      // FX text: line 1 is `graph():`, line L the node at position L - 2.
      size_t position = line >= 2 ? line - 2 : 0;
      inside = inside && position >= block.start && position < block.end();
      if (!inside) break;
      size_t repeat = (position - block.start) / block.length;
      if (repeats.empty() || repeats.back() != repeat) repeats.push_back(repeat);
    }
    if (inside) return fmt::format(" in repeats {} of {}", IndexRanges(repeats), BlockSummary(nodes, block));
  }
  return "";
}

}  // namespace

FoldedDiff FoldAlikeHunks(std::string_view unified, const Graph& a, const Graph& b, std::string_view format,
                          size_t min_alike) {
  FoldedDiff result;
  std::vector<std::string_view> lines;
  for (size_t start = 0; start < unified.size();) {
    size_t end = std::min(unified.find('\n', start), unified.size());
    lines.push_back(unified.substr(start, end - start));
    start = end + 1;
  }
  std::vector<Hunk> hunks;
  for (size_t i = 0; i < lines.size(); ++i) {
    if (!lines[i].starts_with("@@")) continue;
    if (!hunks.empty()) hunks.back().end = i;
    hunks.push_back({i, lines.size(), HeaderLine(lines[i]), ""});
  }
  result.hunks = hunks.size();
  result.hidden.assign(hunks.size(), false);
  result.note_after.assign(hunks.size(), "");
  for (size_t i = hunks.empty() ? lines.size() : hunks[0].begin; i < lines.size(); ++i) {
    result.added += lines[i].starts_with('+') ? 1 : 0;
    result.removed += lines[i].starts_with('-') ? 1 : 0;
  }
  for (Hunk& hunk : hunks) hunk.key = AlikeKey(lines, hunk.begin, hunk.end, a, b);
  std::map<std::string_view, std::vector<size_t>> groups;
  for (size_t h = 0; h < hunks.size(); ++h) groups[hunks[h].key].push_back(h);
  std::string out;
  auto put = [&out](std::string_view line) {
    out.append(line);
    out += '\n';
  };
  // `a`'s repeated blocks, found once, when a group first folds (FX text only).
  std::optional<std::vector<RepeatedBlock>> blocks;
  std::vector<Node*> nodes;
  auto where = [&](const std::vector<size_t>& a_lines) -> std::string {
    if (format != "fx") return "";
    if (!blocks) {
      blocks = FindRepeatedBlocks(a);
      nodes = a.Nodes();
    }
    return WhereInRepeats(a_lines, *blocks, nodes);
  };
  for (size_t i = 0; i < (hunks.empty() ? lines.size() : hunks[0].begin); ++i) put(lines[i]);
  for (size_t h = 0; h < hunks.size(); ++h) {
    const std::vector<size_t>& group = groups[hunks[h].key];
    bool foldable = group.size() >= min_alike;
    if (foldable && group.front() != h) {  // printed with the first of its group
      result.hidden[h] = true;
      continue;
    }
    for (size_t i = hunks[h].begin; i < hunks[h].end; ++i) put(lines[i]);
    if (!foldable) continue;
    std::vector<size_t> a_lines;
    for (size_t member : group) a_lines.push_back(hunks[member].a_line);
    std::vector<std::string> shown;
    for (size_t k = 1; k < a_lines.size() && k <= 8; ++k) shown.push_back(fmt::format("{}", a_lines[k]));
    std::string more = a_lines.size() > 9 ? fmt::format(" ... and {} more", a_lines.size() - 9) : "";
    std::string in_repeats = where(a_lines);
    result.note_after[h] = fmt::format(
        "x {} alike hunks: the same change under other names{}; the {} more start at lines {}{} "
        "(diff --all prints them)",
        group.size(), in_repeats, group.size() - 1, fmt::join(shown, ", "), more);
    put("@@ " + result.note_after[h]);
    result.groups.push_back({group.size(), std::move(in_repeats)});
    result.folded += group.size() - 1;
  }
  if (!out.empty()) out.pop_back();
  result.text = std::move(out);
  return result;
}

}  // namespace airscope

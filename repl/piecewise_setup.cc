#include "repl/piecewise_setup.h"

#include <charconv>

#include <fmt/format.h>

#include "core/analysis/piecewise_split.h"
#include "core/scanner.h"
#include "repl/command_output.h"
#include "repl/compile.h"

namespace airscope {
namespace {

// The most sizes a list may name: vLLM's own lists hold a few dozen to a few hundred.
constexpr size_t kMaxSizes = 100000;

}  // namespace

std::vector<FlagSpec> PiecewiseFlags() {
  auto integer = [](std::string name) { return FlagSpec{std::move(name), "N", {}}; };
  return {{"--sizes", "LIST", {}}, {"--at", "OP[,OP...]", {}},
          integer("--layers"),     {"--hccl", "ffts|aiv|aicpu", {CompletionKind::kFixed, {"aicpu", "aiv", "ffts"}}},
          integer("--ranks"),      integer("--dp"),
          integer("--tp"),         integer("--ep"),
          integer("--etp")};
}

Result<int64_t> FlagInt(const CommandFlags& flags, std::string_view name, int64_t fallback, int64_t least) {
  const Word* w = flags.Word(name);
  if (!w) return fallback;
  std::optional<int64_t> v = WordAsInt(*w);
  if (!v || *v < least || *v > (int64_t{1} << 40)) {
    return ColumnErrorf(w->column, "{} takes a whole number >= {}, not '{}'", name, least, w->text);
  }
  return *v;
}

Result<std::vector<int64_t>> ParseSizeList(const Word& word) {
  std::vector<int64_t> sizes;
  std::string_view text = word.text;
  size_t at = 0;
  while (at <= text.size()) {
    size_t comma = text.find(',', at);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(at, comma - at);
    size_t column = word.column + at;
    int64_t parts[3] = {0, 0, 1};
    int count = 0;
    for (size_t p = 0; p <= item.size() && count < 4;) {
      size_t colon = item.find(':', p);
      if (colon == std::string_view::npos) colon = item.size();
      std::string_view digits = item.substr(p, colon - p);
      int64_t v = 0;
      auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
      if (count == 3 || digits.empty() || error != std::errc() || end != digits.data() + digits.size() || v < 1 ||
          v > (int64_t{1} << 40)) {
        return ColumnErrorf(column + p, "--sizes: '{}' is not a size >= 1 or a range START:STOP[:STEP]", item);
      }
      parts[count++] = v;
      p = colon + 1;
    }
    if (count == 1) {
      sizes.push_back(parts[0]);
    } else if (parts[0] <= parts[1]) {
      for (int64_t s = parts[0]; s <= parts[1] && sizes.size() < kMaxSizes; s += parts[2]) sizes.push_back(s);
    } else {
      for (int64_t s = parts[0]; s >= parts[1] && sizes.size() < kMaxSizes; s -= parts[2]) sizes.push_back(s);
    }
    if (sizes.size() >= kMaxSizes) return ColumnErrorf(column, "--sizes: more than {} sizes", kMaxSizes);
    at = comma + 1;
  }
  return sizes;
}

Result<std::vector<SplitOp>> ParseSplitOps(const Word& word) {
  std::vector<SplitOp> ops;
  size_t at = 0;
  std::string_view text = word.text;
  while (at <= text.size()) {
    size_t comma = text.find(',', at);
    if (comma == std::string_view::npos) comma = text.size();
    Result<SplitOp> op = ParseSplitOp(text.substr(at, comma - at));
    if (!op.ok()) return ColumnErrorf(word.column + at, "{}", op.status().message());
    ops.push_back(std::move(*op));
    at = comma + 1;
  }
  return ops;
}

Result<PiecewiseRuntime> MakePiecewiseRuntime(Session& session, const std::string& graph, const CommandFlags& flags,
                                              std::vector<int64_t> sizes) {
  const Session::Entry* entry = nullptr;
  if (graph.empty()) {
    AIRSCOPE_ASSIGN_OR_RETURN(Session::Entry * current, session.Current());
    entry = current;
  } else {
    entry = session.Find(graph);
    if (!entry) return Status::Errorf("no graph named '{}' (graphs lists them)", graph);
  }
  std::vector<SplitOp> ops;
  if (const Word* at = flags.Word("--at")) {
    AIRSCOPE_ASSIGN_OR_RETURN(ops, ParseSplitOps(*at));
  } else {
    for (std::string_view written : DefaultSplitOps()) ops.push_back(*ParseSplitOp(written));
  }
  AIRSCOPE_ASSIGN_OR_RETURN(PiecewiseSplit split, SplitAtOps(*entry->loaded.graph, ops));
  if (split.unmatched.size() == ops.size()) {
    return Status::Errorf(
        "no node of '{}' is one of the split ops: vLLM would capture it whole, not piecewise "
        "(--at names others)",
        entry->name);
  }
  PiecewiseOptions options;
  options.capture_sizes = std::move(sizes);
  AIRSCOPE_ASSIGN_OR_RETURN(options.layers, FlagInt(flags, "--layers", 0, 1));
  if (const Word* h = flags.Word("--hccl")) {
    std::optional<HcclExpansion> mode = ParseHcclExpansion(h->text);
    if (!mode) return ColumnErrorf(h->column, "--hccl is ffts, aiv or aicpu, not '{}'", h->text);
    options.comm.mode = *mode;
  }
  AIRSCOPE_ASSIGN_OR_RETURN(options.comm.rank_size, FlagInt(flags, "--ranks", 16, 1));
  int64_t groups = 0;
  bool parallel = false;
  for (std::string_view name : {"--dp", "--tp", "--ep", "--etp"}) {
    AIRSCOPE_ASSIGN_OR_RETURN(int64_t size, FlagInt(flags, name, 1, 1));
    parallel = parallel || flags.Has(name);
    groups += size > 1;
  }
  if (parallel) options.comm.assumed_groups = groups;
  std::vector<RuntimePiece> pieces;
  for (GraphPiece& p : split.pieces) {
    RuntimePiece piece;
    AIRSCOPE_ASSIGN_OR_RETURN(Compiled lowered, CompileThroughPipeline(p.graph, session));
    piece.lowered = std::move(lowered.graph);
    piece.piece = std::move(p);
    pieces.push_back(std::move(piece));
  }
  return PiecewiseRuntime::Make(entry->name, std::move(pieces), std::move(options), session.registry());
}

}  // namespace airscope

// plan: capture-size planning. `plan formula` is vllm-ascend's own sizing
// formula (update_aclgraph_sizes, core/plan/aclgraph_size_formula.h): which
// capture sizes it would have kept for a model, and the arithmetic, so a user
// can see why a size list came out as it did. It simulates nothing.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <charconv>
#include <span>

#include "core/plan/aclgraph_size_formula.h"
#include "core/scanner.h"
#include "repl/command_output.h"
#include "repl/command_table.h"

namespace airscope {
namespace {

constexpr const char* kPlanUsage =
    "plan formula --layers N --sizes LIST [--version 2025-06|2026-06] [--dp N] [--tp N] [--ep N] [--etp N] "
    "[--hccl aiv|ffts] [--expert-parallel] [--moe] [--shared-expert-overlap] [--draft-layers N] [--pcp N] "
    "[--dcp N] [--full-and-piecewise] [--max-capture N]";

// The most sizes a list may name: vLLM's own lists hold a few dozen to a few hundred.
constexpr size_t kMaxSizes = 100000;

Result<int64_t> FlagInt(const CommandFlags& flags, std::string_view name, int64_t fallback, int64_t least) {
  const Word* w = flags.Word(name);
  if (!w) return fallback;
  std::optional<int64_t> v = WordAsInt(*w);
  if (!v || *v < least || *v > (int64_t{1} << 40)) {
    return ColumnErrorf(w->column, "{} takes a whole number >= {}, not '{}'", name, least, w->text);
  }
  return *v;
}

// "1,2,4,8:512:8": sizes and inclusive START:STOP[:STEP] ranges, in the order
// written; a range from a larger START counts down ("512:8:8,4,2,1").
Result<std::vector<int64_t>> ParseSizes(const Word& word) {
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

Status PlanFormula(CommandContext& ctx) {
  const CommandFlags& flags = ctx.flags;
  AclGraphSizeInputs in;
  if (const Word* v = flags.Word("--version")) {
    std::optional<AclGraphSizeFormula> version = ParseAclGraphSizeFormula(v->text);
    if (!version) return ColumnErrorf(v->column, "--version is 2025-06 or 2026-06, not '{}'", v->text);
    in.version = *version;
  }
  const bool v2025 = in.version == AclGraphSizeFormula::k2025_06;
  // Each version reads only some of the settings: one it does not read is refused, not ignored.
  static constexpr std::string_view k2025Only[] = {"--ep", "--etp"};
  static constexpr std::string_view k2026Only[] = {
      "--hccl", "--expert-parallel",   "--moe", "--shared-expert-overlap", "--draft-layers", "--pcp",
      "--dcp",  "--full-and-piecewise"};
  for (std::string_view name :
       v2025 ? std::span<const std::string_view>(k2026Only) : std::span<const std::string_view>(k2025Only)) {
    if (const Word* w = flags.Word(name)) {
      return ColumnErrorf(w->column, "the {} formula does not read {}", AclGraphSizeFormulaName(in.version), name);
    }
  }
  const Word* layers = flags.Word("--layers");
  const Word* sizes = flags.Word("--sizes");
  if (!layers || !sizes) return UsageError(kPlanUsage);
  AIRSCOPE_ASSIGN_OR_RETURN(in.num_hidden_layers, FlagInt(flags, "--layers", 0, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.sizes, ParseSizes(*sizes));
  AIRSCOPE_ASSIGN_OR_RETURN(in.data_parallel_size, FlagInt(flags, "--dp", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.tensor_parallel_size, FlagInt(flags, "--tp", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.expert_parallel_size, FlagInt(flags, "--ep", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.expert_tensor_parallel_size, FlagInt(flags, "--etp", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.draft_layers, FlagInt(flags, "--draft-layers", -1, 0));
  AIRSCOPE_ASSIGN_OR_RETURN(in.prefill_context_parallel_size, FlagInt(flags, "--pcp", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.decode_context_parallel_size, FlagInt(flags, "--dcp", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.max_capture_size, FlagInt(flags, "--max-capture", -1, 0));
  if (const Word* h = flags.Word("--hccl")) {
    if (h->text != "aiv" && h->text != "ffts")
      return ColumnErrorf(h->column, "--hccl is aiv or ffts, not '{}'", h->text);
    in.hccl_aiv = h->text == "aiv";
  }
  in.enable_expert_parallel = flags.Has("--expert-parallel");
  in.moe_model = flags.Has("--moe");
  in.multistream_overlap_shared_expert = flags.Has("--shared-expert-overlap");
  in.full_and_piecewise = flags.Has("--full-and-piecewise");

  AIRSCOPE_ASSIGN_OR_RETURN(AclGraphSizeResult r, ApplyAclGraphSizeFormula(in));
  ctx.out.Styled(Style::kHeading, "vllm-ascend update_aclgraph_sizes, {} version ({})",
                 AclGraphSizeFormulaName(in.version),
                 v2025 ? "vllm_ascend/utils.py @0060886a" : "vllm_ascend/utils.py @ac8a4279, removed by #9962");
  for (const std::string& step : r.steps) ctx.out.Print("  {}", step);
  if (r.adjusted) {
    ctx.out.Print("  {} -> {} sizes: {}", in.sizes.size(), r.sizes.size(), fmt::join(r.sizes, ", "));
  } else {
    ctx.out.Print("  no adjustment: all {} sizes kept", in.sizes.size());
  }
  ctx.out.Styled(Style::kDim,
                 "  (the formula's arithmetic from the numbers given, not a device measurement; vllm-ascend removed "
                 "it on 2026-06-08, #9962: newer HDK/CANN stacks capture many more graphs)");
  return Status::Ok();
}

Status Plan(CommandContext& ctx) {
  if (ctx.args.size() != 1 || ctx.args[0].text != "formula") return UsageError(kPlanUsage);
  return PlanFormula(ctx);
}

FlagSpec IntFlag(std::string name) { return {std::move(name), "N", {}}; }
FlagSpec Switch(std::string name) { return {std::move(name), "", {}}; }

}  // namespace

void RegisterPlanCommands(CommandTable& table) {
  table.Add(
      {"plan",
       kPlanUsage,
       "the capture sizes vllm-ascend's sizing formula keeps, with its arithmetic",
       "plan formula: what vllm-ascend's update_aclgraph_sizes (vllm_ascend/utils.py) does to a PIECEWISE\n"
       "model's capture sizes: from the model's layers and parallel settings it computes how many sizes the\n"
       "device's streams allow (about 2,048 streams; MAX_CAPTURE_SIZE 1920 or 1800 of them for graphs), and\n"
       "keeps that many spread evenly over the list, first and last included. Two versions, each exactly as\n"
       "one vllm-ascend commit has it (docs/torchair-sources.md, vau25 and vau26):\n"
       "  2025-06  @0060886a: floor(1920 / (layers + 1) / parallel_factor), parallel_factor = 1 + how many of\n"
       "           --dp (data_parallel_size_local), --tp, --ep, --etp exceed 1 (the version vllm-ascend #1168\n"
       "           quotes). At one size or fewer that code fails (ZeroDivisionError / IndexError): so does this.\n"
       "  2026-06  @ac8a4279 (the default; the last version before #9962 removed the formula): MAX 1800,\n"
       "           --draft-layers (MTP) add their layers + 1, --full-and-piecewise takes one stream per size,\n"
       "           --hccl aiv (HCCL_OP_EXPANSION_MODE=AIV) divides by 1 + groups + --expert-parallel +\n"
       "           --shared-expert-overlap (+ dp > 1 for a --moe model; a dense model first gives up\n"
       "           that factor times the graph's resources); otherwise (FFTS+) 40 streams per communication\n"
       "           group (dp, tp > 1) and a divisor 1 + 2 * groups, --pcp / --dcp > 1 taking 100 each.\n"
       "--sizes is the list in the order vLLM holds it (the sampling picks by position): sizes and inclusive\n"
       "ranges START:STOP[:STEP], counting down when START is larger. vLLM's mid-2025 default, largest first\n"
       "as vLLM then held it, is 512:8:8,4,2,1. --max-capture replaces the version's MAX_CAPTURE_SIZE (the\n"
       "source's comment examples use 1920).\n"
       "This is the formula's arithmetic, not a simulation: it says nothing about whether those graphs fit a\n"
       "device. vllm-ascend removed it on 2026-06-08 (#9962) after newer HDK/CANN stacks were found to\n"
       "capture many more graphs. Not built yet: plan capture (counting streams, events and pool bytes of the\n"
       "captured pieces on the simulated device).\n"
       "Example: plan formula --version 2025-06 --layers 94 --tp 8 --ep 8 --sizes 512:8:8,4,2,1 (vllm-ascend #1168's\n"
       "Qwen3-235B on 8 NPUs: 6 sizes, 512, 408, 304, 192, 88, 1)",
       Plan,
       [](const std::vector<std::string>& before) {
         return before.empty() ? CompletionRule{CompletionKind::kFixed, {"formula"}} : CompletionRule{};
       },
       {IntFlag("--layers"),
        {"--sizes", "LIST", {}},
        {"--version", "2025-06|2026-06", {CompletionKind::kFixed, {"2025-06", "2026-06"}}},
        IntFlag("--dp"),
        IntFlag("--tp"),
        IntFlag("--ep"),
        IntFlag("--etp"),
        {"--hccl", "aiv|ffts", {CompletionKind::kFixed, {"aiv", "ffts"}}},
        Switch("--expert-parallel"),
        Switch("--moe"),
        Switch("--shared-expert-overlap"),
        IntFlag("--draft-layers"),
        IntFlag("--pcp"),
        IntFlag("--dcp"),
        Switch("--full-and-piecewise"),
        IntFlag("--max-capture")}});
}

}  // namespace airscope

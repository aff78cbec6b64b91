// plan: capture-size planning. `plan formula` is vllm-ascend's own sizing
// formula (update_aclgraph_sizes, core/plan/aclgraph_size_formula.h): which
// capture sizes it would have kept for a model, and the arithmetic, so a user
// can see why a size list came out as it did. It simulates nothing.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <span>

#include "core/plan/aclgraph_size_formula.h"
#include "repl/command_output.h"
#include "repl/command_table.h"
#include "repl/piecewise_setup.h"
#include "repl/plan_capture.h"

namespace airscope {
namespace {

constexpr const char* kPlanUsage =
    "plan formula --layers N --sizes LIST [--version 2025-06|2026-06] [--dp N] [--tp N] [--ep N] [--etp N] "
    "[--hccl aiv|ffts] [--expert-parallel] [--moe] [--shared-expert-overlap] [--draft-layers N] [--pcp N] "
    "[--dcp N] [--full-and-piecewise] [--max-capture N]";

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
  AIRSCOPE_ASSIGN_OR_RETURN(in.sizes, ParseSizeList(*sizes));
  AIRSCOPE_ASSIGN_OR_RETURN(in.data_parallel_size, FlagInt(flags, "--dp", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.tensor_parallel_size, FlagInt(flags, "--tp", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.expert_parallel_size, FlagInt(flags, "--ep", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.expert_tensor_parallel_size, FlagInt(flags, "--etp", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.draft_layers, FlagInt(flags, "--draft-layers", -1, 0));
  AIRSCOPE_ASSIGN_OR_RETURN(in.prefill_context_parallel_size, FlagInt(flags, "--pcp", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.decode_context_parallel_size, FlagInt(flags, "--dcp", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.max_capture_size, FlagInt(flags, "--max-capture", -1, 0));
  if (const Word* h = flags.Word("--hccl")) {
    if (h->text != "aiv" && h->text != "ffts") {
      return ColumnErrorf(h->column, "the formula's --hccl is aiv or ffts (it has no aicpu branch), not '{}'", h->text);
    }
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
  if (!ctx.args.empty() && ctx.args[0].text == "capture") return PlanCapture(ctx);
  if (ctx.args.size() != 1 || ctx.args[0].text != "formula") {
    return UsageError(fmt::format("{}\n       {}", kPlanUsage, PlanCaptureUsage()));
  }
  for (std::string_view name : {"--streams", "--hbm", "--batches", "--at", "--auto", "--ranks"}) {
    if (const Word* w = ctx.flags.Word(name)) return ColumnErrorf(w->column, "plan formula does not read {}", name);
  }
  return PlanFormula(ctx);
}

FlagSpec IntFlag(std::string name) { return {std::move(name), "N", {}}; }
FlagSpec Switch(std::string name) { return {std::move(name), "", {}}; }

}  // namespace

void RegisterPlanCommands(CommandTable& table) {
  table.Add(
      {"plan",
       fmt::format("{} | {}", kPlanUsage, PlanCaptureUsage()),
       "which capture sizes fit the device: simulated per size (plan capture), or vllm-ascend's formula",
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
       "capture many more graphs.\n"
       "\n"
       "plan capture: the simulation. GRAPH (the current one by default) is split as vLLM splits it (`split`;\n"
       "--at names other split ops), each piece goes through the session's pipeline, and every piece between\n"
       "split ops is captured at every size, largest first as vLLM captures them, into ONE graph pool (vLLM's\n"
       "global pool, vllm_ascend/compilation/acl_graph.py), on a scratch copy of the device: the session's\n"
       "device is not touched (`piecewise capture` captures on it). --streams and --hbm replace the device's\n"
       "streams (device set streams) and memory for the plan. Per size: the graphs, the streams they hold, the\n"
       "device's running total, their event records, how much the pool grew and its size after, and the host\n"
       "time recording the tasks took; then the first size that does not fit, with the runtime's error (207008,\n"
       "Stream resources are insufficient) or out of memory. --layers N repeats the graph's layers (found where\n"
       "its split ops repeat) to N. Streams per graph: the streams its tasks run on, plus HCCL's per\n"
       "communication group: ffts (the default, A2) 2 per graph and 40 once per group, aiv 1, aicpu --ranks - 1\n"
       "(the worst case). Those numbers are what vllm-ascend's formula assumes (vllm_ascend/utils.py), not a\n"
       "measurement; the real budget depends on the HDK/CANN stack. --dp/--tp/--ep/--etp N > 1 each make a\n"
       "group every captured piece is assumed to use; without them, the groups the pieces' collectives name.\n"
       "--sizes auto (vLLM's 512:8:8,4,2,1) or --auto over a LIST: the most sizes that fit, spread as the formula\n"
       "spreads them, or, with --batches FILE (lines TOKENS [COUNT]), the set with the least padding (the\n"
       "largest size always kept), then captured again to check. Last, what the formula (--version) keeps for\n"
       "the same layers and settings, and where the two disagree.\n"
       "Example: plan formula --version 2025-06 --layers 94 --tp 8 --ep 8 --sizes 512:8:8,4,2,1 (vllm-ascend #1168's\n"
       "Qwen3-235B on 8 NPUs: 6 sizes, 512, 408, 304, 192, 88, 1)",
       Plan,
       [](const std::vector<std::string>& before) {
         return before.empty() ? CompletionRule{CompletionKind::kFixed, {"capture", "formula"}} : CompletionRule{};
       },
       {IntFlag("--layers"),
        {"--sizes", "LIST", {}},
        {"--version", "2025-06|2026-06", {CompletionKind::kFixed, {"2025-06", "2026-06"}}},
        IntFlag("--dp"),
        IntFlag("--tp"),
        IntFlag("--ep"),
        IntFlag("--etp"),
        {"--hccl", "ffts|aiv|aicpu", {CompletionKind::kFixed, {"aicpu", "aiv", "ffts"}}},
        Switch("--expert-parallel"),
        Switch("--moe"),
        Switch("--shared-expert-overlap"),
        IntFlag("--draft-layers"),
        IntFlag("--pcp"),
        IntFlag("--dcp"),
        Switch("--full-and-piecewise"),
        IntFlag("--max-capture"),
        {"--at", "OP[,OP...]", {}},
        {"--batches", "FILE", {CompletionKind::kFile, {}}},
        IntFlag("--streams"),
        {"--hbm", "BYTES", {}},
        Switch("--auto"),
        IntFlag("--ranks")}});
}

}  // namespace airscope

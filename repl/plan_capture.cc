// plan capture: which capture sizes of a piecewise model fit the device,
// by capturing every piece at every size on a scratch device
// (core/runtime/capture_plan.h), beside what vllm-ascend's formula would
// keep for the same model and settings (core/plan/aclgraph_size_formula.h).
#include "repl/plan_capture.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>

#include "core/file_util.h"
#include "core/plan/aclgraph_size_formula.h"
#include "core/runtime/capture_plan.h"
#include "core/scanner.h"
#include "repl/tokenizer.h"
#include "repl/command_output.h"
#include "repl/piecewise_setup.h"
#include "viz/run_stats.h"

namespace airscope {
namespace {

// vLLM's capture sizes of mid-2025 (1, 2, 4, then 8 to 512 by 8), largest
// first as vLLM then held them: what `--sizes auto` chooses from.
constexpr const char* kDefaultCandidates = "512:8:8,4,2,1";

// A batch-size histogram: per line `TOKENS [COUNT]` (COUNT 1 when absent),
// `#` to the end of a line a comment.
Result<std::map<int64_t, int64_t>> ReadBatches(const std::string& path) {
  AIRSCOPE_ASSIGN_OR_RETURN(FileText file, ReadFileText(path));
  std::map<int64_t, int64_t> batches;
  std::string_view text = file.view();
  size_t line_no = 0;
  while (!text.empty()) {
    ++line_no;
    size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::pair<std::string_view, size_t>> fields;
    for (size_t at = 0; at < line.size();) {
      while (at < line.size() && (line[at] == ' ' || line[at] == '\t' || line[at] == '\r')) ++at;
      size_t start = at;
      while (at < line.size() && line[at] != ' ' && line[at] != '\t' && line[at] != '\r') ++at;
      if (at > start) fields.emplace_back(line.substr(start, at - start), start + 1);
    }
    if (fields.empty()) continue;
    if (fields.size() > 2) {
      return Status::Errorf("{}:{}:{}: a line is TOKENS [COUNT], not {} fields", path, line_no, fields[2].second,
                            fields.size());
    }
    int64_t value[2] = {0, 1};
    for (size_t f = 0; f < fields.size(); ++f) {
      std::optional<int64_t> v = WordAsInt(Word{std::string(fields[f].first), fields[f].second});
      if (!v || *v < 1) {
        return Status::Errorf("{}:{}:{}: {} must be a whole number >= 1, not '{}'", path, line_no, fields[f].second,
                              f == 0 ? "TOKENS" : "COUNT", fields[f].first);
      }
      value[f] = *v;
    }
    batches[value[0]] += value[1];
  }
  if (batches.empty()) return Status::Errorf("{}: no batch size in it (lines TOKENS [COUNT])", path);
  return batches;
}

std::string Streams(int64_t n, int64_t budget) {
  return budget > 0 ? fmt::format("{} of {}", n, budget) : fmt::format("{} (no limit set)", n);
}

void PrintRows(CommandOutput& out, const CapturePlan& plan) {
  out.Print("  {:>6} {:>7} {:>8} {:>13} {:>7} {:>11} {:>11} {:>10}", "size", "graphs", "streams", "device total",
            "events", "pool +", "pool", "capture");
  for (const CapturePlanRow& r : plan.rows) {
    if (!r.captured) {
      out.Styled(r.size == plan.failed_size ? Style::kBad : Style::kDim, "  {:>6} {}", r.size,
                 r.size == plan.failed_size ? "does not fit (below)" : "not attempted (after the first failure)");
      continue;
    }
    // A kernel without a cost model has no output size: the pool holds at least what is shown.
    const char* at_least = r.unknown_cost_kernels > 0 ? ">= " : "";
    out.Print("  {:>6} {:>7} {:>8} {:>13} {:>7} {:>11} {:>11} {:>10}", r.size, r.graphs, r.streams, r.total_streams,
              r.events, at_least + FormatBytes(r.pool_growth), at_least + FormatBytes(r.pool_after),
              FormatNs(r.capture_ns));
  }
  for (const CapturePlanRow& r : plan.rows) {
    if (r.unknown_cost_kernels == 0) continue;
    out.Styled(Style::kBad,
               "  >= a lower bound: {} kernel(s) per size have no cost model, so no output size: the pool holds "
               "nothing for them",
               r.unknown_cost_kernels);
    break;
  }
}

}  // namespace

const char* PlanCaptureUsage() {
  return "plan capture [GRAPH] --sizes LIST|auto [--auto] [--batches FILE] [--streams N] [--hbm BYTES] [--at "
         "OP[,OP...]] "
         "[--layers N] [--hccl ffts|aiv|aicpu] [--ranks N] [--dp N] [--tp N] [--ep N] [--etp N] "
         "[--version 2025-06|2026-06]";
}

Status PlanCapture(CommandContext& ctx) {
  const CommandFlags& flags = ctx.flags;
  if (ctx.args.size() > 2) return UsageError(PlanCaptureUsage());
  const std::string graph = ctx.args.size() == 2 ? ctx.args[1].text : "";
  const Word* sizes_word = flags.Word("--sizes");
  if (!sizes_word) return UsageError(PlanCaptureUsage());
  const bool auto_sizes = sizes_word->text == "auto" || flags.Has("--auto");
  std::vector<int64_t> sizes;
  if (sizes_word->text == "auto") {
    sizes = *ParseSizeList(Word{kDefaultCandidates, sizes_word->column});
  } else {
    AIRSCOPE_ASSIGN_OR_RETURN(sizes, ParseSizeList(*sizes_word));
  }
  std::map<int64_t, int64_t> batches;
  if (const Word* b = flags.Word("--batches")) {
    if (!auto_sizes) return ColumnErrorf(b->column, "--batches chooses sizes: give it with --sizes auto or --auto");
    AIRSCOPE_ASSIGN_OR_RETURN(batches, ReadBatches(b->text));
  }
  DeviceSpec spec = ctx.session.device().sim.spec();
  AIRSCOPE_ASSIGN_OR_RETURN(spec.streams, FlagInt(flags, "--streams", spec.streams, 0));
  if (const Word* h = flags.Word("--hbm")) {
    AIRSCOPE_RETURN_IF_ERROR(SetDeviceParam(spec, "memory_capacity", h->text).WithPrefix("--hbm"));
  }
  AIRSCOPE_ASSIGN_OR_RETURN(PiecewiseRuntime runtime, MakePiecewiseRuntime(ctx.session, graph, flags, sizes));
  CapturePlan plan;
  if (auto_sizes) {
    AIRSCOPE_ASSIGN_OR_RETURN(plan, PlanCaptureAuto(runtime, sizes, batches, spec, ctx.session.registry()));
  } else {
    AIRSCOPE_ASSIGN_OR_RETURN(plan, PlanCaptureSizes(runtime, sizes, spec, ctx.session.registry()));
  }
  const CommStreams& comm = runtime.options().comm;
  const size_t per_size = runtime.captured_instances();
  ctx.out.Styled(
      Style::kHeading,
      "plan capture '{}': {} graph(s) per size ({} layer(s){}), size symbol {}, on a scratch {} ({} "
      "streams, {} HBM)",
      runtime.name(), per_size, runtime.layers(),
      runtime.layers() == runtime.graph_layers() ? "" : fmt::format(", the graph has {}", runtime.graph_layers()),
      runtime.size_symbol(), spec.name, spec.streams > 0 ? fmt::format("{}", spec.streams) : "unlimited",
      FormatBytes(spec.memory_capacity));
  std::string groups =
      comm.assumed_groups >= 0
          ? fmt::format("{} group(s) per graph (assumed from --dp/--tp/--ep/--etp)", comm.assumed_groups)
          : "the groups each piece's collectives name";
  if (runtime.most_groups() == 0) {
    ctx.out.Styled(Style::kDim,
                   "  streams per graph: the streams its tasks run on; no piece has a collective (--tp N and the like "
                   "assume groups)");
  } else {
    ctx.out.Styled(
        Style::kDim,
        "  streams per graph: its tasks' streams + HCCL {} for {}: {} per group{}; the formula's assumptions "
        "(vllm_ascend/utils.py), not a measurement",
        HcclExpansionName(comm.mode), groups, comm.PerGraph(1),
        comm.PerDevice(1) > 0 ? fmt::format(", and {} per group once on the device", comm.PerDevice(1)) : "");
  }
  if (auto_sizes) {
    ctx.out.Print("auto: the sizes kept, captured largest first:");
  }
  PrintRows(ctx.out, plan);
  int64_t fitted = 0;
  int64_t streams = 0;
  int64_t pool = 0;
  bool pool_lower_bound = false;
  for (const CapturePlanRow& r : plan.rows) {
    fitted += r.captured;
    pool_lower_bound = pool_lower_bound || r.unknown_cost_kernels > 0;
    if (r.captured) {
      streams = r.total_streams;
      pool = r.pool_after;
    }
  }
  ctx.out.Print("total: {} of {} size(s) fit; streams {}{}; graph pool {} of {} HBM", fitted, plan.rows.size(),
                Streams(streams, plan.stream_budget),
                plan.comm_streams > 0 ? fmt::format(" ({} held once for communication)", plan.comm_streams) : "",
                (pool_lower_bound ? ">= " : "") + FormatBytes(pool), FormatBytes(plan.memory_capacity));
  if (plan.failed_size != 0 && auto_sizes) {
    ctx.out.Styled(Style::kBad, "the candidates captured largest first: {} fit, then {} did not:", plan.probe_fit,
                   plan.failed_size);
    ctx.out.AddBlock(plan.failure);
  } else if (plan.failed_size != 0) {
    ctx.out.Styled(Style::kBad, "first size that does not fit: {}", plan.failed_size);
    ctx.out.AddBlock(plan.failure);
  }
  if (auto_sizes) {
    ctx.out.Styled(Style::kAccent, "auto keeps {} of {} candidate size(s): {}", plan.chosen.size(), sizes.size(),
                   fmt::join(plan.chosen, ", "));
    if (plan.padding_waste >= 0) {
      int64_t tokens = 0;
      for (const auto& [size, count] : batches) tokens += size * count;
      ctx.out.Print("  the least padding for {}: {} padded token(s) over {} real ones", flags.Word("--batches")->text,
                    plan.padding_waste, tokens);
    } else {
      ctx.out.Print("  spread over the candidates as vllm-ascend's formula samples (first and last kept)");
    }
  }
  // The formula, for the same model and settings.
  AclGraphSizeInputs in;
  if (const Word* v = flags.Word("--version")) {
    std::optional<AclGraphSizeFormula> version = ParseAclGraphSizeFormula(v->text);
    if (!version) return ColumnErrorf(v->column, "--version is 2025-06 or 2026-06, not '{}'", v->text);
    in.version = *version;
  }
  in.num_hidden_layers = runtime.layers();
  in.sizes = sizes;
  AIRSCOPE_ASSIGN_OR_RETURN(in.data_parallel_size, FlagInt(flags, "--dp", 1, 1));
  AIRSCOPE_ASSIGN_OR_RETURN(in.tensor_parallel_size, FlagInt(flags, "--tp", 1, 1));
  if (in.version == AclGraphSizeFormula::k2025_06) {
    AIRSCOPE_ASSIGN_OR_RETURN(in.expert_parallel_size, FlagInt(flags, "--ep", 1, 1));
    AIRSCOPE_ASSIGN_OR_RETURN(in.expert_tensor_parallel_size, FlagInt(flags, "--etp", 1, 1));
  }
  in.hccl_aiv = comm.mode == HcclExpansion::kAiv;
  if (spec.streams > 0 && flags.Has("--streams")) in.max_capture_size = spec.streams;
  Result<AclGraphSizeResult> formula = ApplyAclGraphSizeFormula(in);
  ctx.out.Styled(
      Style::kHeading, "vllm-ascend's formula ({} version{}) for {} layers:", AclGraphSizeFormulaName(in.version),
      in.max_capture_size > 0 ? fmt::format(", MAX_CAPTURE_SIZE {} from --streams", in.max_capture_size) : "",
      in.num_hidden_layers);
  if (!formula.ok()) {
    ctx.out.Print("  {}", formula.status().message());
    return Status::Ok();
  }
  for (const std::string& step : formula->steps) ctx.out.Print("  {}", step);
  ctx.out.Print("  keeps {} size(s): {}", formula->sizes.size(), fmt::join(formula->sizes, ", "));
  // Where they disagree.
  const int64_t sim_graphs = static_cast<int64_t>(per_size);
  if (sim_graphs != formula->resources_per_graph) {
    ctx.out.Styled(Style::kAccent,
                   "  disagree: the simulation captures {} graphs per size, the formula counts {} (layers + 1{})",
                   sim_graphs, formula->resources_per_graph,
                   formula->resources_per_graph > in.num_hidden_layers + 1 ? " + draft" : "");
  }
  const int64_t sim_sizes = auto_sizes ? static_cast<int64_t>(plan.chosen.size()) : fitted;
  if (sim_sizes != static_cast<int64_t>(formula->sizes.size())) {
    ctx.out.Styled(Style::kAccent, "  disagree: {} size(s) fit in the simulation, the formula keeps {}", sim_sizes,
                   formula->sizes.size());
  } else {
    ctx.out.Print("  agree on the count: {} size(s)", sim_sizes);
  }
  return Status::Ok();
}

}  // namespace airscope

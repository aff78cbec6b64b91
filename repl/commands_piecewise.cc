// piecewise: vLLM's piecewise graph runtime on the session's device
// (core/runtime/piecewise_runtime.h): capture every piece at every size into
// one global pool, then run batches through it, padded to a captured size.
// `plan capture` does the same on a scratch device to answer what fits.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/device/allocator.h"
#include "repl/command_output.h"
#include "repl/command_table.h"
#include "repl/piecewise_setup.h"
#include "repl/session.h"
#include "viz/run_stats.h"

namespace airscope {
namespace {

constexpr const char* kPiecewiseUsage =
    "piecewise [capture [GRAPH] --sizes LIST [--at OP[,OP...]] [--layers N] [--hccl ffts|aiv|aicpu] [--ranks N] "
    "[--dp N] [--tp N] [--ep N] [--etp N] | run TOKENS... | release]";

void ReleasePiecewise(DeviceState& dev) {
  if (dev.piecewise) dev.piecewise->Release(dev.sim);
  dev.piecewise.reset();
  if (dev.piecewise_pool != 0) (void)dev.sim.allocator().ReleasePool(dev.piecewise_pool);
  dev.piecewise_pool = 0;
}

Status CapturePieces(CommandContext& ctx) {
  if (ctx.args.size() > 2) return UsageError(kPiecewiseUsage);
  const Word* sizes_word = ctx.flags.Word("--sizes");
  if (!sizes_word) return UsageError(kPiecewiseUsage);
  AIRSCOPE_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, ParseSizeList(*sizes_word));
  const std::string graph = ctx.args.size() == 2 ? ctx.args[1].text : "";
  AIRSCOPE_ASSIGN_OR_RETURN(PiecewiseRuntime runtime, MakePiecewiseRuntime(ctx.session, graph, ctx.flags, sizes));
  DeviceState& dev = ctx.session.device();
  if (dev.piecewise) {
    ctx.out.Print("released the piecewise graphs of '{}' first (one piecewise model per session)",
                  dev.piecewise->name());
  }
  ReleasePiecewise(dev);
  dev.piecewise_pool = dev.sim.allocator().CreatePool("vLLM global graph pool");
  ctx.out.Styled(Style::kAccent,
                 "piecewise '{}': {} graph(s) per size, {} layer(s), size symbol {}; sizes largest "
                 "first into one pool",
                 runtime.name(), runtime.captured_instances(), runtime.layers(), runtime.size_symbol());
  for (int64_t size : runtime.CaptureOrder()) {
    std::vector<std::string> lines;
    Result<SizeCapture> c = runtime.CaptureSize(size, dev.sim, dev.piecewise_pool, ctx.session.registry(), &lines);
    for (const std::string& line : lines) ctx.out.Styled(Style::kDim, "  {}", line);
    if (!c.ok()) {
      // Keep what was captured: vLLM's start-up fails here, the sizes before stay in the pool.
      dev.piecewise = std::move(runtime);
      return c.status();
    }
    const char* at_least = c->unknown_cost_kernels > 0 ? ">= " : "";
    ctx.out.Print("  size {:>5}: {} graph(s), {} stream(s), {} event(s), pool +{}{} = {}{}, capture {}{}", size,
                  c->graphs.size(), c->streams, c->events, at_least, FormatBytes(c->pool_after - c->pool_before),
                  at_least, FormatBytes(c->pool_after), FormatNs(c->capture_ns),
                  c->unknown_cost_kernels > 0
                      ? fmt::format(" (a lower bound: {} kernel(s) without a cost model have no output size)",
                                    c->unknown_cost_kernels)
                      : "");
  }
  ctx.out.Print("  the device's streams: {} held{}", dev.sim.streams_held(),
                dev.sim.spec().streams > 0 ? fmt::format(" of {}", dev.sim.spec().streams) : "");
  dev.piecewise = std::move(runtime);
  return Status::Ok();
}

Status RunBatches(CommandContext& ctx) {
  DeviceState& dev = ctx.session.device();
  if (!dev.piecewise) return Status::Error("no piecewise model captured (piecewise capture --sizes LIST)");
  if (ctx.args.size() < 2) return UsageError(kPiecewiseUsage);
  for (size_t i = 1; i < ctx.args.size(); ++i) {
    std::optional<int64_t> tokens = WordAsInt(ctx.args[i]);
    if (!tokens || *tokens < 1) {
      return ColumnErrorf(ctx.args[i].column, "a batch is a token count >= 1, not '{}'", ctx.args[i].text);
    }
    AIRSCOPE_ASSIGN_OR_RETURN(BatchRun run, dev.piecewise->Run(*tokens, dev.sim, ctx.session.registry()));
    for (const std::string& line : run.lines) ctx.out.Styled(Style::kDim, "  {}", line);
    ctx.out.Print("batch {}: {} replay(s), {} eager piece(s), {}{}", run.tokens, run.replays, run.eager_pieces,
                  FormatNs(run.wall_ns), run.lower_bound ? " (a lower bound: a task of unknown cost ran)" : "");
  }
  return Status::Ok();
}

Status ShowPieces(CommandContext& ctx) {
  const DeviceState& dev = ctx.session.device();
  if (!dev.piecewise) {
    ctx.out.Print("no piecewise model captured");
    return Status::Ok();
  }
  const PiecewiseRuntime& rt = *dev.piecewise;
  ctx.out.Print("piecewise '{}': {} layer(s), {} graph(s) per size, HCCL {}", rt.name(), rt.layers(),
                rt.captured_instances(), HcclExpansionName(rt.options().comm.mode));
  for (const SizeCapture& s : rt.captured()) {
    ctx.out.Print("  size {:>5}: {} graph(s), {} stream(s), {} event(s)", s.size, s.graphs.size(), s.streams, s.events);
  }
  ctx.out.Print("  pool 'vLLM global graph pool': {} reserved",
                FormatBytes(dev.sim.allocator().Stats(dev.piecewise_pool).reserved));
  return Status::Ok();
}

Status Piecewise(CommandContext& ctx) {
  if (ctx.args.empty()) return ShowPieces(ctx);
  const std::string& verb = ctx.args[0].text;
  if (verb == "capture") return CapturePieces(ctx);
  if (verb == "run") return RunBatches(ctx);
  if (verb == "release" && ctx.args.size() == 1) {
    if (!ctx.session.device().piecewise) return Status::Error("no piecewise model captured");
    ReleasePiecewise(ctx.session.device());
    ctx.out.Print("released the piecewise graphs and their pool");
    return Status::Ok();
  }
  return UsageError(kPiecewiseUsage);
}

}  // namespace

void RegisterPiecewiseCommand(CommandTable& table) {
  table.Add({"piecewise", kPiecewiseUsage,
             "vLLM's piecewise graphs on the device: capture per size, run padded batches",
             "vllm-ascend's piecewise ACL graphs (ACLGraphWrapper, vllm_ascend/compilation/acl_graph.py), the third\n"
             "capture manager beside TorchAir's (call in reduce-overhead) and `capture`:\n"
             "  capture  splits GRAPH (the current graph by default) as `split` does (--at: other split ops), runs\n"
             "           each piece through the session's pipeline, and captures every piece between split ops at\n"
             "           each size of --sizes, largest first, into ONE pool, 'vLLM global graph pool' (vLLM's\n"
             "           get_global_graph_pool; `mem` shows it). A piece reads its inputs where they are (the wrapper\n"
             "           copies nothing); its outputs live until the last later piece reading them is captured; the\n"
             "           last piece's output goes back to the pool at once (weak_ref_output). A capture past the\n"
             "           device's streams (device set streams) fails with the runtime's 207008 error and\n"
             "           vllm-ascend's advice; the sizes captured before it stay. Streams per graph and --layers,\n"
             "           --hccl, --ranks, --dp/--tp/--ep/--etp as in `plan capture` (help plan).\n"
             "  run      a batch of TOKENS runs at the smallest captured size >= TOKENS (padded): the captured\n"
             "           pieces replay, the split ops (attention) run eagerly at that size; beyond the largest size\n"
             "           every piece runs eagerly. Times as the simulator's (help timeline); the eager attention ops\n"
             "           have no cost model, so those times are lower bounds.\n"
             "  release  releases the graphs and the pool. With no argument: what is captured.\n"
             "airscope simplifies: no warmup runs before a capture, no FULL/FULL_DECODE_ONLY modes, no attention\n"
             "metadata updates; the log lines are vllm-ascend's (Capturing a aclgraph, Replaying aclgraph).\n"
             "Example: piecewise capture --sizes 8,4,2,1 --at vllm::unified_attention_with_output",
             Piecewise,
             [](const std::vector<std::string>& before) {
               return before.empty() ? CompletionRule{CompletionKind::kFixed, {"capture", "release", "run"}}
                                     : CompletionRule{};
             },
             PiecewiseFlags()});
}

}  // namespace airscope

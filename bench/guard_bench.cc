// guard_bench: the cost of a compile-cache lookup that hits.
//
// A frame with 4 tensor inputs; the cache holds one static entry, or one
// entry with symbolic dims (range and equality guards), or 8 entries where
// the hit is the oldest (7 entries fail first). Prints ns per lookup.
// Target: a hit with 4 tensor inputs under 200 ns. Usage: guard_bench [iterations]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/format.h>

#include "bench/bench_util.h"
#include "core/dynamo/compile_cache.h"
#include "core/fx/readable.h"

namespace {

using namespace airscope;

std::unique_ptr<Graph> FourInputs() {
  return ParseReadable(
             "class GraphModule(torch.nn.Module):\n"
             "    def forward(self, a: \"f32[8, 128]\", b: \"f32[8, 128]\", c: \"f32[8, 128]\", d: \"f32[8, 128]\"):\n"
             "        add: \"f32[8, 128]\" = torch.ops.aten.add.Tensor(a, b)\n"
             "        add_1: \"f32[8, 128]\" = torch.ops.aten.add.Tensor(c, d)\n"
             "        return (add, add_1)\n",
             "bench.py")
      .value();
}

std::vector<CallInput> Inputs(const Graph& graph, int64_t batch) {
  std::string spec = fmt::format("a=f32[{0},128] b=f32[{0},128] c=f32[{0},128] d=f32[{0},128]", batch);
  return BindCallInputs(graph, ParseCallSpec(spec).value()).value();
}

double Measure(Frame& frame, const Graph& graph, const std::vector<CallInput>& inputs, const FrameOptions& options,
               const CompileFn& compile, long iterations) {
  auto start = std::chrono::steady_clock::now();
  for (long i = 0; i < iterations; ++i) {
    Result<CallOutcome> outcome = frame.Call(graph, inputs, options, compile);
    if (!outcome.ok() || outcome->kind != CallOutcome::Kind::kHit) std::abort();
  }
  auto ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  return ns / static_cast<double>(iterations);
}

double MeasureCheck(const GuardSet& guards, const std::vector<CallInput>& inputs, long iterations) {
  auto start = std::chrono::steady_clock::now();
  long passed = 0;
  for (long i = 0; i < iterations; ++i) passed += guards.Check(inputs);
  if (passed != iterations) std::abort();
  auto ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  return ns / static_cast<double>(iterations);
}

}  // namespace

int main(int argc, char** argv) {
  bench::PrintMachine();
  long iterations = argc > 1 ? std::atol(argv[1]) : 2000000;
  std::unique_ptr<Graph> graph = FourInputs();
  CompileFn compile = [](const Graph& g, const std::vector<TensorMeta>&, const std::vector<TensorMeta>&) {
    return Result<std::unique_ptr<Graph>>(g.Clone());
  };
  FrameOptions options;
  fmt::print("{:<44} {:>10} {:>8}\n", "case (4 tensor inputs)", "ns/lookup", "checks");

  Frame one("forward", "bench.py", 0);
  (void)one.Call(*graph, Inputs(*graph, 8), options, compile);
  const GuardSet& static_guards = one.entries()[0]->guards;
  fmt::print("{:<44} {:>10.1f} {:>8}\n", "GuardSet::Check, static entry",
             MeasureCheck(static_guards, Inputs(*graph, 8), iterations), static_guards.check_count());
  fmt::print("{:<44} {:>10.1f} {:>8}\n", "Frame::Call hit, 1 static entry",
             Measure(one, *graph, Inputs(*graph, 8), options, compile, iterations), static_guards.check_count());

  Frame dynamic("forward", "bench.py", 1);
  (void)dynamic.Call(*graph, Inputs(*graph, 8), options, compile);
  (void)dynamic.Call(*graph, Inputs(*graph, 16), options, compile);  // automatic dynamic: s0 with equalities
  fmt::print("{:<44} {:>10.1f} {:>8}\n", "Frame::Call hit, symbolic entry (newest)",
             Measure(dynamic, *graph, Inputs(*graph, 33), options, compile, iterations),
             dynamic.entries()[1]->guards.check_count());

  Frame many("forward", "bench.py", 2);
  options.automatic_dynamic = false;
  for (int64_t b = 1; b <= 8; ++b) (void)many.Call(*graph, Inputs(*graph, b * 2), options, compile);
  fmt::print("{:<44} {:>10.1f} {:>8}\n", "Frame::Call hit, oldest of 8 static entries",
             Measure(many, *graph, Inputs(*graph, 2), options, compile, iterations / 4),
             many.entries()[0]->guards.check_count());
  return 0;
}

// Helpers shared by the stream pass, rewrite language and plugin tests: the
// seed graph, the seed example as airscript rules, and a one-line-per-node
// description of a graph (target, args, stream) that ignores meta.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "core/fx/python_repr.h"
#include "core/ir/graph.h"
#include "core/pass/pass.h"
#include "core/pass/rewrite_language.h"
#include "repl/graph_loader.h"

namespace airscope::testing_util {

inline std::unique_ptr<Graph> LoadSeedGraph() {
  Result<LoadedGraph> loaded =
      LoadGraphFile(std::string(AIRSCOPE_TEST_DATA) + "/seed_multistream.readable.py", 1 << 20, OpRegistry::Builtin());
  EXPECT_TRUE(loaded.ok()) << loaded.status().message();
  return loaded.ok() ? loaded->graph->Clone() : std::make_unique<Graph>();  // tests edit their copy
}

// TorchAir's custom-pass multi-stream example (seeds/002) in the rewrite language.
inline const std::vector<std::string>& SeedRules() {
  static const std::vector<std::string> kRules = {
      "  on aten.mm.default: insert before air.scope_enter.default(['_user_stream_label'], ['stream_1'])",
      "  on aten.abs.default: insert after air.record.default() as rec",
      "  on aten.abs.default: insert after $rec air.scope_exit.default()",
      "  on aten.sub.Tensor: insert before air.wait.default([$rec])",
  };
  return kRules;
}

// "name = target(args, k=v) @stream" per node; placeholders/output by kind.
inline std::vector<std::string> Describe(const Graph& graph) {
  std::vector<std::string> out;
  for (const Node* n : graph) {
    std::string line = fmt::format("{} = ", n->name());
    if (n->op() == OpKind::kCallFunction) {
      line += std::string(StripTorchOps(n->target()));
    } else {
      line += std::string(OpKindName(n->op()));
    }
    std::vector<std::string> parts;
    for (const Argument& a : n->args()) parts.push_back(FormatPythonArg(a));
    for (const Kwarg& k : n->kwargs()) parts.push_back(fmt::format("{}={}", k.name, FormatPythonArg(k.value)));
    line += fmt::format("({})", fmt::join(parts, ", "));
    if (!n->stream().empty()) line += " @" + n->stream();
    out.push_back(line);
  }
  return out;
}

inline PassInfo SeedRewritePass(const std::string& name = "multistream") {
  Result<PassInfo> info = DefineRewritePass(name, SeedRules(), 2, "test");
  EXPECT_TRUE(info.ok()) << info.status().message();
  return info.ok() ? std::move(*info) : PassInfo{};
}

}  // namespace airscope::testing_util

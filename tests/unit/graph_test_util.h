// Graphs for unit tests, written the way torch prints them (print_readable):
// the one place tests turn such text into a Graph. A parse error fails the
// calling test and gives an empty graph, so no test dereferences a failed
// result. Depends on core only (core tests must not link the shell).
#pragma once

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/fx/readable.h"
#include "core/ir/graph.h"

namespace airscope::testing_util {

// A whole `class GraphModule(torch.nn.Module):` text, or one that starts
// after that line (`body` then holds the `def forward` line and its body).
inline std::unique_ptr<Graph> ParseModule(std::string_view text, std::string_view file = "test.py") {
  std::string whole(text);
  if (!whole.starts_with("class ")) whole = "class GraphModule(torch.nn.Module):\n" + whole;
  Result<std::unique_ptr<Graph>> graph = ParseReadable(whole, file);
  EXPECT_TRUE(graph.ok()) << graph.status().message();
  return graph.ok() ? std::move(graph).value() : std::make_unique<Graph>();
}

// `def forward(self, PARAMS):` and BODY (its lines, indented 8 spaces).
inline std::unique_ptr<Graph> ParseForward(std::string_view params, std::string_view body,
                                           std::string_view file = "test.py") {
  return ParseModule(fmt::format("    def forward(self, {}):\n{}", params, body), file);
}

// A node's spec for Graph::Append and friends (kwargs last: most nodes have none).
inline NodeSpec Spec(OpKind op, std::string target, std::vector<Argument> args, std::string name,
                     std::vector<Kwarg> kwargs = {}) {
  NodeSpec spec;
  spec.op = op;
  spec.target = std::move(target);
  spec.args = std::move(args);
  spec.kwargs = std::move(kwargs);
  spec.name = std::move(name);
  return spec;
}

// The meta of one float32 tensor of `sizes` (strides unstated).
inline NodeMeta F32(std::vector<Dim> sizes) {
  NodeMeta meta;
  meta.tensors.push_back(TensorMeta{DType::kFloat32, std::move(sizes), {}, ""});
  return meta;
}

}  // namespace airscope::testing_util

// An LLM-like graph for the big-session benches and tests (issue 33): an
// embedding-free decoder of `layers` identical layers, each an RMSNorm,
// attention (q/k/v projections, a rotary-style mix with cos/sin inputs all
// layers share, a mask all layers share, softmax, output projection,
// residual) and a mixture of `experts` experts unrolled as eager MoE code
// traces (router softmax, then per expert gate/up/down matmuls, SiLU,
// its routing weight selected by index, accumulated). Sizes are small
// (4 tokens, hidden 64) so shape inference and the pipeline see real shapes
// without the bytes; what matters here is the node count and the structure:
// 94 layers x ~705 experts is about 1,000,000 nodes, as a large MoE graph
// traced per token would be. Every weight is its own input, so the readable
// printout lists them in forward's signature as AOT graphs do.
// Header-only; the graph is built in memory and shapes are inferred.
#pragma once

#include <memory>
#include <string>

#include <fmt/format.h>

#include "bench/transformer_graph.h"
#include "core/ir/graph.h"
#include "core/ops/shape_inference.h"

namespace airscope::bench {
namespace llm {

using transformer::Builder;
using transformer::Ints;
using transformer::N;

inline Node* RmsNorm(Builder& b, Node* x, Node* weight) {
  Node* squared = b.Call("aten.pow.Tensor_Scalar", {N(x), Argument::Int(2)});
  Node* mean = b.Call("aten.mean.dim", {N(squared), Ints({-1}), Argument::Bool(true)});
  Node* eps = b.Call("aten.add.Tensor", {N(mean), Argument::Float(1e-6)});
  Node* scale = b.Call("aten.rsqrt.default", {N(eps)});
  return b.Call("aten.mul.Tensor", {N(b.Call("aten.mul.Tensor", {N(x), N(scale)})), N(weight)});
}

inline Node* Linear(Builder& b, Node* x, Node* weight) {
  return b.Call("aten.mm.default", {N(x), N(b.Call("aten.t.default", {N(weight)}))});
}

struct Shared {
  Node* cos;
  Node* sin;
  Node* mask;
};

// [4, 64] -> [4 heads, 4 tokens, 16] with the rotary-style mix.
inline Node* Heads(Builder& b, Node* projected, const Shared& shared, bool rotate) {
  Node* heads = b.Call("aten.transpose.int", {N(b.Call("aten.view.default", {N(projected), Ints({4, 4, 16})})),
                                              Argument::Int(0), Argument::Int(1)});
  if (!rotate) return heads;
  Node* straight = b.Call("aten.mul.Tensor", {N(heads), N(shared.cos)});
  Node* turned = b.Call("aten.mul.Tensor", {N(b.Call("aten.neg.default", {N(heads)})), N(shared.sin)});
  return b.Call("aten.add.Tensor", {N(straight), N(turned)});
}

inline Node* Layer(Builder& b, Node* x, const Shared& shared, int layer, int experts) {
  auto w = [&](const std::string& what, const char* annotation) {
    return b.Input(fmt::format("l{}_{}", layer, what), annotation);
  };
  Node* h = RmsNorm(b, x, w("attn_norm", "f32[64]"));
  Node* q = Heads(b, Linear(b, h, w("wq", "f32[64, 64]")), shared, true);
  Node* k = Heads(b, Linear(b, h, w("wk", "f32[64, 64]")), shared, true);
  Node* v = Heads(b, Linear(b, h, w("wv", "f32[64, 64]")), shared, false);
  Node* scores =
      b.Call("aten.bmm.default", {N(q), N(b.Call("aten.transpose.int", {N(k), Argument::Int(1), Argument::Int(2)}))});
  Node* masked =
      b.Call("aten.add.Tensor", {N(b.Call("aten.mul.Tensor", {N(scores), Argument::Float(0.25)})), N(shared.mask)});
  Node* probs = b.Call("aten._softmax.default", {N(masked), Argument::Int(-1), Argument::Bool(false)});
  Node* attended = b.Call("aten.bmm.default", {N(probs), N(v)});
  Node* merged =
      b.Call("aten.view.default",
             {N(b.Call("aten.clone.default",
                       {N(b.Call("aten.transpose.int", {N(attended), Argument::Int(0), Argument::Int(1)}))})),
              Ints({4, 64})});
  Node* residual = b.Call("aten.add.Tensor", {N(x), N(Linear(b, merged, w("wo", "f32[64, 64]")))});
  Node* h2 = RmsNorm(b, residual, w("ffn_norm", "f32[64]"));
  std::string router_annotation = fmt::format("f32[{}, 64]", experts);
  Node* routing = b.Call("aten._softmax.default", {N(Linear(b, h2, w("router", router_annotation.c_str()))),
                                                   Argument::Int(-1), Argument::Bool(false)});
  Node* acc = b.Call("aten.mul.Tensor", {N(h2), Argument::Float(0.0)});
  for (int e = 0; e < experts; ++e) {
    std::string name = fmt::format("e{}", e);
    Node* gate = b.Call("aten.silu.default", {N(Linear(b, h2, w(name + "_w1", "f32[128, 64]")))});
    Node* up = Linear(b, h2, w(name + "_w3", "f32[128, 64]"));
    Node* down = Linear(b, b.Call("aten.mul.Tensor", {N(gate), N(up)}), w(name + "_w2", "f32[64, 128]"));
    Node* weight =
        b.Call("aten.unsqueeze.default",
               {N(b.Call("aten.select.int", {N(routing), Argument::Int(1), Argument::Int(e)})), Argument::Int(-1)});
    acc = b.Call("aten.add.Tensor", {N(acc), N(b.Call("aten.mul.Tensor", {N(down), N(weight)}))});
  }
  return b.Call("aten.add.Tensor", {N(residual), N(acc)});
}

}  // namespace llm

// The graph; the output is the last layer's hidden state.
inline std::unique_ptr<Graph> LlmGraph(int layers, int experts) {
  using namespace llm;
  Builder b;
  b.graph.set_name("llm");
  Node* x = b.Input("hidden", "f32[4, 64]");
  Shared shared{b.Input("cos", "f32[1, 4, 16]"), b.Input("sin", "f32[1, 4, 16]"), b.Input("mask", "f32[4, 4]")};
  for (int layer = 0; layer < layers; ++layer) x = Layer(b, x, shared, layer, experts);
  NodeSpec output;
  output.op = OpKind::kOutput;
  output.target = output.name = "output";
  output.args = {Argument::Tuple({N(x)})};
  b.graph.Append(std::move(output));
  InferShapes(b.graph, OpRegistry::Builtin());
  return std::make_unique<Graph>(std::move(b.graph));
}

// Experts per layer for about `nodes` nodes in `layers` layers (each expert
// is 15 nodes with its 3 weights; the rest of a layer about 60).
inline int ExpertsFor(size_t nodes, int layers) {
  size_t per_layer = nodes / static_cast<size_t>(layers);
  return per_layer > 75 ? static_cast<int>((per_layer - 60) / 15) : 1;
}

}  // namespace airscope::bench

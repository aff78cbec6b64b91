// Transformer-like graphs for the benches: GPT-style blocks (layer norm,
// fused qkv addmm, split, per-head views/transposes, bmm, masked softmax, bmm,
// projection, residual, MLP with gelu) stacked until the graph has the
// requested size, with annotated inputs so every pass sees shapes.
// Header-only; used by pipeline_bench and report_bench.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "core/ir/graph.h"
#include "core/ops/shape_inference.h"

namespace airscope::bench {
namespace transformer {

inline Argument N(Node* n) { return Argument::NodeRef(n); }
inline Argument Ints(std::vector<int64_t> v) {
  std::vector<Argument> items;
  for (int64_t x : v) items.push_back(Argument::Int(x));
  return Argument::List(std::move(items));
}

class Builder {
 public:
  Node* Input(const std::string& name, const std::string& annotation) {
    NodeSpec spec;
    spec.op = OpKind::kPlaceholder;
    spec.target = spec.name = name;
    Node* node = *graph.AppendNamed(std::move(spec));
    NodeMeta meta;
    meta.tensors.push_back(*TensorMeta::ParseAnnotation(annotation));
    node->set_meta(std::move(meta));
    return node;
  }
  Node* Call(const std::string& target, std::vector<Argument> args) {
    NodeSpec spec;
    spec.target = "torch.ops." + target;
    spec.args = std::move(args);
    return graph.Append(std::move(spec));
  }
  Node* Item(Node* tuple, int64_t i) {
    NodeSpec spec;
    spec.target = "operator.getitem";
    spec.args = {N(tuple), Argument::Int(i)};
    return graph.Append(std::move(spec));
  }
  Graph graph{"transformer"};
};

// One block on x: [B*T, C] with B=2, T=16, C=128, 4 heads.
inline Node* Block(Builder& b, Node* x, int layer) {
  auto w = [&](const char* what, const char* ann) { return b.Input(fmt::format("l{}_{}", layer, what), ann); };
  Node* ln = b.Call("aten.native_layer_norm.default",
                    {N(x), Ints({128}), N(w("ln1_w", "f32[128]")), N(w("ln1_b", "f32[128]")), Argument::Float(1e-5)});
  Node* h = b.Item(ln, 0);
  Node* qkv = b.Call("aten.addmm.default",
                     {N(w("qkv_b", "f32[384]")), N(h), N(b.Call("aten.t.default", {N(w("qkv_w", "f32[384, 128]"))}))});
  Node* split = b.Call("aten.split.Tensor", {N(b.Call("aten.view.default", {N(qkv), Ints({2, 16, 384})})),
                                             Argument::Int(128), Argument::Int(2)});
  Node* heads[3];
  for (int i = 0; i < 3; ++i) {
    Node* v = b.Call("aten.view.default", {N(b.Item(split, i)), Ints({2, 16, 4, 32})});
    Node* t = b.Call("aten.transpose.int", {N(v), Argument::Int(1), Argument::Int(2)});
    heads[i] = b.Call("aten.clone.default", {N(t)});
  }
  Node* q = b.Call("aten._unsafe_view.default", {N(heads[0]), Ints({8, 16, 32})});
  Node* kt = b.Call("aten.transpose.int", {N(b.Call("aten._unsafe_view.default", {N(heads[1]), Ints({8, 16, 32})})),
                                           Argument::Int(1), Argument::Int(2)});
  Node* scores = b.Call("aten.mul.Tensor", {N(b.Call("aten.bmm.default", {N(q), N(kt)})), Argument::Float(0.17677)});
  Node* probs = b.Call("aten._softmax.default", {N(scores), Argument::Int(-1), Argument::Bool(false)});
  Node* v = b.Call("aten._unsafe_view.default", {N(heads[2]), Ints({8, 16, 32})});
  Node* att = b.Call("aten.bmm.default", {N(probs), N(v)});
  Node* merged =
      b.Call("aten.view.default",
             {N(b.Call("aten.clone.default",
                       {N(b.Call("aten.transpose.int", {N(b.Call("aten.view.default", {N(att), Ints({2, 4, 16, 32})})),
                                                        Argument::Int(1), Argument::Int(2)}))})),
              Ints({32, 128})});
  Node* proj = b.Call("aten.addmm.default", {N(w("proj_b", "f32[128]")), N(merged),
                                             N(b.Call("aten.t.default", {N(w("proj_w", "f32[128, 128]"))}))});
  Node* res = b.Call("aten.add.Tensor", {N(x), N(proj)});
  Node* ln2 = b.Item(b.Call("aten.native_layer_norm.default", {N(res), Ints({128}), N(w("ln2_w", "f32[128]")),
                                                               N(w("ln2_b", "f32[128]")), Argument::Float(1e-5)}),
                     0);
  Node* fc = b.Call("aten.addmm.default",
                    {N(w("fc_b", "f32[512]")), N(ln2), N(b.Call("aten.t.default", {N(w("fc_w", "f32[512, 128]"))}))});
  Node* act = b.Call("aten.gelu.default", {N(fc)});
  Node* out = b.Call("aten.addmm.default", {N(w("out_b", "f32[128]")), N(act),
                                            N(b.Call("aten.t.default", {N(w("out_w", "f32[128, 512]"))}))});
  return b.Call("aten.add.Tensor", {N(res), N(out)});
}

}  // namespace transformer

inline std::unique_ptr<Graph> Transformer(size_t nodes) {
  using namespace transformer;
  Builder b;
  Node* x = b.Input("x", "f32[32, 128]");
  for (int layer = 0; b.graph.size() + 2 < nodes; ++layer) x = Block(b, x, layer);
  NodeSpec out;
  out.op = OpKind::kOutput;
  out.target = out.name = "output";
  out.args = {Argument::Tuple({N(x)})};
  b.graph.Append(std::move(out));
  InferShapes(b.graph, OpRegistry::Builtin());
  return std::make_unique<Graph>(std::move(b.graph));
}

}  // namespace airscope::bench

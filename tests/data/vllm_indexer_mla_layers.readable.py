# Three decoder layers as vLLM's Dynamo graph would hold a model whose layer has
# two split ops with work between them: an indexer (vllm::sparse_attn_indexer)
# and the MLA attention (vllm::unified_mla_attention_with_output), both in
# vLLM's default splitting ops, so each layer makes two captured pieces, not
# one. Symbolic token count s72; each op writes into a buffer the piece
# before made. Written for airscope's plan tests; not traced from a model.
class GraphModule(torch.nn.Module):
    def forward(self, s72: "Sym(s72)", hidden: "bf16[s72, 256]", w_q: "bf16[256, 256]", w_k: "bf16[256, 256]", w_o: "bf16[256, 256]"):
        q_0: "bf16[s72, 256]" = torch.ops.aten.mm.default(hidden, w_q)
        topk_0: "i32[s72, 64]" = torch.ops.aten.empty.memory_format([s72, 64], dtype = torch.int32, device = device(type='npu', index=0))
        sparse_attn_indexer_0 = torch.ops.vllm.sparse_attn_indexer(q_0, topk_0, 'model.layers.0.self_attn.indexer')
        k_0: "bf16[s72, 256]" = torch.ops.aten.mm.default(q_0, w_k)
        out_0: "bf16[s72, 256]" = torch.ops.aten.empty.memory_format([s72, 256], dtype = torch.bfloat16, device = device(type='npu', index=0))
        unified_mla_attention_with_output_0 = torch.ops.vllm.unified_mla_attention_with_output(q_0, k_0, topk_0, out_0, 'model.layers.0.self_attn.attn')
        o_0: "bf16[s72, 256]" = torch.ops.aten.mm.default(out_0, w_o)
        h_0: "bf16[s72, 256]" = torch.ops.aten.add.Tensor(o_0, hidden)
        q_1: "bf16[s72, 256]" = torch.ops.aten.mm.default(h_0, w_q)
        topk_1: "i32[s72, 64]" = torch.ops.aten.empty.memory_format([s72, 64], dtype = torch.int32, device = device(type='npu', index=0))
        sparse_attn_indexer_1 = torch.ops.vllm.sparse_attn_indexer(q_1, topk_1, 'model.layers.1.self_attn.indexer')
        k_1: "bf16[s72, 256]" = torch.ops.aten.mm.default(q_1, w_k)
        out_1: "bf16[s72, 256]" = torch.ops.aten.empty.memory_format([s72, 256], dtype = torch.bfloat16, device = device(type='npu', index=0))
        unified_mla_attention_with_output_1 = torch.ops.vllm.unified_mla_attention_with_output(q_1, k_1, topk_1, out_1, 'model.layers.1.self_attn.attn')
        o_1: "bf16[s72, 256]" = torch.ops.aten.mm.default(out_1, w_o)
        h_1: "bf16[s72, 256]" = torch.ops.aten.add.Tensor(o_1, h_0)
        q_2: "bf16[s72, 256]" = torch.ops.aten.mm.default(h_1, w_q)
        topk_2: "i32[s72, 64]" = torch.ops.aten.empty.memory_format([s72, 64], dtype = torch.int32, device = device(type='npu', index=0))
        sparse_attn_indexer_2 = torch.ops.vllm.sparse_attn_indexer(q_2, topk_2, 'model.layers.2.self_attn.indexer')
        k_2: "bf16[s72, 256]" = torch.ops.aten.mm.default(q_2, w_k)
        out_2: "bf16[s72, 256]" = torch.ops.aten.empty.memory_format([s72, 256], dtype = torch.bfloat16, device = device(type='npu', index=0))
        unified_mla_attention_with_output_2 = torch.ops.vllm.unified_mla_attention_with_output(q_2, k_2, topk_2, out_2, 'model.layers.2.self_attn.attn')
        o_2: "bf16[s72, 256]" = torch.ops.aten.mm.default(out_2, w_o)
        h_2: "bf16[s72, 256]" = torch.ops.aten.add.Tensor(o_2, h_1)
        return (h_2,)

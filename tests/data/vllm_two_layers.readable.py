# Two decoder layers' attention and output projection as vLLM's Dynamo graph
# has them (symbolic token count s72, the attention as vLLM's custom ops,
# writing into a preallocated output), shaped after the split graph printed
# in vLLM PR #33441 (submod_1 reads key_2, s72, value, query_2, output_4).
# Written for airscope's split tests; not traced from a model.
class GraphModule(torch.nn.Module):
    def forward(self, s72: "Sym(s72)", hidden: "bf16[s72, 128]", w_qkv_0: "bf16[128, 384]", w_o_0: "bf16[128, 128]", w_qkv_1: "bf16[128, 384]", w_o_1: "bf16[128, 128]"):
        mm: "bf16[s72, 384]" = torch.ops.aten.mm.default(hidden, w_qkv_0)
        split = torch.ops.aten.split.Tensor(mm, 128, 1)
        getitem: "bf16[s72, 128]" = split[0]
        getitem_1: "bf16[s72, 128]" = split[1]
        getitem_2: "bf16[s72, 128]" = split[2]
        query_2: "bf16[s72, 2, 64]" = torch.ops.aten.view.default(getitem, [-1, 2, 64])
        key_2: "bf16[s72, 2, 64]" = torch.ops.aten.view.default(getitem_1, [-1, 2, 64])
        value: "bf16[s72, 2, 64]" = torch.ops.aten.view.default(getitem_2, [-1, 2, 64])
        output_4: "bf16[s72, 2, 64]" = torch.ops.aten.empty.memory_format([s72, 2, 64], dtype = torch.bfloat16, device = device(type='npu', index=0))
        unified_kv_cache_update: "bf16[0]" = torch.ops.vllm.unified_kv_cache_update(key_2, value, 'model.layers.0.self_attn.attn')
        unified_attention_with_output = torch.ops.vllm.unified_attention_with_output(query_2, key_2, value, output_4, 'model.layers.0.self_attn.attn', kv_cache_dummy_dep = unified_kv_cache_update)
        view: "bf16[s72, 128]" = torch.ops.aten.view.default(output_4, [-1, 128])
        mm_1: "bf16[s72, 128]" = torch.ops.aten.mm.default(view, w_o_0)
        add: "bf16[s72, 128]" = torch.ops.aten.add.Tensor(mm_1, hidden)
        mm_2: "bf16[s72, 384]" = torch.ops.aten.mm.default(add, w_qkv_1)
        split_1 = torch.ops.aten.split.Tensor(mm_2, 128, 1)
        getitem_3: "bf16[s72, 128]" = split_1[0]
        getitem_4: "bf16[s72, 128]" = split_1[1]
        getitem_5: "bf16[s72, 128]" = split_1[2]
        query_5: "bf16[s72, 2, 64]" = torch.ops.aten.view.default(getitem_3, [-1, 2, 64])
        key_5: "bf16[s72, 2, 64]" = torch.ops.aten.view.default(getitem_4, [-1, 2, 64])
        value_1: "bf16[s72, 2, 64]" = torch.ops.aten.view.default(getitem_5, [-1, 2, 64])
        output_9: "bf16[s72, 2, 64]" = torch.ops.aten.empty.memory_format([s72, 2, 64], dtype = torch.bfloat16, device = device(type='npu', index=0))
        unified_kv_cache_update_1: "bf16[0]" = torch.ops.vllm.unified_kv_cache_update(key_5, value_1, 'model.layers.1.self_attn.attn')
        unified_attention_with_output_1 = torch.ops.vllm.unified_attention_with_output(query_5, key_5, value_1, output_9, 'model.layers.1.self_attn.attn', kv_cache_dummy_dep = unified_kv_cache_update_1)
        view_1: "bf16[s72, 128]" = torch.ops.aten.view.default(output_9, [-1, 128])
        mm_3: "bf16[s72, 128]" = torch.ops.aten.mm.default(view_1, w_o_1)
        add_1: "bf16[s72, 128]" = torch.ops.aten.add.Tensor(mm_3, add)
        return (add_1,)

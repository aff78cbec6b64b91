class GraphModule(torch.nn.Module):
    def forward(self, L_var_ : torch.Tensor, L_indices_ : torch.Tensor, L_updates_ : torch.Tensor):
        l_var_ = L_var_
        l_indices_ = L_indices_
        l_updates_ = L_updates_

        # File: /home/torchair_example/tests/examples/test_scatter_update.py:16, code: output = torch_npu.scatter_update(var, indices, updates, -2)
        scatter_update = torch.ops.npu.scatter_update(l_var_, l_indices_, l_updates_, -2);  l_var_ = l_indices_ = l_updates_ = None
        return (scatter_update,)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# Source: https://gitee.com/ascend/torchair (mirror github.com/Ascend/torchair), commit fced8842d149f16b587c2c867d427e4b766831ca, docs/zh/ascend_ir/features/basic/python_log_print.md lines 78-91 (file last changed in commit 5c518574140d66e059a7a422cdbdd9900e2d3f07)
# What: TorchAir docs (Python log printing): Dynamo graph of torch_npu.scatter_update, an NPU custom op (torch.ops.npu.scatter_update), logged 2025-02-06 with torch._logging.set_logs(graph_code=True)
# Torch version: not stated (old-style "L_var_ : torch.Tensor" parameters, torch 2.1-era format)
# Stripped: the log prefix of each line up to and including "__graph_code: [DEBUG] " (blank lines carry no trailing space), and "<eval_with_key>.0 " before "class".
# The graph text above is otherwise exactly as printed; the raw excerpt is torchair_scatter_update.log.txt.

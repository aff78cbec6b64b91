class GraphModule(torch.nn.Module):
    def forward(self, L_x_: "f32[3]"):
        l_x_ = L_x_
        
         # File: /data/users/williamwen/pytorch2/playground2.py:4 in f1, code: return x + 1
        add: "f32[3]" = l_x_ + 1;  l_x_ = None
        return (add,)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# Source: https://github.com/pytorch/pytorch/issues/153646 (description, williamwen42, 2025-05-15: "[dynamo, logging] Move extra graph_code logging to a verbose artifact")
# What: f1(x) = x + 1 (graph "pre insert_deferred_runtime_asserts __compiled_fn_2"): operator.add with a Python constant
# Torch version: main of 2025-05 (2.8 dev)
# Stripped: nothing but "<eval_with_key>.0 " before "class" (TORCH_LOGS_FORMAT="" prints no prefix).
# The graph text above is otherwise exactly as printed; the raw excerpt is issue153646_add_one.log.txt.

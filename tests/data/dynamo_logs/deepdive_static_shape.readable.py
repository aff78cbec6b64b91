class GraphModule(torch.nn.Module):
    def forward(self, L_a_: "f32[4, 3][3, 1]cpu", L_b_: "f32[4, 3][3, 1]cpu"):
        l_a_ = L_a_
        l_b_ = L_b_
        
        # File: /mnt/ssd1/shreyansh/home_dir/misc_experiments/pytorch_internals/dynamo/symbolic_shapes.py:7 in fn, code: return a.shape[0] * a * b
        mul: "f32[4, 3][3, 1]cpu" = 4 * l_a_;  l_a_ = None
        mul_1: "f32[4, 3][3, 1]cpu" = mul * l_b_;  mul = l_b_ = None
        return (mul_1,)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# Source: https://github.com/shreyansh26/MLSys-Experiments/blob/bc22df91746c79cebad4ff3f85942f88750478bf/pytorch_internals/dynamo/symbolic_shapes.py
# What: fn(a, b) = a.shape[0] * a * b from the torch.compiler_dynamo_deepdive doc, first compile (static shape folded to the constant 4), TORCH_LOGS=graph_code,graph_sizes, logged 2025-01-23
# Torch version: 2.4 (the env name is shreyansh-env-py10-torch24)
# Stripped: the glog prefix of each line up to and including "[__graph_code] " (one space), and, on the class line, the module file name printed before "class".
# The graph text above is otherwise exactly as printed; the raw excerpt is deepdive_static_shape.log.txt.

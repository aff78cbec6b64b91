class GraphModule(torch.nn.Module):
    def forward(self, s0: "Sym(s0)", L_a_: "f32[s0, 3][3, 1]cpu", L_b_: "f32[s0, 3][3, 1]cpu"):
        l_a_ = L_a_
        l_b_ = L_b_
        
        # File: /mnt/ssd1/shreyansh/home_dir/misc_experiments/pytorch_internals/dynamo/symbolic_shapes.py:7 in fn, code: return a.shape[0] * a * b
        size = l_a_.size()
        getitem: "Sym(s0)" = size[0];  size = None
        mul: "f32[s0, 3][3, 1]cpu" = getitem * l_a_;  getitem = l_a_ = None
        mul_1: "f32[s0, 3][3, 1]cpu" = mul * l_b_;  mul = l_b_ = None
        return (mul_1,)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# Source: https://github.com/shreyansh26/MLSys-Experiments/blob/bc22df91746c79cebad4ff3f85942f88750478bf/pytorch_internals/dynamo/symbolic_shapes.py
# What: same fn, recompiled with a dynamic batch: SymInt input s0, l_a_.size() call_method, size[0] subscript, f32[s0, 3] annotations
# Torch version: 2.4 (env name)
# Stripped: the glog prefix of each line up to and including "[__graph_code] " (one space), and, on the class line, the module file name printed before "class".
# The graph text above is otherwise exactly as printed; the raw excerpt is deepdive_symbolic_shape.log.txt.

class GraphModule(torch.nn.Module):
    def forward(self, primals_1: "f32[1][1]cpu", primals_2: "f32[8, 256][256, 1]cpu"):
         # File: /home/yho_google_com/Documents/GitHub/sandbox/scripts/example_compile_lowerings.py:421 in forward, code: return (self.scale * x).sin()
        mul: "f32[8, 256][256, 1]cpu" = torch.ops.aten.mul.Tensor(primals_1, primals_2)
        sin: "f32[8, 256][256, 1]cpu" = torch.ops.aten.sin.default(mul);  mul = None
        return (sin, primals_1, primals_2)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# Source: https://github.com/yaoshiang/sandbox/blob/main/scripts/example_compile_lowerings.py (log pasted in the module docstring; the file has 7 stored versions, this one was run on 2026-01-21, index id 67111741827)
# What: TORCH_LOGS aot_graphs "Forward graph 0" of the same module (training: saves primals_1, primals_2)
# Torch version: not stated (python3.12)
# Stripped: the glog prefix of each line up to and including "[__aot_graphs] " (one space), and, on the class line, the module file name printed before "class".
# The graph text above is otherwise exactly as printed; the raw excerpt is sandbox_scale_sin_aot_forward.log.txt.

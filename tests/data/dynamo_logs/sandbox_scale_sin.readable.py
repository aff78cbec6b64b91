class GraphModule(torch.nn.Module):
    def forward(self, L_self_parameters_scale_: "f32[1][1]cpu", L_x_: "f32[8, 256][256, 1]cpu"):
        l_self_parameters_scale_ = L_self_parameters_scale_
        l_x_ = L_x_

         # File: /home/yho_google_com/Documents/GitHub/sandbox/scripts/example_compile_lowerings.py:421 in forward, code: return (self.scale * x).sin()
        mul: "f32[8, 256][256, 1]cpu" = l_self_parameters_scale_ * l_x_;  l_self_parameters_scale_ = l_x_ = None
        sin: "f32[8, 256][256, 1]cpu" = mul.sin();  mul = None
        return (sin,)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# Source: https://github.com/yaoshiang/sandbox/blob/main/scripts/example_compile_lowerings.py (log pasted in the module docstring; the file has 7 stored versions, this one was run on 2026-01-21, index id 67111741827)
# What: torch.compile on a module: (self.scale * x).sin(): parameter lifted as input L_self_parameters_scale_, operator.mul and call_method sin
# Torch version: not stated (python3.12; output_graph.py:1983, stride-annotated "f32[8, 256][256, 1]cpu" format)
# Stripped: the glog prefix of each line up to and including "[__graph_code] " (one space), and, on the class line, the module file name printed before "class".
# The graph text above is otherwise exactly as printed; the raw excerpt is sandbox_scale_sin.log.txt.

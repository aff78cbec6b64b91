class GraphModule(torch.nn.Module):
    def forward(self, L_self_parameters_scale_: "f32[1][1]cpu", L_x_: "f32[8, 256][256, 1]cpu", L_self_parameters_bias_: "f32[1][1]cpu"):
        l_self_parameters_scale_ = L_self_parameters_scale_
        l_x_ = L_x_
        l_self_parameters_bias_ = L_self_parameters_bias_

         # File: /home/yho_google_com/Documents/GitHub/sandbox/scripts/example_compile_lowerings.py:28 in forward, code: return self.scale * x + self.bias
        mul: "f32[8, 256][256, 1]cpu" = l_self_parameters_scale_ * l_x_;  l_self_parameters_scale_ = l_x_ = None
        add: "f32[8, 256][256, 1]cpu" = mul + l_self_parameters_bias_;  mul = l_self_parameters_bias_ = None
        return (add,)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# Source: https://github.com/yaoshiang/sandbox/blob/main/scripts/example_compile_lowerings.py (log pasted in the module docstring; the file has 7 stored versions, this one was run on 2026-01-20, index id 67417920005)
# What: module forward self.scale * x + self.bias: two lifted parameters, operator.mul and operator.add
# Torch version: not stated (python3.12)
# Stripped: the glog prefix of each line up to and including "[__graph_code] " (one space), and, on the class line, the module file name printed before "class".
# The graph text above is otherwise exactly as printed; the raw excerpt is sandbox_scale_bias.log.txt.

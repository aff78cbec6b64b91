class GraphModule(torch.nn.Module):
    def forward(self, L_model_parameters_scale_: "f32[1][1]cpu", L_data_: "f32[8, 256][256, 1]cpu"):
        l_model_parameters_scale_ = L_model_parameters_scale_
        l_data_ = L_data_

         # File: /home/yho_google_com/Documents/GitHub/sandbox/scripts/example_compile_lowerings.py:421 in forward, code: return (self.scale * x).sin()
        mul: "f32[8, 256][256, 1]cpu" = l_model_parameters_scale_ * l_data_;  l_model_parameters_scale_ = l_data_ = None
        out: "f32[8, 256][256, 1]cpu" = mul.sin();  mul = None

         # File: /home/yho_google_com/Documents/GitHub/sandbox/scripts/example_compile_lowerings.py:447 in train_step, code: loss = out.sum()
        loss: "f32[][]cpu" = out.sum()
        return (loss, out)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# Source: https://github.com/yaoshiang/sandbox/blob/main/scripts/example_compile_lowerings.py (log pasted in the module docstring; the file has 7 stored versions, this one was run on 2026-01-21, index id 67111741827)
# What: compiled train_step before the loss.backward() graph break (frame [1/0_1]): parameter of an argument module (L_model_parameters_scale_), mul, call_method sin and sum, two outputs
# Torch version: not stated (python3.12)
# Stripped: the glog prefix of each line up to and including "[__graph_code] " (one space), and, on the class line, the module file name printed before "class".
# The graph text above is otherwise exactly as printed; the raw excerpt is sandbox_train_step_sum.log.txt.

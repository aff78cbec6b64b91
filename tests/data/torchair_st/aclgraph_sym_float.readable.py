class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[6, 2]", s):
        _param_constant0: "f32[2, 2]" = self._param_constant0
        t: "f32[2, 2]" = torch.ops.aten.t.default(_param_constant0)
        _param_constant1: "f32[2]" = self._param_constant1
        addmm: "f32[6, 2]" = torch.ops.aten.addmm.default(_param_constant1, x, t)
        _param_constant2: "f32[2, 2]" = self._param_constant2
        t_1: "f32[2, 2]" = torch.ops.aten.t.default(_param_constant2)
        _param_constant3: "f32[2]" = self._param_constant3
        addmm_1: "f32[6, 2]" = torch.ops.aten.addmm.default(_param_constant3, x, t_1)
        add: "f32[6, 2]" = torch.ops.aten.add.Tensor(addmm_1, s)
        return (addmm, add)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# aclgraph_sym_scale.readable.py with s left unannotated: the model of TorchAir's
# test_aclgraph_dynamic_sym_in_scale_and_tensor called with the float 5.0, whose trace airscope
# does not model (a SymFloat); the graph stands for the call's inputs only.

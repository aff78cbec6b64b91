class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[5, 2]", s: "Sym(s2)"):
        _param_constant0: "f32[2, 2]" = self._param_constant0
        t: "f32[2, 2]" = torch.ops.aten.t.default(_param_constant0)
        _param_constant1: "f32[2]" = self._param_constant1
        addmm: "f32[5, 2]" = torch.ops.aten.addmm.default(_param_constant1, x, t)
        _param_constant2: "f32[2, 2]" = self._param_constant2
        t_1: "f32[2, 2]" = torch.ops.aten.t.default(_param_constant2)
        _param_constant3: "f32[2]" = self._param_constant3
        addmm_1: "f32[5, 2]" = torch.ops.aten.addmm.default(_param_constant3, x, t_1)
        add: "f32[5, 2]" = torch.ops.aten.add.Tensor(addmm_1, s)
        return (addmm, add)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# The model of TorchAir's tests/st/torchair_aclgraph_st.py test_aclgraph_dynamic_sym_in_scale_and_tensor
# (TorchAir at fced8842): two nn.Linear(2, 2) on x and torch.add(ln2, s), written by hand as the aten
# graph of the same form as ../mlp.readable.py (parameters as get_attr), x = randn([5, 2]), s an int.

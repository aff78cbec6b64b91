class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 64]"):
        _param_constant0: "f32[256, 64]" = self._param_constant0
        t: "f32[64, 256]" = torch.ops.aten.t.default(_param_constant0)
        _param_constant1: "f32[256]" = self._param_constant1
        addmm: "f32[8, 255]" = torch.ops.aten.addmm.default(_param_constant1, arg0_1, t)
        gelu: "f32[8, 256]" = torch.ops.aten.gelu.default(addmm)
        _param_constant2: "f32[64, 256]" = self._param_constant2
        t_1: "f32[256, 64]" = torch.ops.aten.t.default(_param_constant2)
        _param_constant3: "f32[64]" = self._param_constant3
        addmm_1: "f32[8, 64]" = torch.ops.aten.addmm.default(_param_constant3, gelu, t_1)
        _param_constant4: "f32[64]" = self._param_constant4
        _param_constant5: "f32[64]" = self._param_constant5
        native_layer_norm = torch.ops.aten.native_layer_norm.default(addmm_1, [64], _param_constant4, _param_constant5, 1e-05)
        getitem: "f32[8, 64]" = operator.getitem(native_layer_norm, 0)
        return getitem

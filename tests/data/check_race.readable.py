class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[64, 64]"):
        # File: model.py:12 in forward, code: with torchair.scope.npu_stream_switch('1'): y = x @ x
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['1', '0', 'True'])
        mm: "f32[64, 64]" = torch.ops.aten.mm.default(arg0_1, arg0_1)
        scope_exit = torch.ops.air.scope_exit.default()
        # File: model.py:13 in forward, code: x.mul_(2)
        mul: "f32[64, 64]" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        copy_: "f32[64, 64]" = torch.ops.aten.copy_.default(arg0_1, mul);  arg0_1 = mul = None
        return (mm,)

class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]"):
        mm: "f32[3, 3]" = torch.ops.aten.mm.default(arg0_1, arg0_1)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['1', '3', 'True'])
        wait = torch.ops.air.wait.default([mm])
        abs_1: "f32[3, 3]" = torch.ops.aten.abs.default(mm)
        add: "f32[3, 3]" = torch.ops.aten.add.Tensor(abs_1, 1)
        scope_exit = torch.ops.air.scope_exit.default()
        scope_enter_1 = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['2', '3', 'True'])
        wait_1 = torch.ops.air.wait.default([mm, abs_1])
        sub: "f32[3, 3]" = torch.ops.aten.sub.Tensor(add, mm)
        scope_exit_1 = torch.ops.air.scope_exit.default()
        return (sub,)

class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]"):
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label'], ['stream_1'])
        mm: "f32[3, 3]" = torch.ops.aten.mm.default(arg0_1, arg0_1)
        abs_1: "f32[3, 3]" = torch.ops.aten.abs.default(mm)
        record = torch.ops.air.record.default()
        scope_exit = torch.ops.air.scope_exit.default()
        add: "f32[3, 3]" = torch.ops.aten.add.Tensor(abs_1, 1)
        wait = torch.ops.air.wait.default([record])
        sub: "f32[3, 3]" = torch.ops.aten.sub.Tensor(arg0_1, mm)
        return (add, sub)

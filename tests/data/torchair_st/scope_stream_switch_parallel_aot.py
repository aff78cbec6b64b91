class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 2]", arg1_1: "f32[2, 2]", arg2_1: "f32[2, 2]", arg3_1: "f32[2, 2]"):
        add: "f32[2, 2]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['1', '2', 'True'])
        wait_tensor: "f32[2, 2]" = torch.ops.air.wait_tensor.default(arg3_1, add)
        mm: "f32[2, 2]" = torch.ops.aten.mm.default(arg2_1, arg3_1)
        scope_exit = torch.ops.air.scope_exit.default()
        mm_1: "f32[2, 2]" = torch.ops.aten.mm.default(arg2_1, arg3_1)
        scope_enter_1 = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['2', '3', 'False'])
        wait_tensor_1: "f32[2, 2]" = torch.ops.air.wait_tensor.default(arg3_1, mm)
        add_1: "f32[2, 2]" = torch.ops.aten.add.Tensor(arg2_1, arg3_1)
        scope_exit_1 = torch.ops.air.scope_exit.default()
        return (add, mm, mm_1, add_1)

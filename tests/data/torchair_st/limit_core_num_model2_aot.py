class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3, 3]", arg1_1: "f32[3, 3]", arg2_1: "f32[3, 3]", arg3_1: "f32[3, 3]"):
        add: "f32[3, 3]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        scope_enter = torch.ops.air.scope_enter.default(['_op_aicore_num', '_op_vectorcore_num'], ['2', '4'])
        mm: "f32[3, 3]" = torch.ops.aten.mm.default(arg2_1, arg3_1)
        scope_enter_1 = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['1', '3', 'True'])
        mm_1: "f32[3, 3]" = torch.ops.aten.mm.default(arg2_1, arg3_1)
        scope_exit = torch.ops.air.scope_exit.default()
        scope_exit_1 = torch.ops.air.scope_exit.default()
        return (add, mm, mm_1)

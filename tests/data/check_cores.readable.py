class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "bf16[16, 7168]", arg1_1: "i32[16, 8]", arg2_1: "bf16[128, 7168]", arg3_1: "i32[128]", arg4_1: "i32[256]", arg5_1: "f32[16, 8]"):
        # File: model.py:40 in forward, code: with torchair.scope.npu_stream_switch('1'):
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['1', '0', 'True'])
        npu_moe_distribute_dispatch = torch.ops.npu.npu_moe_distribute_dispatch.default(arg0_1, arg1_1, 'ep', 16, 0, 256)
        getitem: "bf16[128, 7168]" = npu_moe_distribute_dispatch[0];  npu_moe_distribute_dispatch = None
        scope_exit = torch.ops.air.scope_exit.default()
        # File: model.py:43 in forward, code: with torchair.scope.npu_stream_switch('2'):
        scope_enter_1 = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['2', '0', 'True'])
        npu_moe_distribute_combine: "bf16[16, 7168]" = torch.ops.npu.npu_moe_distribute_combine.default(arg2_1, arg1_1, arg3_1, arg4_1, arg5_1, 'ep', 16, 0, 256)
        scope_exit_1 = torch.ops.air.scope_exit.default()
        return (getitem, npu_moe_distribute_combine)

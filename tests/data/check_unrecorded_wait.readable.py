class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[64, 64]"):
        # File: model.py:21 in forward, code: with torchair.scope.npu_stream_switch('1'):
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['1', '0', 'True'])
        # File: model.py:22 in forward, code: ev.wait()  (ev: a torch.npu.Event recorded before the compiled region)
        tagged_event_wait = torch.ops.air.tagged_event_wait.default('graph_0_ev', True)
        mm: "f32[64, 64]" = torch.ops.aten.mm.default(arg0_1, arg0_1)
        scope_exit = torch.ops.air.scope_exit.default()
        relu: "f32[64, 64]" = torch.ops.aten.relu.default(arg0_1);  arg0_1 = None
        return (mm, relu)

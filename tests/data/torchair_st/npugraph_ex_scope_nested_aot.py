# tests/data/torchair_st/scope_nested_aot.py with its stream ops under npugraph_ex's namespace, as
# npugraph_ex registers them (torch.ops.npugraph_ex.scope_enter/scope_exit, npugraph_ex/_acl_concrete_graph/
# graph_pass.py:620-637): written by hand from that file, not traced.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 2]", arg1_1: "f32[2, 2]", arg2_1: "f32[2, 2]", arg3_1: "f32[2, 2]"):
        scope_enter = torch.ops.npugraph_ex.scope_enter.default(['_super_kernel_scope', '_super_kernel_options'], ['1', '2'])
        mm: "f32[2, 2]" = torch.ops.aten.mm.default(arg2_1, arg3_1)
        scope_enter_1 = torch.ops.npugraph_ex.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['5', '6', 'True'])
        add: "f32[2, 2]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1)
        scope_exit = torch.ops.npugraph_ex.scope_exit.default()
        scope_exit_1 = torch.ops.npugraph_ex.scope_exit.default()
        return (add, mm)

class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "f32[s0]"):
        empty_like: "f32[s0]" = torch.ops.aten.empty_like.default(arg1_1, pin_memory = False)
        empty_like_1: "f32[s0]" = torch.ops.aten.empty_like.default(arg1_1, pin_memory = False)
        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(arg1_1, empty_like, empty_like_1);  arg1_1 = empty_like = empty_like_1 = None
        getitem: "f32[s0]" = sin_cos_functional[0]
        getitem_1: "f32[s0]" = sin_cos_functional[1];  sin_cos_functional = None
        scope_enter = torch.ops.air.scope_enter.default(['_user_stream_label', '_user_stream_priority', '_enable_inner_parallel'], ['1', '3', 'True'])
        add: "f32[s0]" = torch.ops.aten.add.Tensor(getitem_1, 1.0);  getitem_1 = None
        scope_exit = torch.ops.air.scope_exit.default()
        return (getitem, add)

class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "f32[s0]"):
        empty_like: "f32[s0]" = torch.ops.aten.empty_like.default(arg1_1, pin_memory = False)
        empty_like_1: "f32[s0]" = torch.ops.aten.empty_like.default(arg1_1, pin_memory = False)
        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(arg1_1, empty_like, empty_like_1);  arg1_1 = empty_like = empty_like_1 = None
        getitem: "f32[s0]" = sin_cos_functional[0]
        getitem_2: "f32[s0]" = sin_cos_functional[2];  sin_cos_functional = None
        add: "f32[s0]" = torch.ops.aten.add.Tensor(getitem_2, 1.0);  getitem_2 = None
        return (getitem, add)

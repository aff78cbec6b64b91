class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 3]", arg1_1: "f32[8, 3]"):
        exp: "f32[8, 3]" = torch.ops.aten.exp.default(arg0_1)
        sin: "f32[8, 3]" = torch.ops.aten.sin.default(arg0_1)
        clone: "f32[8, 3]" = torch.ops.aten.clone.default(arg0_1)
        add: "f32[8, 3]" = torch.ops.aten.add.Tensor(clone, arg1_1)
        cat: "f32[24, 3]" = torch.ops.aten.cat.default([exp, sin, add])
        return (cat,)

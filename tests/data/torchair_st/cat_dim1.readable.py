class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 8]"):
        exp: "f32[2, 8]" = torch.ops.aten.exp.default(arg0_1)
        exp_1: "f32[2, 8]" = torch.ops.aten.exp.default(arg0_1)
        cat: "f32[2, 16]" = torch.ops.aten.cat.default([exp, exp_1], 1)
        return (cat,)

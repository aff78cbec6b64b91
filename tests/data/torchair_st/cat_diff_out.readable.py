class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[8, 3]", arg1_1: "f32[8, 3]"):
        sum_1: "f32[1, 3]" = torch.ops.aten.sum.dim_IntList(arg0_1, [0], True)
        mean: "f32[1, 3]" = torch.ops.aten.mean.dim(arg1_1, [0], True)
        cat: "f32[2, 3]" = torch.ops.aten.cat.default([sum_1, mean])
        return (cat,)

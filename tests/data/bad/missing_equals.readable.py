class GraphModule(torch.nn.Module):
    def forward(self, x: "f32[2, 2]"):
        abs_1: "f32[2, 2]" torch.ops.aten.abs.default(x)
        return (abs_1,)

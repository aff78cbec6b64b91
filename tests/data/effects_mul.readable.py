class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4]"):
        add: "f32[4]" = torch.ops.aten.add.Tensor(arg0_1, 1)
        mul: "f32[4]" = torch.ops.aten.mul.Tensor(arg0_1, 2)
        return (add, mul)

class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 2]", arg1_1: "f32[2, 2]"):
        pow_1: "f32[2, 2]" = torch.ops.aten.pow.Tensor_Scalar(arg0_1, 1)
        add: "f32[2, 2]" = torch.ops.aten.add.Tensor(pow_1, arg1_1)
        return (add,)

class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 2]", arg1_1: "f32[2, 2]"):
        constant_pad_nd: "f32[2, 2]" = torch.ops.aten.constant_pad_nd.default(arg0_1, [0, 0, 0, 0], 3.5)
        add: "f32[2, 2]" = torch.ops.aten.add.Tensor(constant_pad_nd, arg1_1)
        return (add,)

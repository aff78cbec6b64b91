class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[4]"):
        add: "f32[4]" = torch.ops.aten.add.Tensor(arg0_1, 1)
        mul: "f32[4]" = torch.ops.aten.mul.Tensor(add, 2)
        copy_: "f32[4]" = torch.ops.aten.copy_.default(arg0_1, add);  arg0_1 = add = copy_ = None
        return (mul,)

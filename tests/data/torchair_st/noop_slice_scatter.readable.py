class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 2]", arg1_1: "f32[2, 2]"):
        slice_scatter: "f32[2, 2]" = torch.ops.aten.slice_scatter.default(arg0_1, arg1_1)
        add: "f32[2, 2]" = torch.ops.aten.add.Tensor(slice_scatter, arg1_1)
        return (add,)

class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 2]", arg1_1: "f32[2, 2]"):
        slice_1: "f32[2, 2]" = torch.ops.aten.slice.Tensor(arg0_1, 0, 0, 9223372036854775807)
        slice_2: "f32[2, 2]" = torch.ops.aten.slice.Tensor(arg1_1, 0, 0, 9223372036854775807)
        add: "f32[2, 2]" = torch.ops.aten.add.Tensor(slice_1, slice_2)
        return (add,)

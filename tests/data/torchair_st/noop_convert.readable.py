class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[2, 2]", arg1_1: "f32[2, 2]"):
        convert_element_type: "f32[2, 2]" = torch.ops.prims.convert_element_type.default(arg0_1, torch.float32)
        add: "f32[2, 2]" = torch.ops.aten.add.Tensor(convert_element_type, arg1_1)
        return (add,)

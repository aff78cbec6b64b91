class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[64, 64][64, 1]npu:0"):
        relu: "f32[64, 64][64, 1]npu:0" = torch.ops.aten.relu.default(arg0_1)
        _to_copy: "f32[64, 64][64, 1]cpu" = torch.ops.aten._to_copy.default(relu, device = device(type='cpu'))
        return (_to_copy,)

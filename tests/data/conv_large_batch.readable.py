class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[256, 3, 224, 224]"):
        _param_constant0: "f32[64, 3, 7, 7]" = self._param_constant0
        convolution: "f32[256, 64, 112, 112]" = torch.ops.aten.convolution.default(arg0_1, _param_constant0, None, [2, 2], [3, 3], [1, 1], False, [0, 0], 1)
        relu: "f32[256, 64, 112, 112]" = torch.ops.aten.relu.default(convolution)
        _param_constant1: "f32[128, 64, 3, 3]" = self._param_constant1
        convolution_1: "f32[256, 128, 56, 56]" = torch.ops.aten.convolution.default(relu, _param_constant1, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1)
        relu_1: "f32[256, 128, 56, 56]" = torch.ops.aten.relu.default(convolution_1)
        _param_constant2: "f32[256, 128, 3, 3]" = self._param_constant2
        convolution_2: "f32[256, 256, 28, 28]" = torch.ops.aten.convolution.default(relu_1, _param_constant2, None, [2, 2], [1, 1], [1, 1], False, [0, 0], 1)
        relu_2: "f32[256, 256, 28, 28]" = torch.ops.aten.relu.default(convolution_2)
        return (relu_2,)

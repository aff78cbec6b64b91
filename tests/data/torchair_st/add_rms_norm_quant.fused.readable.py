class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[1, 2, 16]", arg1_1: "f16[1, 2, 16]", arg2_1: "f16[16]", arg3_1: "f32[16]", arg4_1: "i32[16]"):
        npu_add_rms_norm_quant = torch.ops.npu.npu_add_rms_norm_quant.default(arg0_1, arg1_1, arg2_1, arg3_1, arg4_1, epsilon = 4e-06)
        getitem_3: "i8[1, 2, 16]" = npu_add_rms_norm_quant[0]
        getitem_4: "f16[1, 2, 16]" = npu_add_rms_norm_quant[2];  npu_add_rms_norm_quant = None
        return (getitem_3, getitem_4)

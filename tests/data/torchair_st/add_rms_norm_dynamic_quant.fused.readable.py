class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 4, 8]", arg1_1: "f16[2, 4, 8]", arg2_1: "f16[8]", arg3_1: "f16[8]"):
        npu_add_rms_norm_dynamic_quant_1 = torch.ops.npu.npu_add_rms_norm_dynamic_quant.default(arg0_1, arg1_1, arg2_1, smooth_scale1 = arg3_1, output_mask = [True, False])
        getitem_13: "i8[2, 4, 8]" = npu_add_rms_norm_dynamic_quant_1[0]
        getitem_14: "f16[2, 4, 8]" = npu_add_rms_norm_dynamic_quant_1[2]
        getitem_15: "f32[2, 4]" = npu_add_rms_norm_dynamic_quant_1[3];  npu_add_rms_norm_dynamic_quant_1 = None
        npu_add_rms_norm_dynamic_quant = torch.ops.npu.npu_add_rms_norm_dynamic_quant.default(arg0_1, arg1_1, arg2_1, output_mask = [True, False])
        getitem_10: "i8[2, 4, 8]" = npu_add_rms_norm_dynamic_quant[0]
        getitem_11: "f16[2, 4, 8]" = npu_add_rms_norm_dynamic_quant[2]
        getitem_12: "f32[2, 4]" = npu_add_rms_norm_dynamic_quant[3];  npu_add_rms_norm_dynamic_quant = None
        view_2: "i8[8, 8]" = torch.ops.aten.view.default(getitem_10, [8, 8]);  getitem_10 = None
        view_3: "f32[8, 1]" = torch.ops.aten.view.default(getitem_12, [-1, 1]);  getitem_12 = None
        return (getitem_13, getitem_14, getitem_15, getitem_11, view_2, view_3)

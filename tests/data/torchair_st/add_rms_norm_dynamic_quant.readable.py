class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 4, 8]", arg1_1: "f16[2, 4, 8]", arg2_1: "f16[8]", arg3_1: "f16[8]"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[2, 4, 8]" = npu_add_rms_norm[0]
        getitem_2: "f16[2, 4, 8]" = npu_add_rms_norm[2];  npu_add_rms_norm = None
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(getitem, smooth_scales = arg3_1);  getitem = None
        getitem_3: "i8[2, 4, 8]" = npu_dynamic_quant[0]
        getitem_4: "f32[2, 4]" = npu_dynamic_quant[1];  npu_dynamic_quant = None
        npu_add_rms_norm_1 = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem_5: "f16[2, 4, 8]" = npu_add_rms_norm_1[0]
        getitem_7: "f16[2, 4, 8]" = npu_add_rms_norm_1[2];  npu_add_rms_norm_1 = None
        view: "f16[8, 8]" = torch.ops.aten.view.default(getitem_5, [8, 8]);  getitem_5 = None
        npu_dynamic_quant_1 = torch.ops.npu.npu_dynamic_quant.default(view);  view = None
        getitem_8: "i8[8, 8]" = npu_dynamic_quant_1[0]
        getitem_9: "f32[8]" = npu_dynamic_quant_1[1];  npu_dynamic_quant_1 = None
        view_1: "f32[8, 1]" = torch.ops.aten.view.default(getitem_9, [-1, 1]);  getitem_9 = None
        return (getitem_3, getitem_2, getitem_4, getitem_7, getitem_8, view_1)

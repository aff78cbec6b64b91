class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 4, 8]", arg1_1: "f16[2, 4, 8]", arg2_1: "f16[8]", arg3_1: "f16[8]"):
        npu_add_rms_norm_cast = torch.ops.npu.npu_add_rms_norm_cast.default(arg0_1, arg1_1, arg2_1)
        getitem_5: "f32[2, 4, 8]" = npu_add_rms_norm_cast[0]
        getitem_6: "f16[2, 4, 8]" = npu_add_rms_norm_cast[1]
        getitem_7: "f16[2, 4, 8]" = npu_add_rms_norm_cast[3];  npu_add_rms_norm_cast = None
        view_2: "f32[8, 8]" = torch.ops.aten.view.default(getitem_5, [-1, 8]);  getitem_5 = None
        view: "f16[8, 8]" = torch.ops.aten.view.default(getitem_6, [-1, 8]);  getitem_6 = None
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view, smooth_scales = arg3_1);  view = None
        getitem_3: "i8[8, 8]" = npu_dynamic_quant[0]
        getitem_4: "f32[8]" = npu_dynamic_quant[1];  npu_dynamic_quant = None
        return (view_2, getitem_7, getitem_3, getitem_4)

class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f16[2, 4, 8]", arg1_1: "f16[2, 4, 8]", arg2_1: "f16[8]", arg3_1: "f16[8]"):
        npu_add_rms_norm = torch.ops.npu.npu_add_rms_norm.default(arg0_1, arg1_1, arg2_1)
        getitem: "f16[2, 4, 8]" = npu_add_rms_norm[0]
        getitem_2: "f16[2, 4, 8]" = npu_add_rms_norm[2];  npu_add_rms_norm = None
        view: "f16[8, 8]" = torch.ops.aten.view.default(getitem, [-1, 8])
        npu_dynamic_quant = torch.ops.npu.npu_dynamic_quant.default(view, smooth_scales = arg3_1);  view = None
        getitem_3: "i8[8, 8]" = npu_dynamic_quant[0]
        getitem_4: "f32[8]" = npu_dynamic_quant[1];  npu_dynamic_quant = None
        view_1: "f16[8, 8]" = torch.ops.aten.view.default(getitem, [-1, 8]);  getitem = None
        _to_copy: "f32[8, 8]" = torch.ops.aten._to_copy.default(view_1, dtype = torch.float32);  view_1 = None
        return (_to_copy, getitem_2, getitem_3, getitem_4)

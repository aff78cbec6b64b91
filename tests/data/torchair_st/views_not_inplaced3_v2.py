class f(torch.nn.Module):
    def forward(self, arg0_1_1: "f32[3]"):
        # No stacktrace found for following nodes
        ones: "f32[10]" = torch.ops.aten.ones.default([10], device = device(type='cpu'), pin_memory = False)
        select: "f32[]" = torch.ops.aten.select.int(ones, 0, 2)
        auto_functionalized_v2 = torch.ops.higher_order.auto_functionalized_v2(torch.ops.custom.boo.default, _x_base_index = 0, _x_size = (), _x_stride = (), _x_storage_offset = 0, _all_bases = [ones]);  ones = None
        getitem = auto_functionalized_v2[0];  getitem = None
        getitem_1: "f32[10]" = auto_functionalized_v2[1];  auto_functionalized_v2 = getitem_1 = None
        return select

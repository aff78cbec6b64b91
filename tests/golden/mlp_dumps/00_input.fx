graph():
    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]
    %_param_constant0 : [num_users=1] = get_attr[target=_param_constant0]
    %t : [num_users=1] = call_function[target=torch.ops.aten.t.default](args = (%_param_constant0,), kwargs = {})
    %_param_constant1 : [num_users=1] = get_attr[target=_param_constant1]
    %addmm : [num_users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%_param_constant1, %arg0_1, %t), kwargs = {})
    %gelu : [num_users=1] = call_function[target=torch.ops.aten.gelu.default](args = (%addmm,), kwargs = {})
    %_param_constant2 : [num_users=1] = get_attr[target=_param_constant2]
    %t_1 : [num_users=1] = call_function[target=torch.ops.aten.t.default](args = (%_param_constant2,), kwargs = {})
    %_param_constant3 : [num_users=1] = get_attr[target=_param_constant3]
    %addmm_1 : [num_users=1] = call_function[target=torch.ops.aten.addmm.default](args = (%_param_constant3, %gelu, %t_1), kwargs = {})
    %_param_constant4 : [num_users=1] = get_attr[target=_param_constant4]
    %_param_constant5 : [num_users=1] = get_attr[target=_param_constant5]
    %native_layer_norm : [num_users=1] = call_function[target=torch.ops.aten.native_layer_norm.default](args = (%addmm_1, [64], %_param_constant4, %_param_constant5, 1e-05), kwargs = {})
    %getitem : [num_users=1] = call_function[target=operator.getitem](args = (%native_layer_norm, 0), kwargs = {})
    return getitem

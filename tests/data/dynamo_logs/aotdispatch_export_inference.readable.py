class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: f32[3, 1, 1, 1], arg1_1: f32[3], arg2_1: f32[3], arg3_1: f32[3], arg4_1: f32[3], arg5_1: f32[3], arg6_1: i64[], arg7_1: f32[1, 1, 3, 3]):
        # No stacktrace found for following nodes
        convolution: f32[1, 3, 3, 3] = torch.ops.aten.convolution.default(arg7_1, arg0_1, arg1_1, [1, 1], [0, 0], [1, 1], False, [0, 0], 1);  arg7_1 = arg0_1 = arg1_1 = None
        add: i64[] = torch.ops.aten.add.Tensor(arg6_1, 1);  arg6_1 = None
        _native_batch_norm_legit_functional = torch.ops.aten._native_batch_norm_legit_functional.default(convolution, arg2_1, arg3_1, arg4_1, arg5_1, True, 0.1, 1e-05);  convolution = arg2_1 = arg3_1 = arg4_1 = arg5_1 = None
        getitem: f32[1, 3, 3, 3] = _native_batch_norm_legit_functional[0]
        getitem_3: f32[3] = _native_batch_norm_legit_functional[3]
        getitem_4: f32[3] = _native_batch_norm_legit_functional[4];  _native_batch_norm_legit_functional = None
        relu: f32[1, 3, 3, 3] = torch.ops.aten.relu.default(getitem);  getitem = None
        sum_1: f32[] = torch.ops.aten.sum.default(relu)
        detach: f32[1, 3, 3, 3] = torch.ops.aten.detach.default(relu);  relu = None
        return (getitem_3, getitem_4, add, sum_1, detach)
        
# Source: pytorch/pytorch test/functorch/test_aotdispatch.py, TestAOTExport.test_aot_export_module_joint,
# the inference graph's assertExpectedInline of fx_g_inference.print_readable(print_output=False):
# torch's own print_readable output of the torch 2.0/2.1 era, annotations unquoted (f32[3]). Taken
# from an older revision of that file in the search tool's code index (its commit not recorded there);
# pytorch/pytorch at 00067369c9339bed950762afec327514d6fa2566 has the same test with the annotations
# quoted ("f32[3]") and two more detach nodes. The block's 8-space indentation inside the test's
# string was kept; the trailing line of spaces is the test string's last line.

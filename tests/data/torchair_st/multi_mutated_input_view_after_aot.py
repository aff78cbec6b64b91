# tests/st/torchair_aclgraph_st.py test_multi_mutated_input_with_view_after:
# y = custom.sin_cos_inplace(x, out_sin, out_cos); sin_view = out_sin.view(-1, 1);
# res = sin_view + 1; return y, res (three f32[3] inputs). The view reads out_sin's
# new value (getitem_1); both inputs get copy_ epilogues of the functional op's
# outputs 1 and 2 (stub: torchair_st_stub_aclgraph_utils.py:537-554). Written from
# the test's function and the stub, not traced.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "f32[3]", arg1_1: "f32[3]", arg2_1: "f32[3]"):
        sin_cos_functional = torch.ops.custom.sin_cos_functional.default(arg0_1, arg1_1, arg2_1);  arg0_1 = None
        getitem: "f32[3]" = sin_cos_functional[0]
        getitem_1: "f32[3]" = sin_cos_functional[1]
        getitem_2: "f32[3]" = sin_cos_functional[2];  sin_cos_functional = None
        view: "f32[3, 1]" = torch.ops.aten.view.default(getitem_1, [-1, 1])
        add: "f32[3, 1]" = torch.ops.aten.add.Tensor(view, 1);  view = None
        copy_: "f32[3]" = torch.ops.aten.copy_.default(arg1_1, getitem_1);  arg1_1 = getitem_1 = None
        copy__1: "f32[3]" = torch.ops.aten.copy_.default(arg2_1, getitem_2);  arg2_1 = getitem_2 = None
        return (getitem, add)

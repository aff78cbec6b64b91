# tests/st/torchair_aclgraph_st.py test_cat_optimization_basic as it compiles
# (torch.compile(f, dynamic=True), x of 8 floats): the AOT forward graph, in
# torch's print_readable form with its SymInt input; written from the test's
# function, not traced.
class GraphModule(torch.nn.Module):
    def forward(self, arg0_1: "Sym(s0)", arg1_1: "f32[s0]"):
        exp: "f32[s0]" = torch.ops.aten.exp.default(arg1_1)
        exp_1: "f32[s0]" = torch.ops.aten.exp.default(arg1_1)
        cat: "f32[2*s0]" = torch.ops.aten.cat.default([exp, exp_1])
        return (cat,)

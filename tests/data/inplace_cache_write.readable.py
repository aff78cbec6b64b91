class GraphModule(torch.nn.Module):
    def forward(self, k_cache: "f16[8, 64]", k: "f16[1, 64]", q: "f16[1, 64]"):
        # A cache update in place: copy_ writes row 0 of k_cache through a
        # slice (a view), and the matmul reads k_cache through another view,
        # with no data edge from copy_ to it.
        slice_1: "f16[1, 64]" = torch.ops.aten.slice.Tensor(k_cache, 0, 0, 1)
        copy_: "f16[1, 64]" = torch.ops.aten.copy_.default(slice_1, k);  slice_1 = k = copy_ = None
        t: "f16[64, 8]" = torch.ops.aten.t.default(k_cache);  k_cache = None
        mm: "f16[1, 8]" = torch.ops.aten.mm.default(q, t);  q = t = None
        return (mm,)

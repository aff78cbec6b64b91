class GraphModule(torch.nn.Module):
    def forward(self, L_t_: "f32[3, 3]"):
        l_t_ = L_t_
        stream = torch.npu.Stream()
        tmp: "f32[3, 3]" = torch.add(l_t_, 0)
        set_stream = torch.npu.set_stream(stream)
        r: "f32[3, 3]" = torch.add(tmp, 1)
        return (r,)

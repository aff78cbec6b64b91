class GraphModule(torch.nn.Module):
    def forward(self, L_t_: "f32[3, 3]"):
        l_t_ = L_t_
        current_stream = torch.npu.current_stream()
        stream = torch.npu.Stream()
        stream_1 = torch.npu.Stream()
        stream_2 = torch.npu.Stream()
        tmp: "f32[3, 3]" = torch.add(l_t_, 0)
        set_stream = torch.npu.set_stream(stream)
        tmp_1: "f32[3, 3]" = torch.add(tmp, 1)
        current_stream_1 = torch.npu.current_stream()
        set_stream_1 = torch.npu.set_stream(stream_1)
        tmp_2: "f32[3, 3]" = torch.add(tmp_1, 2)
        set_stream_2 = torch.npu.set_stream(stream_2)
        tmp_3: "f32[3, 3]" = torch.add(tmp_2, 3)
        set_stream_3 = torch.npu.set_stream(current_stream_1)
        r: "f32[3, 3]" = torch.add(tmp_3, 4)
        set_stream_4 = torch.npu.set_stream(current_stream)
        return (r,)

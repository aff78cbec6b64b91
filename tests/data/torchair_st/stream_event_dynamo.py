class GraphModule(torch.nn.Module):
    def forward(self, L_t_: "f32[3, 3]"):
        l_t_ = L_t_
        stream = torch.npu.Stream()
        tmp: "f32[3, 3]" = torch.add(l_t_, 2)
        event = torch.npu.Event()
        record = event.record()
        current_stream = torch.npu.current_stream()
        set_stream = torch.npu.set_stream(stream)
        wait = event.wait(stream)
        r: "f32[3, 3]" = torch.relu(tmp)
        fake_record_stream = torch.npu.fake_record_stream(r, stream)
        set_stream_1 = torch.npu.set_stream(current_stream)
        return (r,)

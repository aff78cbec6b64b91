class GraphModule(torch.nn.Module):
    def forward(self, L_in1_: "f32[3, 3]", L_in2_: "f32[3, 3]", L_in3_: "f32[3, 3]", L_in4_: "f32[3, 3]"):
        l_in1_ = L_in1_
        l_in2_ = L_in2_
        l_in3_ = L_in3_
        l_in4_ = L_in4_
        add_result: "f32[3, 3]" = torch.add(l_in1_, l_in2_);  l_in1_ = l_in2_ = None
        mm_result: "f32[3, 3]" = torch.mm(l_in3_, l_in4_);  l_in3_ = l_in4_ = None
        return (mm_result, add_result)

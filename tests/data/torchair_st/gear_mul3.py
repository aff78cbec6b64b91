class Model(torch.nn.Module):
    def forward(self, arg1: "f32[8, 8]", arg2: "f32[8, 8]", arg3: "f32[8, 8]"):
        mul: "f32[8, 8]" = arg1 * 2;  arg1 = None
        mul_1: "f32[8, 8]" = arg2 * 2;  arg2 = None
        mul_2: "f32[8, 8]" = arg3 * 2;  arg3 = None
        return (mul, mul_1, mul_2)

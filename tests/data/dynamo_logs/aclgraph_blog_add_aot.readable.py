class <lambda>(torch.nn.Module):
def forward(self, arg0_1: "f32[2, 2]", arg1_1: "f32[2, 2]"):
# File: /home/torchair/test.py:20 in forward, code: return torch.add(x, y)
add: "f32[2, 2]" = torch.ops.aten.add.Tensor(arg0_1, arg1_1); arg0_1 = arg1_1 = None
return (add,)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# Source: blog post "Ascend的aclgraph(九)AclConcreteGraph:e2e执行aclgraph" by zjun, 2025-05-19, https://xie.infoq.cn/article/5dafa354557dfb895b4f5b5ec (also http://www.coloradmin.cn/o/2376853.html); local copy /work/shared/seeds/000_5c172cbd437b4857.txt
# What: AOT forward graph of the same torch.add model (TORCH_LOGS aot_graphs: "Forward graph 0", class <lambda>), logged 2025-05-15
# Torch version: not stated
# Stripped: the glog prefix of each line up to and including "[__aot_graphs] " (one space), and, on the class line, the module file name printed before "class". NOTE: the blog page lost all leading indentation and collapsed "  " to " "; kept as published.
# The graph text above is otherwise exactly as printed; the raw excerpt is aclgraph_blog_add_aot.log.txt.

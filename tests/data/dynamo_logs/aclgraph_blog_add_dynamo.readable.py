class GraphModule(torch.nn.Module):
def forward(self, L_x_ : torch.Tensor, L_y_ : torch.Tensor):
l_x_ = L_x_
l_y_ = L_y_

# File: /home/torchair/test.py:20 in forward, code: return torch.add(x, y)
add = torch.add(l_x_, l_y_); l_x_ = l_y_ = None
return (add,)

# --- provenance (kept after the graph: airscope's readable parser rejects a comment before "class") ---
# Source: blog post "Ascend的aclgraph(九)AclConcreteGraph:e2e执行aclgraph" by zjun, 2025-05-19, https://xie.infoq.cn/article/5dafa354557dfb895b4f5b5ec (also http://www.coloradmin.cn/o/2376853.html); local copy /work/shared/seeds/000_5c172cbd437b4857.txt
# What: Dynamo graph of Model.forward = torch.add(x, y) on npu, compiled with TorchAir's npu backend (mode reduce-overhead), logged 2025-05-15 by TORCH_LOGS graph_code; CANN 8.1.RC1, torch_npu 7.0.0 per the post
# Torch version: not stated (python3.10; log line numbers match torch 2.1-2.5)
# Stripped: the glog prefix of each line up to and including "[__graph_code] " (one space), and, on the class line, the module file name printed before "class". NOTE: the blog page lost all leading indentation and collapsed "  " to " " before the kill list; kept as published, not re-indented.
# The graph text above is otherwise exactly as printed; the raw excerpt is aclgraph_blog_add_dynamo.log.txt.

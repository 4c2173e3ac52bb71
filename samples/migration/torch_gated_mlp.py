"""A small PyTorch MLP whose forward does its own tensor work between the layers: a gate from
torch.split, an L1 scaling with Tensor.norm, a clamp and F.normalize, trained with Nesterov momentum (the reference side of the
functional-call ports, `gradstep migrate torch_gated_mlp.py mindspore_gated_mlp*.py`)."""
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(1)
features = torch.tensor(rng.standard_normal((32, 12)), dtype=torch.float32)
targets = torch.tensor(rng.integers(0, 4, 32), dtype=torch.int64)


class GatedMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(12, 16)
        self.fc2 = nn.Linear(8, 8)
        self.out = nn.Linear(8, 4)

    def forward(self, x):
        h = self.fc1(x)
        value, gate = torch.split(h, 8, dim=1)
        h = value * torch.sigmoid(gate)
        h = h / (h.norm(p=1, dim=1, keepdim=True) + 1.0)
        h = self.fc2(h).clamp(max=0.05)
        h = F.normalize(h, dim=1)
        return self.out(h)


model = GatedMLP()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
for step in range(2):
    optimizer.zero_grad()
    loss = F.cross_entropy(model(features), targets)
    loss.backward()
    optimizer.step()
    print("step %d loss %.4f" % (step, loss.item()))

"""A small PyTorch classifier with GELU and Dropout, trained with Adam: the reference side of the
activation and dropout pitfalls (mindspore_mlp_gelu.py, mindspore_mlp_keep_prob.py)."""
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(1)
features = torch.tensor(rng.standard_normal((32, 20)), dtype=torch.float32)
labels = torch.tensor(rng.integers(0, 3, 32), dtype=torch.int64)

model = nn.Sequential(nn.Linear(20, 64), nn.GELU(), nn.Dropout(p=0.2), nn.Linear(64, 3))
model.train()
loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(3):
    optimizer.zero_grad()
    loss = loss_fn(model(features), labels)
    loss.backward()
    optimizer.step()
    print("step %d loss %.4f" % (step, loss.item()))

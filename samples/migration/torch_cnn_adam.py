"""A small PyTorch CNN written as one nn.Sequential, with BatchNorm's eps raised to 1e-3 and Adam
with L2 weight decay: the reference side of the optimizer and normalisation ports
(`gradstep migrate torch_cnn_adam.py mindspore_cnn_adam*.py`)."""
import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(2)
images = torch.tensor(rng.standard_normal((8, 3, 16, 16)), dtype=torch.float32)
labels = torch.tensor(rng.integers(0, 10, 8), dtype=torch.int64)

model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1),
    nn.BatchNorm2d(8, eps=1e-3),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Linear(8 * 8 * 8, 10),
)
model.train()
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, weight_decay=1e-2)
for epoch in range(3):
    optimizer.zero_grad()
    loss = criterion(model(images), labels)
    loss.backward()
    optimizer.step()
    print("step %d loss %.4f" % (epoch, loss.item()))

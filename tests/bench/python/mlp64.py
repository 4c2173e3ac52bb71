"""The MLP 64-128-64-10 the transform benchmarks (jvp, vmap) run: small enough that per-op cost
shows, deep enough that the chain rule has layers to go through."""
from mindspore import nn


class MLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(64, 128)
        self.fc2 = nn.Dense(128, 64)
        self.fc3 = nn.Dense(64, 10)
        self.relu = nn.ReLU()

    def construct(self, x):
        return self.fc3(self.relu(self.fc2(self.relu(self.fc1(x)))))

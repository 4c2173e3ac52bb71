"""XOR with a two-layer MLP: the classic problem a single linear layer cannot solve.

What it teaches: a user-defined nn.Cell (attributes register the child layers and their
parameters, `construct` is the forward), a non-linearity between two Dense layers, and how the
loss only falls once the hidden layer has learned a useful feature. Compare the gradient norms
of fc1 and fc2 early and late in training.
"""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

ms.set_seed(1)


class XorNet(nn.Cell):
    def __init__(self, hidden: int = 8):
        super().__init__()
        self.fc1 = nn.Dense(2, hidden)
        self.act = nn.Tanh()
        self.fc2 = nn.Dense(hidden, 1)

    def construct(self, x):
        return self.fc2(self.act(self.fc1(x)))


inputs = Tensor(np.array([[0, 0], [0, 1], [1, 0], [1, 1]], np.float32))
targets = Tensor(np.array([[0], [1], [1], [0]], np.float32))

net = XorNet()
loss_fn = nn.BCEWithLogitsLoss()
optimizer = nn.Adam(net.trainable_params(), learning_rate=0.05)


def forward_fn(x, y):
    return loss_fn(net(x), y)


grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())

for step in range(300):
    loss, grads = grad_fn(inputs, targets)
    optimizer(grads)
    if step % 50 == 0 or step == 299:
        norms = ", ".join(f"{p.name} {float(ops.norm(g)):.4f}"
                          for p, g in zip(net.trainable_params(), grads))
        print(f"step {step:3d}  loss {float(loss):.5f}  |grad| {norms}")

probabilities = ops.sigmoid(net(inputs)).asnumpy().ravel()
print("XOR predictions:", [f"{p:.3f}" for p in probabilities])
assert (np.round(probabilities) == [0, 1, 1, 0]).all(), "XOR was not learned"

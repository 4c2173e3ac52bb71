"""A port of torch_gated_mlp.py with one pitfall: .clamp(max=0.05) written as
ops.clip_by_value(y, 0.05), whose second argument is the lower bound clip_value_min: the values are
clipped from below instead of above. `gradstep migrate` names both bounds."""
import numpy as np
import mindspore as ms
from mindspore import nn, ops

rng = np.random.default_rng(1)
features = ms.Tensor(rng.standard_normal((32, 12)).astype(np.float32))
targets = ms.Tensor(rng.integers(0, 4, 32).astype(np.int32))


class GatedMLP(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Dense(12, 16)
        self.fc2 = nn.Dense(8, 8)
        self.out = nn.Dense(8, 4)
        self.l2_normalize = ops.L2Normalize(axis=1, epsilon=1e-24)

    def construct(self, x):
        h = self.fc1(x)
        value, gate = ops.split(h, 8, axis=1)
        h = value * ops.sigmoid(gate)
        h = h / (ops.norm(h, ord=1, dim=1, keepdim=True) + 1.0)
        y = self.fc2(h)
        h = ops.clip_by_value(y, 0.05)
        h = self.l2_normalize(h)
        return self.out(h)


net = GatedMLP()
loss_fn = nn.CrossEntropyLoss()
optimizer = nn.SGD(net.trainable_params(), learning_rate=0.1, momentum=0.9, nesterov=True)


def forward(x, y):
    return loss_fn(net(x), y)


grad_fn = ms.value_and_grad(forward, None, optimizer.parameters)
for step in range(2):
    loss, grads = grad_fn(features, targets)
    optimizer(grads)
    print("step %d loss %.4f" % (step, float(loss.asnumpy())))

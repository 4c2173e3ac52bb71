"""A port of torch_gated_mlp.py with one pitfall: h.norm(p=1, dim=1, keepdim=True) written as
Tensor.norm without the order, which defaults to the 2-norm (ord=None): the L1 scaling becomes an
L2 one and fc2 parts. `gradstep migrate` names p=1 against ord=None."""
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
        h = h / (h.norm(dim=1, keepdim=True) + 1.0)
        h = ops.clip_by_value(self.fc2(h), clip_value_max=0.05)
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

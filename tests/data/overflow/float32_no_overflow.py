"""The forward_exp.py network in float32: exp(12) is finite, and nothing runs in half precision,
so the overflow watchpoint has nothing to stop at."""
import numpy as np

import mindspore as ms
from mindspore import Tensor, nn, ops

net = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
loss_fn = nn.MSELoss()
x = Tensor(np.full((2, 4), 3.0, np.float32))
y = Tensor(np.zeros((2, 3), np.float32))


def forward(data, label):
    return loss_fn(ops.exp(net(data)), label) * 2.0 ** 24


loss, grads = ms.value_and_grad(forward, None, net.trainable_params())(x, y)
print(loss)
